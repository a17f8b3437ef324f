// Hostile stores against the buying journey, through GET /api/v1/scan on the real service with a real Chromium
// under the production address rules (SCAN_ALLOW_PRIVATE=0; only the store's own 127.0.0.1 allowed): a buy button
// that navigates away forever, a cart that redirects in a loop, a checkout that opens windows, a catalog tool that
// answers 10 MB or never, pages that aim at an internal address or rewrite the built-ins the journey's scripts use.
// Each journey ends within its budget with a clear blocker, nothing is bought or submitted (the canary), and the
// internal listener on 127.0.0.2 counts no connection.
import '../support/loopback-guard.js';
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startInternalListener, type InternalListener } from '../helpers/internal-listener.js';
import { buyableStore } from '../fixtures/stores.js';
import { newCanary, type ShopOptions } from '../fixtures/shop.js';
import { startStoreFrom, type FixtureStore } from '../helpers/fixture-store.js';
import { getJson, startApp } from '../helpers/start-app.js';
import { chromiumAvailable } from '../helpers/browser.js';
import { assertWithin } from '../helpers/timing.js';
import { createChromiumRenderer, type ChromiumRenderer } from '../../render/chromium.js';
import { Journey } from '../../schemas/journey.js';

const JOURNEY_TIMEOUT_MS = 15_000;
let renderer: ChromiumRenderer | null = null;
let internal: InternalListener;
const stores: FixtureStore[] = [];

before(async () => {
  renderer = createChromiumRenderer({ executablePath: '/usr/bin/chromium', concurrency: 2 });
  internal = await startInternalListener();
});
after(async () => {
  await renderer?.close();
  await Promise.all(stores.map((s) => s.close()));
  await internal.close();
});

async function walk(t: TestContext, opts: ShopOptions & { catalog?: { answer?: 'huge' | 'never' } }) {
  const canary = newCanary();
  const store = await startStoreFrom(buyableStore(canary, opts));
  stores.push(store);
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '0', JOURNEY_TIMEOUT_MS: String(JOURNEY_TIMEOUT_MS) }, { scanOverrides: { allowIPAddressList: ['127.0.0.1'] }, renderer: renderer ?? undefined });
  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 500));
  const journey = Journey.parse(res.body.journey);
  const trace = JSON.stringify(journey.steps.map((s) => `${s.step} ${s.status}: ${s.detail}`), null, 1);
  const writes = store.requests.filter((r) => r.method !== 'GET' || r.path.startsWith('/checkout/complete')).map((r) => `${r.method} ${r.path} ${String(r.headers['user-agent'] ?? '').slice(0, 40)}`);
  assert.equal(canary.orders + canary.checkoutSubmissions, 0, `nothing bought or submitted: ${trace}\nwrites: ${writes.join('; ')}`);
  assert.deepEqual(canary.stray, []);
  assert.deepEqual(internal.connections, [], 'no connection reached the internal listener');
  return { journey, trace, body: res.body };
}

test('a buy button that navigates away forever: stopped within the budget, the cart stayed empty, the pending page named', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { journey, trace } = await walk(t, { buy: 'navigates-forever' });
  assert.equal(journey.outcome, 'stopped', trace);
  assert.ok(journey.blocker === 'cart_stayed_empty' || journey.blocker === 'timeout', trace);
  assert.match(journey.steps.find((s) => s.step === 'add_to_cart')?.detail ?? '', /\/cart\/hang/);
  assertWithin('a journey whose buy button never lands', journey.duration_ms, JOURNEY_TIMEOUT_MS);
});

test('a cart that redirects in a loop: stopped at the cart with the loop named', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { journey, trace } = await walk(t, { cartLoop: true });
  assert.equal(journey.outcome, 'stopped', trace);
  assert.equal(journey.blocker, 'error');
  const failed = journey.steps.find((s) => s.status === 'failed' && s.step !== 'search');
  assert.match(failed?.detail ?? '', /redirected in a loop/);
  assertWithin('a journey into a redirect loop', journey.duration_ms, JOURNEY_TIMEOUT_MS);
});

test('a checkout that opens windows: the windows are closed, the checkout recognised, the journey stops there', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { journey, trace } = await walk(t, { checkout: 'opens-windows' });
  assert.equal(journey.outcome, 'reached_checkout', trace);
  assert.ok(journey.requests_refused >= 1, 'what the checkout sent after it was reached was refused');
  assertWithin('a journey into a checkout that opens windows', journey.duration_ms, JOURNEY_TIMEOUT_MS);
});

test('a catalog tool that answers 10 MB, and one that never answers: the scan completes and the detail says why', async (t) => {
  if (!chromiumAvailable(t)) return;
  const huge = await walk(t, { catalog: { answer: 'huge' } });
  assert.match(huge.journey.protocol?.detail ?? '', /larger than an agent reads/);
  const never = await walk(t, { catalog: { answer: 'never' } });
  assert.match(never.journey.protocol?.detail ?? '', /did not answer in time/);
  assert.equal(never.journey.outcome, 'reached_checkout', 'the browser walk does not wait for the catalog');
});

test('pages on the way aim at an internal address: refused by the proxy, and the journey goes on', async (t) => {
  if (!chromiumAvailable(t)) return;
  const aim = `<img src="http://127.0.0.2:${internal.port}/pixel"><script>fetch('http://127.0.0.2:${internal.port}/x', { method: 'POST', body: 'a' }).catch(() => {})</script>`;
  const { journey, trace } = await walk(t, { shellExtra: aim });
  assert.equal(journey.outcome, 'reached_checkout', trace);
});

test('cart and search pages that rewrite the built-ins the journey reads with: the answer stays bounded and readable', async (t) => {
  if (!chromiumAvailable(t)) return;
  const rewrite = `<script>
    String.prototype.slice = function () { return String(this) + 'x'.repeat(100000); };
    const from = Array.from;
    Array.from = (list) => from(list).concat(new Array(100000).fill({ k: 0, name: 'Checkout', tag: 'a' }));
    Element.prototype.getAttribute = function () { return 'Check out ' + 'y'.repeat(100000); };
  </script>`;
  const { journey, body, trace } = await walk(t, { shellExtra: rewrite });
  assert.notEqual(journey.outcome, 'not_run', trace);
  const size = JSON.stringify(body.journey).length;
  assert.ok(size < 200_000, `the journey stays small: ${size} characters`);
  for (const s of journey.steps) assert.ok(s.detail.length <= 600);
});
