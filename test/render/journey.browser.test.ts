// Can an agent buy here? Loopback stores scanned through GET /api/v1/scan by the real service with a real headless
// Chromium behind the address proxy: each store differs from the complete one in one way on the way to the checkout,
// and the journey must end exactly there. Every store is a canary (test/fixtures/shop.ts): no test may see an order,
// a checkout-form submission, a value the journey typed other than the product's name, or a tool call that is not
// the catalog's.
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE, buyableStore } from '../fixtures/stores.js';
import { checkoutPage, newCanary, type Canary, type ShopOptions } from '../fixtures/shop.js';
import { startFixtureStore, startStoreFrom, type FixtureRoutes, type FixtureStore } from '../helpers/fixture-store.js';
import { getJson, startApp } from '../helpers/start-app.js';
import { chromiumAvailable, SHOTS } from '../helpers/browser.js';
import { tableLookup } from '../helpers/dns-table.js';
import { createChromiumRenderer, type ChromiumRenderer } from '../../render/chromium.js';
import { Journey, type JourneyStepName } from '../../schemas/journey.js';

let renderer: ChromiumRenderer | null = null;
before(() => {
  renderer = createChromiumRenderer({ executablePath: '/usr/bin/chromium', concurrency: 2 });
});
after(() => renderer?.close());

const stores: FixtureStore[] = [];
after(() => Promise.all(stores.map((s) => s.close())));

const PRODUCT_NAMES = new Set(CATALOGUE.map((p) => p.name));

/** Scans a buyable store built from `build` (default: the complete store changed by `opts`) and returns its journey. */
async function walk(t: TestContext, opts: ShopOptions & { catalog?: { price?: string; answer?: 'huge' | 'never' } } = {}, extra: { build?: (canary: Canary) => (origin: string) => FixtureRoutes; lookup?: Record<string, string> } = {}) {
  const canary = newCanary();
  const store = await startStoreFrom((extra.build ?? ((c) => buyableStore(c, opts)))(canary));
  stores.push(store);
  const lookup = extra.lookup ? tableLookup(extra.lookup) : undefined;
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '0' }, { scanOverrides: { allowIPAddressList: ['127.0.0.1'], lookup }, renderer: renderer ?? undefined });
  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 500));
  const journey = Journey.parse(res.body.journey);
  assertCanary(canary, journey);
  return { journey, canary, store, app, body: res.body };
}

/** Nothing bought, nothing submitted, nothing typed but a product's name, no tool called but the catalog's. */
function assertCanary(canary: Canary, journey: Journey) {
  const trace = JSON.stringify(journey.steps.map((s) => `${s.step} ${s.status}: ${s.detail}`));
  assert.equal(canary.orders, 0, `no order placed: ${trace}`);
  assert.equal(canary.checkoutSubmissions, 0, `no checkout form submitted: ${trace}`);
  assert.deepEqual(canary.stray, [], 'nothing typed but the product name');
  assert.ok(canary.searches.every((q) => PRODUCT_NAMES.has(q)), `only product names searched: ${JSON.stringify(canary.searches)}`);
  assert.ok(canary.toolCalls.every((name) => name === 'search_catalog' || name === 'get_product'), `only catalog tools called: ${canary.toolCalls}`);
}

const step = (j: Journey, name: JourneyStepName) => j.steps.find((s) => s.step === name)!;
const statuses = (j: Journey) => Object.fromEntries(j.steps.map((s) => [s.step, s.status]));
const trace = (j: Journey) => JSON.stringify(j.steps.map((s) => `${s.step} ${s.status}: ${s.detail}`), null, 1);

test('a complete store with a form cart: searched, added, the cart listed it, the checkout reached and described', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { journey, store } = await walk(t);
  assert.equal(journey.outcome, 'reached_checkout', trace(journey));
  assert.equal(journey.blocker, null);
  assert.equal(journey.counted_in_score, false);
  assert.deepEqual(statuses(journey), { search: 'passed', open_product: 'passed', dismiss_overlay: 'skipped', choose_variant: 'skipped', add_to_cart: 'passed', open_cart: 'passed', start_checkout: 'passed', checkout: 'passed' });
  assert.match(step(journey, 'search').detail, /Typed "Trail Runner Jacket"|Typed "Merino Base Layer"|Typed "Alpine Day Pack 22L"/);
  assert.deepEqual(journey.checkout, {
    url: `${store.origin}/checkout`,
    host: new URL(store.origin).host,
    same_site: true,
    guest: true,
    signals: ['email field', 'shipping field', 'address-line1 field', 'postal-code field', 'cc-number field', 'checkout URL /checkout'],
  });
  // The checkout's own script tried to post the form on its own: refused and counted.
  assert.ok(journey.requests_refused >= 1, `refused ${journey.requests_refused}`);
  assert.ok(journey.walked_at);
  assert.match(journey.screenshot?.data_url ?? '', /^data:image\/jpeg;base64,\/9j\//);
  assert.ok(Buffer.from(journey.screenshot!.data_url.split(',')[1], 'base64').length <= 40 * 1024);
  writeFileSync(join(SHOTS, 'journey-checkout.jpg'), Buffer.from(journey.screenshot!.data_url.split(',')[1], 'base64'));
  // The agent rules of axe ran on the product page and on the checkout: the complete store breaks none.
  assert.deepEqual(journey.accessibility.map((a) => [a.step, a.violations]), [['open_product', []], ['checkout', []]]);
});

test('a required size: the first available size is chosen, then the checkout is reached', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { journey } = await walk(t, { requiredSize: true });
  assert.equal(journey.outcome, 'reached_checkout', trace(journey));
  assert.equal(step(journey, 'choose_variant').status, 'passed');
  assert.match(step(journey, 'choose_variant').detail, /Chose "S" for "Size"/);
});

test('a script cart that adds through fetch and opens a drawer: the drawer is the proof, its checkout link the way on', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { journey } = await walk(t, { cart: 'script' });
  assert.equal(journey.outcome, 'reached_checkout', trace(journey));
  assert.match(step(journey, 'add_to_cart').detail, /<div#cart-drawer> opened, naming the product/);
  assert.match(step(journey, 'open_cart').detail, /cart drawer/);
  assert.match(step(journey, 'start_checkout').detail, /Pressed "Check out" \(link\)/);
});

test('a sign-in wall at checkout: stopped, login_required, no guest', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { journey } = await walk(t, { checkout: 'sign-in' });
  assert.equal(journey.outcome, 'stopped', trace(journey));
  assert.equal(journey.blocker, 'login_required');
  assert.equal(step(journey, 'checkout').status, 'failed');
  assert.match(step(journey, 'checkout').detail, /sign in \(a password field\) and offers no guest path/);
  assert.equal(journey.checkout, null);
  assert.ok(journey.screenshot, 'a picture of where it stopped');
});

test('a challenge at checkout: stopped, challenge', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { journey } = await walk(t, { checkout: 'challenge' });
  assert.equal(journey.outcome, 'stopped', trace(journey));
  assert.equal(journey.blocker, 'challenge');
  assert.match(step(journey, 'checkout').detail, /Cloudflare Turnstile challenge/);
});

test('an unnamed icon as the only buy control: stopped, unnamed_control, and axe names the rule', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { journey } = await walk(t, { buy: 'icon' });
  assert.equal(journey.outcome, 'stopped', trace(journey));
  assert.equal(journey.blocker, 'unnamed_control');
  assert.deepEqual(statuses(journey), { search: 'passed', open_product: 'passed', dismiss_overlay: 'skipped', choose_variant: 'skipped', add_to_cart: 'failed', open_cart: 'skipped', start_checkout: 'skipped', checkout: 'skipped' });
  const product = journey.accessibility.find((a) => a.step === 'open_product');
  assert.deepEqual(product?.violations.map((v) => [v.rule, v.impact, v.nodes, v.targets]), [['button-name', 'critical', 1, ['#add']]]);
});

test('a buy button whose script fails: stopped, cart_stayed_empty, with the script error', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { journey } = await walk(t, { buy: 'broken-script' });
  assert.equal(journey.outcome, 'stopped', trace(journey));
  assert.equal(journey.blocker, 'cart_stayed_empty');
  assert.match(step(journey, 'add_to_cart').detail, /does not list it\. A script of the page failed: "addToCartt is not defined"/);
});

test('a cookie wall over everything: pressed away by its name, and the checkout reached', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { journey } = await walk(t, { cookieWall: true });
  assert.equal(journey.outcome, 'reached_checkout', trace(journey));
  assert.equal(step(journey, 'dismiss_overlay').status, 'passed');
  assert.match(step(journey, 'dismiss_overlay').detail, /<div#cookie-wall> \(Cookie consent\).*pressed "Accept all", as an agent would/);
});

test('a checkout on another host: reached, and the checkout names that host', async (t) => {
  if (!chromiumAvailable(t)) return;
  const canary = newCanary();
  const pay = await startFixtureStore({ '/checkouts/c1': checkoutPage(canary) });
  stores.push(pay);
  const checkoutUrl = `http://pay.test:${pay.port}/checkouts/c1`;
  const { journey } = await walk(t, { checkoutUrl }, { lookup: { 'pay.test': '127.0.0.1', '127.0.0.1': '127.0.0.1' } });
  assertCanary(canary, journey);
  assert.equal(journey.outcome, 'reached_checkout', trace(journey));
  assert.equal(journey.checkout?.url, checkoutUrl);
  assert.equal(journey.checkout?.host, `pay.test:${pay.port}`);
  assert.equal(journey.checkout?.same_site, false);
  assert.ok(journey.checkout?.signals.includes('checkout URL /checkouts/c1'));
});

test("a store whose MCP catalog tool answers the page's price: found, price_matches", async (t) => {
  if (!chromiumAvailable(t)) return;
  const { journey, canary } = await walk(t, { catalog: {} });
  assert.deepEqual(canary.toolCalls, ['search_catalog']);
  assert.equal(journey.protocol?.via, 'mcp');
  assert.equal(journey.protocol?.tool, 'search_catalog');
  assert.ok(PRODUCT_NAMES.has(journey.protocol?.query ?? ''));
  assert.equal(journey.protocol?.found, true, journey.protocol?.detail);
  assert.equal(journey.protocol?.price_matches, true, journey.protocol?.detail);
  assert.deepEqual(journey.protocol?.protocol_price, journey.protocol?.page_price);
  assert.equal(journey.protocol?.availability_matches, true);
  assert.ok((journey.protocol?.calls ?? 9) <= 3);
});

test('a store whose MCP catalog tool answers another price: price_matches false, both prices said', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { journey } = await walk(t, { catalog: { price: '149.00' } });
  assert.equal(journey.protocol?.found, true, journey.protocol?.detail);
  assert.equal(journey.protocol?.price_matches, false);
  assert.deepEqual(journey.protocol?.protocol_price, { amount: 149, currency: 'EUR' });
  assert.match(journey.protocol?.detail ?? '', /at 149 EUR; its page says \d+ EUR/);
});

test('a second scan of the same root within 10 minutes reuses the walk: the store is walked once', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { journey, store, app, canary } = await walk(t);
  const checkoutHits = store.hits('/checkout');
  const again = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  const reused = Journey.parse(again.body.journey);
  assertCanary(canary, reused);
  assert.equal(store.hits('/checkout'), checkoutHits, 'no second walk');
  assert.equal(reused.walked_at, journey.walked_at);
  assert.deepEqual(reused.steps, journey.steps);
  assert.match(reused.note, /reused: a store is walked to its checkout at most once every 10 minutes/);
  // A scan of another page of the store walks nothing.
  const path = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(`${store.url}pages/contact`)}`);
  assert.equal(path.body.journey.outcome, 'not_run');
  assert.match(path.body.journey.note, /only a scan of the store's root/);
});

test('without a browser the journey is not run and the catalog is still asked', async (t) => {
  const canary = newCanary();
  const store = await startStoreFrom(buyableStore(canary, { catalog: {} }));
  stores.push(store);
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '0' }, { scanOverrides: { allowIPAddressList: ['127.0.0.1'] } });
  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  const journey = Journey.parse(res.body.journey);
  assert.equal(journey.outcome, 'not_run');
  assert.match(journey.note, /no browser/);
  assert.equal(journey.protocol?.price_matches, true);
  assert.equal(canary.orders + canary.checkoutSubmissions + store.hits('/cart'), 0);
});
