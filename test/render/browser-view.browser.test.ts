// What browser agents see, end to end: loopback stores scanned through GET /api/v1/scan by the real service with a
// real headless Chromium behind the address proxy. Each store differs from the complete one in one way, and the
// browser view must report exactly that; the complete store has no browser findings, and its score is the same
// with and without a browser.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE, completeStore, esc, htmlPage, jsonLd, page, productHtml, productJsonLd } from '../fixtures/stores.js';
import { startStoreFrom, type FixtureRoutes, type FixtureStore } from '../helpers/fixture-store.js';
import { getJson, startApp } from '../helpers/start-app.js';
import { chromiumAvailable, SHOTS } from '../helpers/browser.js';
import { createChromiumRenderer, type ChromiumRenderer } from '../../render/chromium.js';
import type { BrowserView } from '../../schemas/browser-view.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import { ReadinessReport } from '../../schemas/readiness.js';
import { saveReport } from '../helpers/scans.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { renderBrief } from '../../tools/render-brief.js';
import { createMetrics } from '../../lib/metrics.js';

let renderer: ChromiumRenderer | null = null;
const renderMetrics = createMetrics();
before(() => {
  renderer = createChromiumRenderer({ executablePath: '/usr/bin/chromium', concurrency: 2, metrics: renderMetrics });
});
after(() => renderer?.close());

const stores: FixtureStore[] = [];
after(() => Promise.all(stores.map((s) => s.close())));

/** The complete store with each product page's HTML passed through `edit`. */
function withProductPages(edit: (html: string, origin: string, p: (typeof CATALOGUE)[number]) => string) {
  return (origin: string): FixtureRoutes => {
    const routes = completeStore(origin);
    for (const p of CATALOGUE) routes[`/products/${p.slug}`] = page(edit(productHtml(origin, p), origin, p));
    return routes;
  };
}

async function scanWithBrowser(t: Parameters<typeof chromiumAvailable>[0], build: (origin: string) => FixtureRoutes, withBrowser = true) {
  const store = await startStoreFrom(build);
  stores.push(store);
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '0' }, { scanOverrides: { allowIPAddressList: ['127.0.0.1'] }, renderer: withBrowser ? (renderer ?? undefined) : undefined });
  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 500));
  return { body: res.body, view: res.body.browser_view as BrowserView, store };
}

const ids = (view: BrowserView) => view.findings.map((f) => f.id).sort();
const productPages = (view: BrowserView) => view.pages.filter((p) => p.kind === 'product');

test('a complete store: every page rendered, buy controls named and uncovered, no browser findings, the same score as without a browser', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { body, view } = await scanWithBrowser(t, completeStore);
  assert.equal(view.status, 'rendered', view.note);
  assert.equal(view.counted_in_score, false);
  assert.deepEqual(ids(view), [], JSON.stringify(view.findings) + JSON.stringify(view.requests));
  assert.ok(productPages(view).length >= 1);
  for (const p of productPages(view)) {
    assert.equal(p.outcome, 'rendered');
    assert.deepEqual(p.crawlers_see, { name: true, price: true, buy_button: true });
    assert.deepEqual(p.browser_agents_see, { name: true, price: true, buy_button: true });
    assert.deepEqual(p.buy_controls, [{ role: 'button', name: 'Add to cart', enabled: true, covered_by: null, recognised_by: 'words' }]);
  }
  assert.equal(view.requests.refused, 0);
  assert.match(view.screenshot?.data_url ?? '', /^data:image\/jpeg;base64,\/9j\//);
  writeFileSync(join(SHOTS, 'browser-view-product.jpg'), Buffer.from(view.screenshot!.data_url.split(',')[1], 'base64'));
  // The render is counted for /metrics: one more rendered, its time observed, none left running.
  const exposition = await renderMetrics.registry.metrics();
  assert.match(exposition, /store_readiness_renders_total\{outcome="rendered"\} [1-9]/);
  assert.match(exposition, /store_readiness_render_duration_seconds_count\{outcome="rendered"\} [1-9]/);
  assert.match(exposition, /store_readiness_renders_running 0\n/);

  const { body: plain } = await scanWithBrowser(t, completeStore, false);
  assert.equal(plain.browser_view.status, 'not_run');
  // Every check but the one that times the store (a busy machine moves it) scores the same with and without.
  const outcomes = (r: typeof body) =>
    r.pillars.flatMap((p: { checks: { id: string; status: string; points: number }[] }) => p.checks.filter((c) => c.id !== 'access_response_time').map((c) => `${c.id} ${c.status} ${c.points}`));
  assert.deepEqual(outcomes(plain), outcomes(body));
});

test('a client-rendered product page: invisible to crawlers, visible to browser agents, with the fix', async (t) => {
  if (!chromiumAvailable(t)) return;
  const shell = (origin: string, p: (typeof CATALOGUE)[number]) => {
    const filled = `<h1>${esc(p.name)}</h1><p class="price">€${p.price}</p><p>In stock</p><form method="post" action="/cart/add"><button type="submit">Add to cart</button></form>`;
    const ld = jsonLd(productJsonLd(origin, p));
    const literal = (s: string) => JSON.stringify(s).replace(/</g, '\\u003c'); // cannot close the script element
    return htmlPage({
      title: 'Northwind',
      body: `<div id="app">Loading…</div><script>setTimeout(() => { document.getElementById('app').innerHTML = ${literal(filled)}; document.head.insertAdjacentHTML('beforeend', ${literal(ld)}); }, 50);</script>`,
    });
  };
  const { view } = await scanWithBrowser(t, withProductPages((_html, origin, p) => shell(origin, p)));
  assert.equal(view.status, 'rendered', view.note);
  const pdp = productPages(view)[0];
  assert.ok(pdp, JSON.stringify(view.pages));
  assert.deepEqual(pdp.crawlers_see, { name: false, price: false, buy_button: false });
  assert.deepEqual(pdp.browser_agents_see, { name: true, price: true, buy_button: true });
  const finding = view.findings.find((f) => f.id === 'script_only_product');
  assert.ok(finding, JSON.stringify(view.findings));
  assert.match(finding.fix, /Server-render/);
});

test('an icon-only buy button without an accessible name is reported', async (t) => {
  if (!chromiumAvailable(t)) return;
  const icon = '<button type="submit" name="add" class="add-to-cart"><svg aria-hidden="true" width="20" height="20"><circle cx="10" cy="10" r="8"/></svg></button>';
  const { view } = await scanWithBrowser(t, withProductPages((html) => html.replace('<button type="submit" name="add">Add to cart</button>', icon)));
  assert.deepEqual(productPages(view)[0].buy_controls, [{ role: 'button', name: '', enabled: true, covered_by: null, recognised_by: 'hint' }]);
  assert.deepEqual(ids(view), ['buy_control_unnamed', 'buy_control_unnamed'].slice(0, productPages(view).length));
  assert.match(view.findings[0].fix, /accessible name/);
});

test('a cookie wall over the buy button is reported with what covers it', async (t) => {
  if (!chromiumAvailable(t)) return;
  const wall = '<div id="consent" role="dialog" aria-label="Cookie consent <script>alert(1)</script>" style="position:fixed;inset:0;z-index:9999;background:rgba(0,0,0,.6)"><p style="background:#fff">We use cookies. <button>Accept all</button></p></div>';
  const { view, body } = await scanWithBrowser(t, withProductPages((html) => html.replace('</body>', `${wall}</body>`)));
  coveredScan = body;
  const control = productPages(view)[0].buy_controls[0];
  assert.equal(control.name, 'Add to cart');
  assert.match(control.covered_by ?? '', /<div#consent> \(Cookie consent <script>alert\(1\)<\/script>\) "We use cookies/);
  assert.ok(view.findings.some((f) => f.id === 'buy_control_covered' && /cookie notice/.test(f.fix)));
  assert.ok(!view.findings.some((f) => f.id === 'buy_control_unnamed'));
});

let coveredScan: ScanResult | null = null;

test('the stored report, its page and Markdown, get_readiness_report, the report resource and the agent brief carry the browser view', async (t) => {
  if (!chromiumAvailable(t) || !coveredScan) return;
  const app = await startApp(t);
  const report = { ...coveredScan, host: 'shop.test', url: 'https://shop.test/' };
  await saveReport(app.db, report);
  const page = await fetch(`${app.url}/r/${report.scan_id}`).then((r) => r.text());
  assert.match(page, /What browser agents see/);
  assert.match(page, /<img src="data:image\/jpeg;base64,/);
  assert.match(page, /Something covers the buy control after load/);
  assert.match(page, /Cookie consent &lt;script&gt;alert\(1\)&lt;\/script&gt;/, 'store text is escaped');
  assert.doesNotMatch(page, /<script>alert/);
  const markdown = await fetch(`${app.url}/r/${report.scan_id}`, { headers: { accept: 'text/markdown' } }).then((r) => r.text());
  assert.match(markdown, /## What browser agents see[\s\S]*buy_control_covered/);
  const client = await connectMcp(t, app);
  await client.listTools();
  const result = await client.callTool({ name: 'get_readiness_report', arguments: { host: 'shop.test' } });
  const parsed = ReadinessReport.parse(result.structuredContent);
  assert.deepEqual(parsed.browser_view, report.browser_view);
  const resource = await client.readResource({ uri: 'readiness://reports/shop.test' });
  assert.match(String((resource.contents[0] as { text: string }).text), /What browser agents see[\s\S]*Something covers the buy control/);
  const brief = renderBrief(report, { baseUrl: app.url });
  assert.match(brief, /## For browser agents \(not scored\)[\s\S]*buy_control_covered[\s\S]*cookie notice/);
});

test('a page that registers a WebMCP tool has it listed', async (t) => {
  if (!chromiumAvailable(t)) return;
  const register = `<script>navigator.modelContext.registerTool({ name: 'add_to_cart', description: 'Adds a product to the cart', inputSchema: { type: 'object' }, execute: async () => ({}) });</script>
<form toolname="search_products" tooldescription="Searches the catalogue" action="/search"><input name="q"></form>`;
  const { view } = await scanWithBrowser(t, (origin) => {
    const routes = completeStore(origin);
    const home = routes['/'] as { body: string; headers: Record<string, string> };
    routes['/'] = { ...home, body: home.body.replace('</body>', `${register}</body>`) };
    return routes;
  });
  const homeView = view.pages.find((p) => p.kind === 'home')!;
  assert.deepEqual(homeView.webmcp_tools, [
    { name: 'add_to_cart', description: 'Adds a product to the cart', via: 'registerTool' },
    { name: 'search_products', description: 'Searches the catalogue', via: 'form' },
  ]);
  assert.deepEqual(productPages(view)[0].webmcp_tools, []);
  assert.deepEqual(ids(view), []);
});

test('a store that challenges the headless browser but not raw requests is reported', async (t) => {
  if (!chromiumAvailable(t)) return;
  const challenge = htmlPage({ title: 'Just a moment...', body: '<h1>Checking your browser</h1><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/jsch/v1"></script>' });
  const { view, store } = await scanWithBrowser(t, (origin) => {
    const routes = completeStore(origin);
    const guarded: FixtureRoutes = {};
    for (const [path, route] of Object.entries(routes)) {
      guarded[path] = (req, res) => {
        if (/HeadlessChrome/.test(req.headers['user-agent'] ?? '')) return void res.writeHead(403, { 'content-type': 'text/html' }).end(challenge);
        if (typeof route === 'function') return route(req, res);
        res.writeHead(route.status ?? 200, route.headers).end(route.body);
      };
    }
    return guarded;
  });
  assert.ok(store.requests.some((r) => /HeadlessChrome/.test(String(r.headers['user-agent']))), 'the browser reached the store');
  assert.match(view.pages[0].challenge ?? '', /Cloudflare/);
  assert.equal(view.pages[0].http_status, 403);
  assert.ok(view.findings.some((f) => f.id === 'browser_challenge'), JSON.stringify(view.findings));
});

test('time spent waiting for a render place comes out of the budget: a render queued past it renders nothing', async (t) => {
  if (!chromiumAvailable(t)) return;
  const store = await startStoreFrom((origin) => ({ ...completeStore(origin), '/slow': page(htmlPage({ title: 'Slow', body: '<img src="/never">' })), '/never': { delayMs: 60_000, body: '' } }));
  stores.push(store);
  const single = createChromiumRenderer({ executablePath: '/usr/bin/chromium', concurrency: 1 })!;
  t.after(() => single.close());
  const rules = { allowPrivate: true, allowedPorts: 'any' as const };
  // The first render holds the only place for its whole budget (its page never finishes loading).
  const first = single.render({ pages: [{ url: `${store.url}slow`, kind: 'home' }], baseUrl: 'http://localhost:3000', rules, deadlineMs: 6000, screenshotUrl: null });
  const second = await single.render({ pages: [{ url: store.url, kind: 'home' }], baseUrl: 'http://localhost:3000', rules, deadlineMs: 3000, screenshotUrl: null });
  assert.equal(second.pages[0].outcome, 'skipped', JSON.stringify(second.pages[0]));
  assert.match(second.pages[0].detail ?? '', /budget was spent/);
  assert.equal((await first).pages[0].outcome, 'rendered');
});
