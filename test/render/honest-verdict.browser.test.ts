// A report that never misleads, end to end: a client-rendered store behind a cookie wall scanned through
// GET /api/v1/scan by the real service with a real headless Chromium, its report page read as a merchant would.
// The root cause leads, the product checks wait for it, the browser view names the missing and the unnamed buy
// control and the wall, and no page says "Nothing to fix" while a finding stands.
import '../support/loopback-guard.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { completeStore, page as route } from '../fixtures/stores.js';
import { cookieWallStore } from '../fixtures/cookie-wall-store.js';
import { startStoreFrom, type FixtureRoutes, type FixtureStore } from '../helpers/fixture-store.js';
import { getJson, startApp } from '../helpers/start-app.js';
import { chromiumAvailable, openChromium, seriousViolations } from '../helpers/browser.js';
import { createChromiumRenderer, type ChromiumRenderer } from '../../render/chromium.js';
import type { ScanResult } from '../../schemas/scan-result.js';

let renderer: ChromiumRenderer | null = null;
before(() => {
  renderer = createChromiumRenderer({ executablePath: '/usr/bin/chromium', concurrency: 1 });
});
after(() => renderer?.close());
const stores: FixtureStore[] = [];
after(() => Promise.all(stores.map((s) => s.close())));

async function scanned(t: Parameters<typeof chromiumAvailable>[0], build: (origin: string) => FixtureRoutes) {
  const store = await startStoreFrom(build);
  stores.push(store);
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '0' }, { scanOverrides: { allowIPAddressList: ['127.0.0.1'] }, renderer: renderer ?? undefined });
  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 500));
  const report = res.body as ScanResult;
  const html = await fetch(`${app.url}/r/${report.scan_id}`).then((r) => r.text());
  return { report, html, view: report.browser_view!, pageUrl: `${app.url}/r/${report.scan_id}` };
}

test('a client-rendered store behind a cookie wall: root cause first, checks not assessed, the buy controls and the wall reported', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { report, html, view, pageUrl } = await scanned(t, cookieWallStore);

  // The raw scan: one root cause, its fix first, the product checks waiting for it.
  assert.deepEqual(report.root_causes?.map((c) => [c.id, c.check_id]), [['no_readable_product_page', 'product_server_rendered']]);
  assert.equal(report.top_fixes[0].check_id, 'product_server_rendered');
  const checks = report.pillars.flatMap((p) => p.checks);
  for (const id of ['product_structured_data', 'product_price']) {
    const c = checks.find((x) => x.id === id)!;
    assert.equal(c.evidence, 'Not assessed: no product page readable without scripts.');
    assert.equal(c.status, 'fail', 'the spec status stays');
  }
  assert.ok(!report.top_fixes.some((f) => ['product_structured_data', 'product_price'].includes(f.check_id)), 'no fix asks for what the page has after scripts');

  // The browser view: pages kinds from what they hold, the icon found by its class, the missing control, the wall.
  assert.equal(view.status, 'rendered', view.note);
  const products = view.pages.filter((p) => p.page_type === 'product');
  assert.equal(products.length, 2, JSON.stringify(view.pages.map((p) => [p.url, p.page_type, p.outcome])));
  assert.equal(view.pages.find((p) => p.kind === 'home')?.page_type, 'listing');
  const [withIcon, withNone] = products[0].buy_controls.length > 0 ? products : [products[1], products[0]];
  assert.equal(withIcon.buy_controls.length, 1, JSON.stringify(withIcon.buy_controls));
  const icon = withIcon.buy_controls[0];
  assert.equal(icon.recognised_by, 'icon');
  assert.equal(icon.name, '');
  assert.match(icon.covered_by ?? '', /<div#consent\.consent-wall> \(Cookie consent\)/);
  assert.deepEqual(withNone.buy_controls, []);
  const findings = view.findings.map((f) => `${f.id} ${f.page_url ?? ''}`);
  assert.ok(findings.includes(`buy_control_missing ${withNone.url}`), findings.join('\n'));
  assert.ok(findings.includes(`buy_control_unnamed ${withIcon.url}`), findings.join('\n'));
  assert.ok(findings.includes(`buy_control_covered ${withIcon.url}`), findings.join('\n'));
  for (const p of view.pages) assert.ok(findings.includes(`overlay_covers_page ${p.url}`), `${p.url}: ${findings.join('\n')}`);
  assert.match(view.pages[0].overlay ?? '', /<div#consent\.consent-wall> \(Cookie consent\) "We value your privacy\. .*" over \d+% of the viewport/);

  // The page a merchant reads: the root cause before the pillars, the findings, never "Nothing to fix".
  const main = html.slice(html.indexOf('<main'));
  assert.ok(main.indexOf('Start here') < main.indexOf('Score by pillar'));
  assert.match(main, /No buy control on a product page/);
  assert.match(main, /A layer covers most of the page after load/);
  assert.match(main, /found by a cart icon/);
  assert.match(main, /Listing page \(the address scanned\)/);
  assert.doesNotMatch(main, /Nothing to fix/);

  // The sections this report adds (the root cause, the moot checks, the findings) keep axe at 0 serious or critical.
  const browser = await openChromium(t, 'srk-verdict-a11y-');
  const tab = await browser.newPage();
  await tab.goto(pageUrl);
  assert.deepEqual(await seriousViolations(tab), []);
});

test('a product address scanned directly is labelled by what it holds, and a complete store keeps its clean verdict', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { view, html } = await scanned(t, completeStore);
  assert.deepEqual(view.findings, []);
  assert.match(html, /Nothing to fix: browser agents can read the pages, and the buy button is named and reachable\./);
  for (const p of view.pages.filter((x) => x.kind === 'product')) {
    assert.equal(p.page_type, 'product');
    assert.deepEqual(p.buy_controls, [{ role: 'button', name: 'Add to cart', enabled: true, covered_by: null, recognised_by: 'words' }]);
  }

  // The same store, its product page given as the address: "Product page", not "Home page".
  const store = await startStoreFrom((origin) => {
    const routes = completeStore(origin);
    return { ...routes, '/': route('<!doctype html><title>Moved</title><p>See the products.</p>') };
  });
  stores.push(store);
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '0' }, { scanOverrides: { allowIPAddressList: ['127.0.0.1'] }, renderer: renderer ?? undefined });
  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(`${store.origin}/products/trail-runner-jacket`)}`);
  assert.equal(res.status, 200);
  const direct = (res.body as ScanResult).browser_view!;
  assert.equal(direct.pages[0].kind, 'home');
  assert.equal(direct.pages[0].page_type, 'product');
  const directHtml = await fetch(`${app.url}/r/${(res.body as ScanResult).scan_id}`).then((r) => r.text());
  assert.match(directHtml, /Product page \(the address scanned\)/);
  assert.doesNotMatch(directHtml, />Home page</);
});
