// Hostile pages against the browser view, through GET /api/v1/scan on the real service with a real Chromium under
// the production address rules (SCAN_ALLOW_PRIVATE=0; the store's own 127.0.0.1 is the only allowed address).
// An "internal" listener on 127.0.0.2 stands for what must stay unreachable: scripts, images, iframes, websockets
// and redirects aim at it and at private and metadata addresses, and it must count no connection. Endless scripts,
// alert loops, window.open storms and a 50 MB DOM end within the render budget with a finding, and every browser
// process a test's scan started has ended after it. Pages that write into their own report (500 WebMCP tools of
// 10 KB, forged and wrongly typed entries, a 100 KB accessible name and covering text, a screenshot of random
// pixels) leave a report within its bounds that reads back through REST, the report page and MCP without error.
import { isLoopbackAddress, loopbackGuardHits } from '../support/loopback-guard.js';
import dns from 'node:dns';
import { startInternalListener, type InternalListener } from '../helpers/internal-listener.js';
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOGUE, completeStore, htmlPage, page, productHtml } from '../fixtures/stores.js';
import { startStoreFrom, type FixtureRoutes, type FixtureStore } from '../helpers/fixture-store.js';
import { getJson, startApp } from '../helpers/start-app.js';
import { chromiumAvailable } from '../helpers/browser.js';
import { assertWithin } from '../helpers/timing.js';
import { assertStartedProcessesEnded, processesBelow } from '../helpers/processes.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { createChromiumRenderer, type ChromiumRenderer } from '../../render/chromium.js';
import { BROWSER_VIEW_CAPS as CAPS, BrowserView, MAX_SCREENSHOT_URL } from '../../schemas/browser-view.js';
import { ReadinessReport } from '../../schemas/readiness.js';
import { MAX_REPORT_BYTES } from '../../tools/stored-report.js';

const RENDER_TIMEOUT_MS = 6000;
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

/** Names ending in .internal.test resolve to 127.0.0.2, the rest as usual: the proxy, not Chromium, resolves them. */
const lookup = (hostname: string, options: object, callback: (err: Error | null, address: unknown, family?: number) => void) => {
  if (hostname.endsWith('.internal.test')) return callback(null, [{ address: '127.0.0.2', family: 4 }]);
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => callback(err, addresses));
};

interface Scanned {
  view: BrowserView;
  store: FixtureStore;
  app: Awaited<ReturnType<typeof startApp>>;
  scanId: number;
  /** The browser's processes before the scan: every process the scan starts must end after it. */
  before: Set<number>;
}

async function scan(t: TestContext, build: (origin: string) => FixtureRoutes, renderTimeoutMs = RENDER_TIMEOUT_MS): Promise<Scanned> {
  const store = await startStoreFrom(build);
  stores.push(store);
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '0', RENDER_TIMEOUT_MS: String(renderTimeoutMs) }, { scanOverrides: { allowIPAddressList: ['127.0.0.1'], lookup }, renderer: renderer ?? undefined });
  const before = renderer?.pid ? processesBelow(renderer.pid) : new Set<number>();
  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  const view = res.body.browser_view as BrowserView;
  assert.equal(view.status, 'rendered', view.note);
  return { view, store, app, scanId: res.body.scan_id as number, before };
}

/** Every browser process the test's scan started has ended (the browser itself and what it had before may stay). */
async function assertIdle(scanned: Scanned): Promise<void> {
  assert.ok(renderer?.pid, 'the browser is running');
  await assertStartedProcessesEnded(renderer.pid, scanned.before);
}

/** The complete store with `script` (and markup) added to its home page. */
const homeWith = (markup: string) => (origin: string): FixtureRoutes => {
  const routes = completeStore(origin);
  const home = routes['/'] as { body: string; headers: Record<string, string> };
  routes['/'] = { ...home, body: home.body.replace('</body>', `${markup}</body>`) };
  return routes;
};

test('warm-up: the browser starts once and keeps running between scans', async (t) => {
  if (!chromiumAvailable(t)) return;
  await scan(t, completeStore);
  const pid = renderer?.pid;
  assert.ok(pid, 'the browser process is known');
  await scan(t, completeStore);
  assert.equal(renderer?.pid, pid, 'the same browser serves the next scan');
});

test('scripts, images, iframes, websockets and redirects aimed at loopback, private and metadata addresses are refused', async (t) => {
  if (!chromiumAvailable(t)) return;
  const at = (path: string) => `http://127.0.0.2:${internal.port}${path}`;
  const markup = `
<img src="${at('/img.png')}"><img src="http://169.254.169.254/latest/meta-data/iam">
<iframe src="${at('/frame')}"></iframe><iframe src="/hop-internal"></iframe><iframe src="/hop-file"></iframe>
<script src="${at('/script.js')}"></script>
<link rel="stylesheet" href="http://10.0.0.1/style.css">
<script>
  fetch('${at('/fetch')}').catch(() => {});
  fetch('http://rebind.internal.test:${internal.port}/by-name').catch(() => {});
  fetch('http://[::1]:${internal.port}/v6').catch(() => {});
  fetch('http://192.168.1.1/router').catch(() => {});
  try { new WebSocket('ws://127.0.0.2:${internal.port}/ws'); } catch {}
  try { new EventSource('${at('/events')}'); } catch {}
  navigator.sendBeacon && navigator.sendBeacon('${at('/beacon')}', 'x');
  navigator.serviceWorker && navigator.serviceWorker.register('/sw.js').catch(() => {});
  setTimeout(() => { location.href = 'file:///etc/passwd'; }, 300);
</script>`;
  const scanned = await scan(t, (origin) => ({
    ...homeWith(markup)(origin),
    '/hop-internal': { status: 302, headers: { location: at('/redirected') } },
    '/hop-file': { status: 302, headers: { location: 'file:///etc/passwd' } },
  }));
  const { view, store } = scanned;
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.deepEqual(internal.connections, [], 'nothing reached the internal listener');
  assert.deepEqual(loopbackGuardHits, [], 'nothing left loopback');
  const refused = view.requests.refused_examples.map((r) => r.url).join(' ');
  for (const target of ['127.0.0.2', '169.254.169.254', 'rebind.internal.test', '10.0.0.1', '192.168.1.1']) assert.match(refused + JSON.stringify(view.requests), new RegExp(target.replace(/\./g, '\\.')), `${target} was asked for and refused`);
  assert.ok(view.requests.refused >= 8, JSON.stringify(view.requests));
  assert.ok(view.findings.some((f) => f.id === 'requests_refused'));
  assert.ok(store.hits('/hop-internal') >= 1, 'the redirect was followed as far as the store');
  // register() resolves in the page (with undefined), but the blocked worker's script is never even fetched.
  assert.equal(store.hits('/sw.js'), 0, 'no service worker script was fetched');
  assert.equal(view.pages[0].outcome, 'rendered');
  await assertIdle(scanned);
});

test('an endless script ends within the budget as an unresponsive page', async (t) => {
  if (!chromiumAvailable(t)) return;
  const scanned = await scan(t, homeWith('<script>setTimeout(() => { for (;;) {} }, 50);</script>'));
  const { view } = scanned;
  assert.equal(view.pages[0].outcome, 'timeout', JSON.stringify(view.pages[0]));
  assert.ok(view.findings.some((f) => f.id === 'page_unresponsive'));
  assertWithin('render with an endless script', view.duration_ms, RENDER_TIMEOUT_MS);
  await assertIdle(scanned);
});

test('an alert loop ends within the budget, its dialogs dismissed', async (t) => {
  if (!chromiumAvailable(t)) return;
  const scanned = await scan(t, homeWith("<script>setTimeout(() => { for (;;) alert('buy now'); }, 50);</script>"));
  const { view } = scanned;
  assert.equal(view.pages[0].outcome, 'timeout');
  assert.ok(view.pages[0].dialogs_dismissed > 0);
  assertWithin('render with an alert loop', view.duration_ms, RENDER_TIMEOUT_MS);
  await assertIdle(scanned);
});

test('a window.open storm opens nothing and is reported', async (t) => {
  if (!chromiumAvailable(t)) return;
  const storm = `<script>
  for (let i = 0; i < 500; i++) window.open('/x' + i, '_blank');
  for (let i = 0; i < 20; i++) { const a = document.createElement('a'); a.href = '/y' + i; a.target = '_blank'; document.body.append(a); a.click(); }
  // A link outside the document escapes the click guard on window: the renderer closes the tab it opens.
  for (let i = 0; i < 2; i++) { const a = document.createElement('a'); a.href = '/w' + i; a.target = '_blank'; a.click(); }
  setInterval(() => window.open('/z'), 20);
</script>`;
  const scanned = await scan(t, homeWith(storm));
  const { view, store } = scanned;
  const home = view.pages[0];
  // On a busy machine the storm can keep the page from answering within its share of the budget (measured: under a
  // load of 20 on 2 cores it did not reach DOMContentLoaded in 2 s); then it is reported unresponsive instead, and
  // the windows it tried to open were never read from it.
  assert.ok(['rendered', 'timeout'].includes(home.outcome), JSON.stringify(home));
  if (home.outcome === 'rendered') {
    // 500 calls and 20 clicks, counted in the page as they happen; the two tabs that did open count only once the
    // browser reports them, which on a busy machine can be after the page was read.
    assert.ok(home.popups_blocked >= 520, JSON.stringify(home));
    assert.ok(view.findings.some((f) => f.id === 'popups'));
  } else assert.ok(view.findings.some((f) => f.id === 'page_unresponsive'));
  // The links the script clicked are refused in the page itself: no tab opens, so none of them is ever fetched.
  const linksFetched = Array.from({ length: 20 }, (_, i) => store.hits(`/y${i}`)).reduce((a, b) => a + b, 0);
  assert.equal(linksFetched, 0, 'no link the script clicked was opened');
  assertWithin('render with a window.open storm', view.duration_ms, RENDER_TIMEOUT_MS);
  await assertIdle(scanned);
});

test('a 50 MB DOM ends within the budget and is reported as too large', async (t) => {
  if (!chromiumAvailable(t)) return;
  const huge = `<script>
  const row = '<div class="row">lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod</div>';
  document.body.insertAdjacentHTML('beforeend', row.repeat(Math.ceil(50 * 1024 * 1024 / row.length)));
</script>`;
  const scanned = await scan(t, (origin) => ({ ...completeStore(origin), '/': page(htmlPage({ title: 'Huge', body: `<h1>Huge</h1>${huge}` })) }));
  const { view } = scanned;
  const home = view.pages[0];
  assert.ok(['rendered', 'timeout', 'crashed'].includes(home.outcome));
  assert.ok(view.findings.some((f) => ['dom_oversized', 'page_unresponsive', 'page_crashed'].includes(f.id)), JSON.stringify(view.findings));
  if (home.outcome === 'rendered') assert.match(home.detail ?? '', /the DOM is 5\d MiB/);
  assertWithin('render of a 50 MB DOM', view.duration_ms, RENDER_TIMEOUT_MS);
  await assertIdle(scanned);
});

/**
 * The stored report of a scan is within its bounds and reads back without error: as JSON through REST, as the report
 * page, and through MCP get_readiness_report, whose answer the SDK checks against the report's schema.
 */
async function assertReadsBack(t: TestContext, { app, scanId, view }: Scanned): Promise<void> {
  assert.ok(BrowserView.safeParse(view).success, 'the answered view fits its schema');
  const json = await fetch(`${app.url}/api/v1/scan/${scanId}.json`);
  const text = await json.text();
  assert.equal(json.status, 200, text.slice(0, 300));
  assert.ok(Buffer.byteLength(text) <= MAX_REPORT_BYTES, `the stored report is ${Buffer.byteLength(text)} bytes`);
  assert.ok(Buffer.byteLength(JSON.stringify(JSON.parse(text).browser_view)) <= 600 * 1024, 'the browser view is within its bound');
  const page = await fetch(`${app.url}/r/${scanId}`);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /What browser agents see/);
  const client = await connectMcp(t, app);
  const host = (JSON.parse(text) as { host: string }).host;
  const result = await client.callTool({ name: 'get_readiness_report', arguments: { host } });
  assert.notEqual(result.isError, true, JSON.stringify(result.content).slice(0, 300));
  assert.equal(ReadinessReport.parse(result.structuredContent).scan_id, scanId);
}

test('a page that writes into its own report: 500 WebMCP tools of 10 KB, forged and wrongly typed entries', async (t) => {
  if (!chromiumAvailable(t)) return;
  // Registered the ordinary way, then forged: the recorder's copy and every string cut are replaced by the page's own.
  const flood = `<script>
  const big = 'x'.repeat(10240);
  for (let i = 0; i < 500; i++) navigator.modelContext.registerTool({ name: 'tool' + i + big, description: big });
  try { window.__storeReadiness.tools.push({ name: { x: 1 }, via: 'evil' }); } catch {}
  // 500 entries of 2 KB rather than 10 KB: a page handing back 10 MB is not read within a render budget at all.
  const forgedText = 'f'.repeat(2048);
  const forged = [{ name: { x: 1 }, via: 'evil' }, { name: 5, description: [], via: 'registerTool' }, { name: 'x', description: 'y', via: 'evil' }]
    .concat(Array.from({ length: 500 }, (_, i) => ({ name: 'forged' + i + forgedText, description: forgedText, via: 'registerTool' })));
  const arraySlice = Array.prototype.slice;
  Array.prototype.slice = function (...args) { return this.length === 50 && this[0] && this[0].via ? forged : arraySlice.apply(this, args); };
  const stringSlice = String.prototype.slice;
  String.prototype.slice = function (...args) { return this.length > 5000 ? String(this) : stringSlice.apply(this, args); };
</script>`;
  const scanned = await scan(t, homeWith(flood));
  const home = scanned.view.pages[0];
  assert.equal(home.outcome, 'rendered', JSON.stringify(home).slice(0, 300));
  assert.ok(home.webmcp_tools.length > 0 && home.webmcp_tools.length <= CAPS.webmcpTools, `${home.webmcp_tools.length} tools`);
  for (const tool of home.webmcp_tools) {
    assert.equal(typeof tool.name, 'string');
    assert.ok(tool.name.length <= CAPS.webmcpName && tool.description.length <= CAPS.webmcpDescription);
    assert.ok(['registerTool', 'provideContext', 'form'].includes(tool.via), tool.via);
  }
  assert.ok(home.webmcp_tools.some((tool) => tool.name.startsWith('forged')), 'the forged list reached the service, which cut it');
  await assertReadsBack(t, scanned);
  await assertIdle(scanned);
});

test('a 720-character accessible name and 100 KB of covering text are cut to their caps', async (t) => {
  if (!chromiumAvailable(t)) return;
  const words = 'Add to cart '.repeat(60); // names past about 900 characters are left out of the accessibility tree itself
  const markup = `<button type="button" class="add-to-cart" aria-label="${words}">Add to cart</button>
<div id="wall" style="position:fixed;inset:0;z-index:9;background:#fff">${'Accept all cookies please '.repeat(4000)}</div>`;
  const scanned = await scan(t, homeWith(markup));
  const controls = scanned.view.pages[0].buy_controls;
  assert.ok(controls.length > 0, 'the buy control was read');
  const long = controls.find((c) => c.name.startsWith('Add to cart Add to cart'));
  assert.ok(long, JSON.stringify(controls).slice(0, 400));
  assert.equal(long.name.length, CAPS.accessibleName);
  assert.ok(long.covered_by !== null && long.covered_by.length <= CAPS.coveredBy, String(long.covered_by?.length));
  await assertReadsBack(t, scanned);
  await assertIdle(scanned);
});

test('a screenshot of random pixels stays within its byte cap, and the report says how it was taken', async (t) => {
  if (!chromiumAvailable(t)) return;
  const noise = `<canvas id="noise" width="1280" height="800" style="position:fixed;inset:0;z-index:9"></canvas>
<script>
  const c = document.getElementById('noise').getContext('2d');
  const img = c.createImageData(1280, 800);
  for (let i = 0; i < img.data.length; i++) img.data[i] = (Math.random() * 256) | 0;
  c.putImageData(img, 0, 0);
</script>`;
  const scanned = await scan(t, (origin) => {
    const routes = completeStore(origin);
    for (const p of CATALOGUE) routes[`/products/${p.slug}`] = page(productHtml(origin, p).replace('</body>', `${noise}</body>`));
    return routes;
  }, 20_000); // measured: under heavy load a product page's share of 6 s was spent before its picture was taken
  const { view } = scanned;
  assert.ok(view.pages.some((p) => p.kind === 'product'), 'a product page was rendered');
  if (view.screenshot) assert.ok(view.screenshot.data_url.length <= MAX_SCREENSHOT_URL, `${view.screenshot.data_url.length} characters`);
  assert.match(view.screenshot_note ?? '', /over 64 KiB .*(lower quality|left out)/, JSON.stringify({ note: view.screenshot_note, shot: view.screenshot?.data_url.length }));
  await assertReadsBack(t, scanned);
  await assertIdle(scanned);
});

test('a browser that dies is replaced: the next scan renders in a new process', async (t) => {
  if (!chromiumAvailable(t)) return;
  const before = renderer?.pid;
  assert.ok(before && isLoopbackAddress('127.0.0.2'));
  process.kill(before, 'SIGKILL');
  for (let i = 0; i < 50 && renderer?.pid === before; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const { view } = await scan(t, completeStore);
  assert.equal(view.pages[0].outcome, 'rendered');
  assert.ok(renderer?.pid && renderer.pid !== before, 'a new browser process');
});
