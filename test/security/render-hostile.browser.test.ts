// Hostile pages against the browser view, through GET /api/v1/scan on the real service with a real Chromium under
// the production address rules (SCAN_ALLOW_PRIVATE=0; the store's own 127.0.0.1 is the only allowed address).
// An "internal" listener on 127.0.0.2 stands for what must stay unreachable: scripts, images, iframes, websockets
// and redirects aim at it and at private and metadata addresses, and it must count no connection. Endless scripts,
// alert loops, window.open storms and a 50 MB DOM end within the render budget with a finding, and the browser's
// process count returns to its idle value after each test.
import { isLoopbackAddress, loopbackGuardHits } from '../support/loopback-guard.js';
import dns from 'node:dns';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { completeStore, htmlPage, page } from '../fixtures/stores.js';
import { startStoreFrom, type FixtureRoutes, type FixtureStore } from '../helpers/fixture-store.js';
import { getJson, startApp } from '../helpers/start-app.js';
import { chromiumAvailable } from '../helpers/browser.js';
import { assertWithin } from '../helpers/timing.js';
import { createChromiumRenderer, type ChromiumRenderer } from '../../render/chromium.js';
import type { BrowserView } from '../../schemas/browser-view.js';

const RENDER_TIMEOUT_MS = 6000;
let renderer: ChromiumRenderer | null = null;
let internal: Server;
let internalPort = 0;
const internalConnections: string[] = [];
let idleProcesses = 0;
const stores: FixtureStore[] = [];

before(async () => {
  renderer = createChromiumRenderer({ executablePath: '/usr/bin/chromium', concurrency: 2 });
  // Anything that connects here got past the rules: 127.0.0.2 is loopback and not on the test allow-list.
  internal = createServer((socket) => {
    internalConnections.push(String(socket.remoteAddress));
    socket.destroy();
  });
  internal.listen(0, '127.0.0.2');
  await new Promise((resolve) => internal.once('listening', resolve));
  internalPort = (internal.address() as AddressInfo).port;
});
after(async () => {
  await renderer?.close();
  await Promise.all(stores.map((s) => s.close()));
  await new Promise((resolve) => internal.close(resolve));
});

/** Processes below this one whose name says Chromium (the browser, its zygotes, renderers, utilities). */
function chromiumProcesses(): number {
  const parent = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
      parent.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
    } catch {
      /* the process ended while being read */
    }
  }
  const below = (pid: number): boolean => {
    for (let at = parent.get(pid); at !== undefined && at > 1; at = parent.get(at)) if (at === process.pid) return true;
    return false;
  };
  return [...names].filter(([pid, name]) => /chrom/i.test(name) && below(pid)).length;
}

/** Waits (up to 10 s) for the browser's process count to come back to its idle value, then asserts it did. */
async function assertIdle(): Promise<void> {
  let count = chromiumProcesses();
  for (let i = 0; i < 100 && count !== idleProcesses; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    count = chromiumProcesses();
  }
  assert.equal(count, idleProcesses, 'the browser process count returns to its idle value');
}

/** Names ending in .internal.test resolve to 127.0.0.2, the rest as usual: the proxy, not Chromium, resolves them. */
const lookup = (hostname: string, options: object, callback: (err: Error | null, address: unknown, family?: number) => void) => {
  if (hostname.endsWith('.internal.test')) return callback(null, [{ address: '127.0.0.2', family: 4 }]);
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => callback(err, addresses));
};

async function scan(t: TestContext, build: (origin: string) => FixtureRoutes): Promise<{ view: BrowserView; store: FixtureStore }> {
  const store = await startStoreFrom(build);
  stores.push(store);
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '0', RENDER_TIMEOUT_MS: String(RENDER_TIMEOUT_MS) }, { scanOverrides: { allowIPAddressList: ['127.0.0.1'], lookup }, renderer: renderer ?? undefined });
  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  const view = res.body.browser_view as BrowserView;
  assert.equal(view.status, 'rendered', view.note);
  return { view, store };
}

/** The complete store with `script` (and markup) added to its home page. */
const homeWith = (markup: string) => (origin: string): FixtureRoutes => {
  const routes = completeStore(origin);
  const home = routes['/'] as { body: string; headers: Record<string, string> };
  routes['/'] = { ...home, body: home.body.replace('</body>', `${markup}</body>`) };
  return routes;
};

test('warm-up: the browser starts once and its idle process count is taken', async (t) => {
  if (!chromiumAvailable(t)) return;
  await scan(t, completeStore);
  // The last context's renderer exits in its own time (later on a busy machine): the idle count is the count once it
  // has held for a second, within 10 s.
  let steady = 0;
  idleProcesses = chromiumProcesses();
  for (let i = 0; i < 50 && steady < 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const count = chromiumProcesses();
    steady = count === idleProcesses ? steady + 1 : 0;
    idleProcesses = count;
  }
  assert.ok(idleProcesses >= 1, 'the browser keeps running between scans');
  assert.ok(renderer?.pid, 'the browser process is known');
});

test('scripts, images, iframes, websockets and redirects aimed at loopback, private and metadata addresses are refused', async (t) => {
  if (!chromiumAvailable(t)) return;
  const at = (path: string) => `http://127.0.0.2:${internalPort}${path}`;
  const markup = `
<img src="${at('/img.png')}"><img src="http://169.254.169.254/latest/meta-data/iam">
<iframe src="${at('/frame')}"></iframe><iframe src="/hop-internal"></iframe><iframe src="/hop-file"></iframe>
<script src="${at('/script.js')}"></script>
<link rel="stylesheet" href="http://10.0.0.1/style.css">
<script>
  fetch('${at('/fetch')}').catch(() => {});
  fetch('http://rebind.internal.test:${internalPort}/by-name').catch(() => {});
  fetch('http://[::1]:${internalPort}/v6').catch(() => {});
  fetch('http://192.168.1.1/router').catch(() => {});
  try { new WebSocket('ws://127.0.0.2:${internalPort}/ws'); } catch {}
  try { new EventSource('${at('/events')}'); } catch {}
  navigator.sendBeacon && navigator.sendBeacon('${at('/beacon')}', 'x');
  navigator.serviceWorker && navigator.serviceWorker.register('/sw.js').catch(() => {});
  setTimeout(() => { location.href = 'file:///etc/passwd'; }, 300);
</script>`;
  const { view, store } = await scan(t, (origin) => ({
    ...homeWith(markup)(origin),
    '/hop-internal': { status: 302, headers: { location: at('/redirected') } },
    '/hop-file': { status: 302, headers: { location: 'file:///etc/passwd' } },
  }));
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.deepEqual(internalConnections, [], 'nothing reached the internal listener');
  assert.deepEqual(loopbackGuardHits, [], 'nothing left loopback');
  const refused = view.requests.refused_examples.map((r) => r.url).join(' ');
  for (const target of ['127.0.0.2', '169.254.169.254', 'rebind.internal.test', '10.0.0.1', '192.168.1.1']) assert.match(refused + JSON.stringify(view.requests), new RegExp(target.replace(/\./g, '\\.')), `${target} was asked for and refused`);
  assert.ok(view.requests.refused >= 8, JSON.stringify(view.requests));
  assert.ok(view.findings.some((f) => f.id === 'requests_refused'));
  assert.ok(store.hits('/hop-internal') >= 1, 'the redirect was followed as far as the store');
  assert.equal(view.pages[0].outcome, 'rendered');
  await assertIdle();
});

test('an endless script ends within the budget as an unresponsive page', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { view } = await scan(t, homeWith('<script>setTimeout(() => { for (;;) {} }, 50);</script>'));
  assert.equal(view.pages[0].outcome, 'timeout', JSON.stringify(view.pages[0]));
  assert.ok(view.findings.some((f) => f.id === 'page_unresponsive'));
  assertWithin('render with an endless script', view.duration_ms, RENDER_TIMEOUT_MS);
  await assertIdle();
});

test('an alert loop ends within the budget, its dialogs dismissed', async (t) => {
  if (!chromiumAvailable(t)) return;
  const { view } = await scan(t, homeWith("<script>setTimeout(() => { for (;;) alert('buy now'); }, 50);</script>"));
  assert.equal(view.pages[0].outcome, 'timeout');
  assert.ok(view.pages[0].dialogs_dismissed > 0);
  assertWithin('render with an alert loop', view.duration_ms, RENDER_TIMEOUT_MS);
  await assertIdle();
});

test('a window.open storm opens nothing and is reported', async (t) => {
  if (!chromiumAvailable(t)) return;
  const storm = `<script>
  for (let i = 0; i < 500; i++) window.open('/x' + i, '_blank');
  for (let i = 0; i < 20; i++) { const a = document.createElement('a'); a.href = '/y' + i; a.target = '_blank'; document.body.append(a); a.click(); }
  setInterval(() => window.open('/z'), 20);
</script>`;
  const { view } = await scan(t, homeWith(storm));
  const home = view.pages[0];
  // On a busy machine the storm can keep the page from answering in time: then it is reported unresponsive too.
  assert.ok(['rendered', 'timeout'].includes(home.outcome), JSON.stringify(home));
  assert.ok(home.popups_blocked >= (home.outcome === 'rendered' ? 520 : 1), JSON.stringify(home));
  assert.ok(view.findings.some((f) => f.id === 'popups'));
  assertWithin('render with a window.open storm', view.duration_ms, RENDER_TIMEOUT_MS);
  await assertIdle();
});

test('a 50 MB DOM ends within the budget and is reported as too large', async (t) => {
  if (!chromiumAvailable(t)) return;
  const huge = `<script>
  const row = '<div class="row">lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod</div>';
  document.body.insertAdjacentHTML('beforeend', row.repeat(Math.ceil(50 * 1024 * 1024 / row.length)));
</script>`;
  const { view } = await scan(t, (origin) => ({ ...completeStore(origin), '/': page(htmlPage({ title: 'Huge', body: `<h1>Huge</h1>${huge}` })) }));
  const home = view.pages[0];
  assert.ok(['rendered', 'timeout', 'crashed'].includes(home.outcome));
  assert.ok(view.findings.some((f) => ['dom_oversized', 'page_unresponsive', 'page_crashed'].includes(f.id)), JSON.stringify(view.findings));
  if (home.outcome === 'rendered') assert.match(home.detail ?? '', /the DOM is 5\d MiB/);
  assertWithin('render of a 50 MB DOM', view.duration_ms, RENDER_TIMEOUT_MS);
  await assertIdle();
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
