// One render of one scan: a fresh browser context behind its own address proxy, the pages opened one after the other
// within the scan's wall time, read, photographed, and everything closed on every path. A page cannot reach past
// the proxy, open windows, keep dialogs up, download, ask for permissions or install a service worker.
import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { RENDER_BUDGET, type RenderedBuyControl, type RenderedPage, type RenderRequest, type RenderRun } from '../scan/fetching/render.js';
import { BROWSER_UA } from '../outbound/fetch.js';
import { startAddressProxy } from './address-proxy.js';
import { NoAnswer, withTimeout } from './with-timeout.js';
import { coverAt, describeLayer, findOverlay, initScript, probePage } from './page-scripts.js';
import { markBuyControls } from './buy-controls.js';
import { MAX_HTML, readBuyControl, readMarkedBuyControls, readOverlay, readProbe, type ProbeAnswer } from './page-data.js';
import { BROWSER_VIEW_CAPS as CAPS } from '../schemas/browser-view.js';
import { photograph, type Screenshot } from './screenshot.js';

const CONTEXT_TIMEOUT_MS = 10_000;
const SETTLE_MS = 1500; // after load: late scripts, cookie walls that open on a timer
const PROBE_MS = 3000;
const VIEWPORT = { width: 1280, height: 800 };

export type RunResult = RenderRun & {
  /** Why the browser should be replaced (a context that would not close), or null. */
  browserUnwell: string | null;
};

export async function renderRun(browser: Browser, req: RenderRequest): Promise<RunResult> {
  const started = performance.now();
  const left = () => req.deadlineMs - (performance.now() - started);
  const proxy = await startAddressProxy(req.rules, RENDER_BUDGET);
  const pages: RenderedPage[] = [];
  let screenshot: RenderRun['screenshot'] = null;
  let screenshotNote: string | null = null;
  let browserUnwell: string | null = null;
  let context: BrowserContext | null = null;
  try {
    context = await withTimeout(newContext(browser, proxy.server, BROWSER_UA(req.baseUrl, browser.version())), CONTEXT_TIMEOUT_MS);
    const popups = { count: 0 };
    let opening = 0; // tabs this run is opening: the event for them comes before newPage() returns
    // A tab the page opens by itself (a link with target=_blank clicked by a script) is closed at once.
    context.on('page', (p) => {
      if (opening > 0) return void opening--;
      popups.count++;
      void p.close().catch(() => {});
    });
    let stop: string | null = null;
    for (const [i, target] of req.pages.entries()) {
      if (!stop && req.signal?.aborted) stop = 'the scan was cancelled';
      if (!stop && left() < 1000) stop = 'the render budget was spent';
      if (stop) {
        pages.push(skipped(target, stop));
        continue;
      }
      const share = left() / (req.pages.length - i);
      opening++;
      const page = await context.newPage();
      const before = popups.count;
      const result = await renderPage(page, target, share, target.url === req.screenshotUrl);
      result.page.popupsBlocked += popups.count - before;
      pages.push(result.page);
      if (result.shot?.dataUrl) screenshot = { url: target.url, dataUrl: result.shot.dataUrl };
      screenshotNote ??= result.shot?.note ?? null;
      // A page whose tab hangs or crashed may share its process with the next one: render no more in this context.
      if (result.page.outcome === 'timeout' || result.page.outcome === 'crashed') stop = `an earlier page ${result.page.outcome === 'timeout' ? 'hung' : 'crashed'}`;
      await withTimeout(page.close({ runBeforeUnload: false }), 2000).catch(() => {});
    }
  } finally {
    if (context) {
      const ctx = context;
      await withTimeout(ctx.close(), CONTEXT_TIMEOUT_MS).catch(() => void (browserUnwell = 'a browser context did not close in time'));
    }
    await proxy.close();
  }
  return {
    pages,
    screenshot,
    screenshotNote,
    requests: proxy.requests,
    refusedCount: proxy.refusedCount,
    refused: proxy.refused,
    budgetSpent: proxy.budgetSpent,
    ms: performance.now() - started,
    browserUnwell,
  };
}

async function newContext(browser: Browser, proxyServer: string, userAgent: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    userAgent,
    proxy: { server: proxyServer, bypass: '<-loopback>' }, // loopback goes through the proxy too
    serviceWorkers: 'block',
    acceptDownloads: false,
    permissions: [],
    viewport: VIEWPORT,
    ignoreHTTPSErrors: false,
  });
  await context.addInitScript({ content: inPage(initScript) });
  // The proxy sees http(s) only; any other scheme a page asks for (file:, chrome:, ftp:) is refused here.
  await context.route((url) => url.protocol !== 'http:' && url.protocol !== 'https:', (route) => route.abort('blockedbyclient'));
  return context;
}

interface PageResult {
  page: RenderedPage;
  shot: Screenshot | null;
}

async function renderPage(page: Page, target: RenderRequest['pages'][number], budgetMs: number, photographed: boolean): Promise<PageResult> {
  const started = performance.now();
  const left = () => budgetMs - (performance.now() - started);
  const probeReserve = Math.min(PROBE_MS, budgetMs * 0.3); // kept for reading the page after it loads
  const out: RenderedPage = { url: target.url, kind: target.kind, outcome: 'rendered', detail: null, status: null, html: '', finalUrl: null, buyControls: [], buyControlsAllRead: false, overlay: null, webmcpTools: [], popupsBlocked: 0, dialogsDismissed: 0, domBytes: 0, ms: 0 };
  let crashed = false;
  page.on('crash', () => void (crashed = true));
  page.on('dialog', (d) => {
    out.dialogsDismissed++;
    void d.dismiss().catch(() => {});
  });
  const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
  const finish = (): PageResult => {
    out.ms = performance.now() - started;
    return { page: out, shot: null };
  };
  try {
    const response = await page.goto(target.url, { waitUntil: 'domcontentloaded', timeout: Math.max(500, left() - probeReserve) });
    out.status = response?.status() ?? null;
    out.finalUrl = page.url();
    await page.waitForLoadState('load', { timeout: Math.max(100, left() - probeReserve) }).catch(() => void (out.detail = `the load event did not fire within ${seconds(budgetMs)}`));
    await page.waitForLoadState('networkidle', { timeout: Math.max(100, Math.min(SETTLE_MS, left() - probeReserve)) }).catch(() => {});
  } catch (err) {
    if (crashed) return (out.outcome = 'crashed', out.detail = 'the tab crashed while loading (out of memory?)', finish());
    const e = err as Error;
    if (e.name !== 'TimeoutError') return (out.outcome = 'failed', out.detail = e.message.split('\n')[0].slice(0, 200), finish());
    out.detail = `the page did not finish loading within ${seconds(budgetMs)}`;
  }
  let probe: ProbeAnswer | null;
  try {
    probe = readProbe(await withTimeout(page.evaluate(inPage(probePage, MAX_HTML)), Math.max(500, Math.min(PROBE_MS, left()))));
  } catch (err) {
    // The tab's crash can reach the evaluation before its event does.
    if (crashed || /crash/i.test((err as Error).message)) return (out.outcome = 'crashed', out.detail = 'the tab crashed (out of memory?)', finish());
    if (err instanceof NoAnswer) return (out.outcome = 'timeout', out.detail = `a script kept the page busy: it did not answer within ${seconds(budgetMs)}`, finish());
    // The page navigated away meanwhile, or replaced a built-in the reading script uses.
    return (out.outcome = 'failed', out.detail = `the page could not be read: ${(err as Error).message.split('\n')[0].slice(0, 160)}`, finish());
  }
  if (!probe) return (out.outcome = 'failed', out.detail = 'the page could not be read: its scripts forged what the reading script answers', finish());
  out.html = probe.html;
  out.domBytes = probe.domBytes;
  out.webmcpTools = probe.tools;
  out.popupsBlocked = probe.popups;
  if (probe.domBytes > MAX_HTML) out.detail = `the DOM is ${Math.round(probe.domBytes / 1024 / 1024)} MiB; the first ${MAX_HTML / 1024 / 1024} MiB were read`;
  // Before any control is scrolled into view: what covers the page as it opens.
  out.overlay = readOverlay(await withTimeout(page.evaluate(inPage(findOverlay)), Math.max(200, Math.min(PROBE_MS, left()))).catch(() => null));
  const marked = await withTimeout(page.evaluate(inPage(markBuyControls, CAPS.buyControls)), Math.max(200, Math.min(PROBE_MS, left()))).then(readMarkedBuyControls, () => null);
  out.buyControls = marked ? await buyControls(page, marked, left).catch(() => []) : [];
  // "No buy control" is a finding only when the page was looked through and every control found was read.
  out.buyControlsAllRead = marked !== null && out.buyControls.length === marked.length;
  const shot = photographed && left() > 300 ? await photograph(page, Math.min(3000, left())) : null;
  out.ms = performance.now() - started;
  return { page: out, shot };
}

/**
 * Role, accessible name and state of each marked buy control, as the accessibility tree gives them. A control the
 * tree could not be asked about in time (a busy machine) is left out rather than reported as unnamed.
 */
async function buyControls(page: Page, reasons: RenderedBuyControl['reason'][], left: () => number): Promise<RenderedBuyControl[]> {
  const controls: RenderedBuyControl[] = [];
  for (let i = 0; i < reasons.length && left() > 200; i++) {
    const control = page.locator(`[data-store-readiness-buy="${i}"]`);
    const timeout = Math.min(3000, left());
    const snapshot = await control.ariaSnapshot({ timeout }).catch(() => null);
    if (snapshot === null) continue;
    const enabled = await control.isEnabled({ timeout }).catch(() => false);
    const coveredBy = await withTimeout(page.evaluate(inPage(coverAt, i)), timeout).catch(() => null);
    controls.push({ ...readBuyControl(snapshot, enabled, coveredBy), reason: reasons[i] });
  }
  return controls;
}

/**
 * A function as a page expression. tsx keeps function names by wrapping them in `__name(...)`, which does not exist
 * in the page; a no-op stands in for it.
 */
function inPage(fn: (...args: never[]) => unknown, ...args: unknown[]): string {
  return `(() => { const __name = (f) => f; const describeLayer = ${describeLayer.toString()}; return (${fn.toString()})(${args.map((a) => JSON.stringify(a)).join(', ')}); })()`;
}

function skipped(target: RenderRequest['pages'][number], why: string): RenderedPage {
  return { url: target.url, kind: target.kind, outcome: 'skipped', detail: `not rendered: ${why}`, status: null, html: '', finalUrl: null, buyControls: [], buyControlsAllRead: false, overlay: null, webmcpTools: [], popupsBlocked: 0, dialogsDismissed: 0, domBytes: 0, ms: 0 };
}
