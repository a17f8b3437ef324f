// A report on its way into the store and back (tools/stored-report.ts): the browser view's caps hold it to a known
// size whatever the pages handed back, a report over its schema or its size bound gives up what the pages put in
// before anything is stored, and a stored report whose browser view fails the schema reads back as "could not be
// read" on every surface instead of an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSER_VIEW_CAPS as CAPS, BrowserView, MAX_SCREENSHOT_URL } from '../../schemas/browser-view.js';
import { ScanResult } from '../../schemas/scan-result.js';
import { readBuyControl, readProbe, readOverlay } from '../../render/page-data.js';
import { readRun } from '../../scan/browser-view.js';
import { readInline } from '../../scan/parser-threads/page-pool.js';
import type { RenderedPage, RenderRun } from '../../scan/fetching/render.js';
import { MAX_REPORT_BYTES, readableReport, storableReport } from '../../tools/stored-report.js';
import { makeArtifacts } from '../helpers/artifacts.js';
import { fakeReport, saveReport } from '../helpers/scans.js';
import { startApp } from '../helpers/start-app.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { ReadinessReport } from '../../schemas/readiness.js';
import { pino } from 'pino';
import { Writable } from 'node:stream';

/** A character JSON writes as six (\u0001): the worst a page's text can cost per character. */
const WIDE = '\u0001';
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** A render in which every page hands back the most the boundary lets through. */
function worstRun(): RenderRun {
  const probe = readProbe({
    html: '<html><body>x</body></html>',
    domBytes: 50 * 1024 * 1024,
    tools: Array.from({ length: 500 }, () => ({ name: WIDE.repeat(10_000), description: WIDE.repeat(10_000), via: 'registerTool' })),
    popups: 1e12,
  })!;
  const control = readBuyControl(`- ${'x'.repeat(CAPS.role)} "${WIDE.repeat(10_000)}"`, true, WIDE.repeat(10_000));
  const page = (i: number): RenderedPage => ({
    url: `https://shop.example/${'p'.repeat(2000)}${i}`,
    kind: i === 0 ? 'home' : 'product',
    outcome: 'rendered',
    detail: `the DOM is 50 MiB; the first 2 MiB were read`,
    status: 200,
    html: probe.html,
    finalUrl: null,
    buyControls: Array.from({ length: CAPS.buyControls }, () => ({ ...control, name: i === 0 ? '' : control.name, reason: 'words' as const })),
    buyControlsAllRead: true,
    overlay: readOverlay(WIDE.repeat(10_000)),
    webmcpTools: probe.tools,
    popupsBlocked: probe.popups,
    dialogsDismissed: CAPS.count,
    domBytes: probe.domBytes,
    ms: 1000,
  });
  return {
    pages: [0, 1, 2].map(page),
    screenshot: { url: 'https://shop.example/p', dataUrl: `data:image/jpeg;base64,${'A'.repeat(MAX_SCREENSHOT_URL - 23)}` },
    screenshotNote: 'The picture of this page was over 64 KiB at the usual quality: it was taken at a lower quality.',
    requests: 300,
    refusedCount: 10_000,
    refused: Array.from({ length: CAPS.refusedExamples }, () => ({ url: WIDE.repeat(200), why: WIDE.repeat(200) })),
    budgetSpent: 'the render budget of 300 requests was spent',
    ms: 15_000,
  };
}

test('the caps hold the browser view under 600 KiB and a report with it under MAX_REPORT_BYTES, whatever the pages hand back', async (t) => {
  const view = await readRun(makeArtifacts(), worstRun(), 'headless Chromium', readInline);
  assert.ok(BrowserView.safeParse(view).success, JSON.stringify(BrowserView.safeParse(view).error?.issues.slice(0, 3)));
  const viewBytes = bytes(view);
  t.diagnostic(`worst browser view: ${Math.round(viewBytes / 1024)} KiB of JSON (bound 600 KiB); report bound ${MAX_REPORT_BYTES / 1024} KiB`);
  assert.ok(viewBytes <= 600 * 1024, `${viewBytes} bytes`);
  const report = { ...fakeReport(1, { host: 'shop.example', score: 50 }), browser_view: view };
  assert.equal(storableReport(report), report, 'stored as it is');
});

test('a browser view that fails its schema is replaced by one that says so before the report is stored', () => {
  const report = fakeReport(2, { host: 'shop.example', score: 50 });
  const hostile = { ...report, browser_view: { ...emptyView(), pages: [{ webmcp_tools: [{ name: { x: 1 }, via: 'evil' }] }] } } as unknown as ScanResult;
  const stored = storableReport(hostile);
  assert.equal(stored.browser_view?.status, 'failed');
  assert.match(stored.browser_view!.note, /could not be reported/);
  assert.ok(ScanResult.safeParse(stored).success);
  assert.throws(() => storableReport({ ...report, score: 101 }), /does not match its own schema, so it was not stored/);
});

test('over the size bound, the screenshot goes first, then the browser view; a report over it without one is not stored', () => {
  const report = fakeReport(3, { host: 'shop.example', score: 50 });
  const shot = { url: 'https://shop.example/p', data_url: `data:image/jpeg;base64,${'A'.repeat(MAX_SCREENSHOT_URL - 23)}` };
  const padded = (extra: number) => ({ ...report, browser_view: { ...emptyView(), status: 'rendered' as const, screenshot: shot, note: 'n'.repeat(extra) } });
  const base = bytes(padded(0));
  const noShot = storableReport(padded(MAX_REPORT_BYTES - base + 10));
  assert.equal(noShot.browser_view?.screenshot, null);
  assert.match(noShot.browser_view?.screenshot_note ?? '', /left out: the report would have been over its size bound/);
  assert.ok(bytes(noShot) <= MAX_REPORT_BYTES);
  const noView = storableReport(padded(MAX_REPORT_BYTES));
  assert.equal(noView.browser_view?.status, 'failed');
  assert.match(noView.browser_view!.note, /left out: the report would have been over its size bound \(1024 KiB\)/);
  const huge = { ...report, products: [], fetched: [{ url: 'x'.repeat(MAX_REPORT_BYTES), status: 200, outcome: 'ok', ms: 1 }] } as unknown as ScanResult;
  assert.throws(() => storableReport(huge), /is over 1024 KiB, so it was not stored/);
});

test('a stored report whose browser view fails the schema reads as "could not be read"; one with only its screenshot over the cap loses the screenshot', () => {
  const report = fakeReport(4, { host: 'shop.example', score: 50 });
  const hostileView = { ...emptyView(), status: 'rendered', pages: [{ webmcp_tools: Array.from({ length: 500 }, () => ({ name: { x: 1 }, via: 'evil' })) }] };
  const read = readableReport({ ...report, browser_view: hostileView });
  assert.equal(read.browser_view?.status, 'failed');
  assert.match(read.browser_view!.note, /could not be read/);
  assert.ok(ScanResult.safeParse(read).success);
  const bigShot = { ...emptyView(), status: 'rendered', screenshot: { url: 'https://shop.example/p', data_url: `data:image/jpeg;base64,${'A'.repeat(600_000)}` } };
  const read2 = readableReport({ ...report, browser_view: bigShot });
  assert.equal(read2.browser_view?.status, 'rendered');
  assert.equal(read2.browser_view?.screenshot, null);
  assert.match(read2.browser_view?.screenshot_note ?? '', /could not be read/);
  assert.equal(readableReport(report), report, 'a report without a browser view is read as it is');
});

test('a hostile report stored before the boundary reads back through REST, the report page and MCP, with nothing logged', async (t) => {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk))), done()) });
  const app = await startApp(t, {}, { log: pino({ level: 'info' }, sink) });
  const big = 'x'.repeat(10_240);
  const page = { url: 'https://hostile.test/', kind: 'home', outcome: 'rendered', detail: null, http_status: 200, challenge: null, crawlers_see: { name: true, price: true, buy_button: true }, browser_agents_see: { name: true, price: true, buy_button: true }, buy_controls: [], popups_blocked: 0, dialogs_dismissed: 0, ms: 10,
    webmcp_tools: [{ name: { x: 1 }, via: 'evil' }, ...Array.from({ length: 500 }, (_, i) => ({ name: `t${i}${big}`, description: big, via: 'registerTool' }))] };
  const report = { ...fakeReport(await app.db.allocateScanId(), { host: 'hostile.test', score: 40 }), browser_view: { ...emptyView(), status: 'rendered', pages: [page] } } as unknown as ScanResult;
  await saveReport(app.db, report);
  const client = await connectMcp(t, app);
  const fromHere = lines.length; // start-up's own warnings (no SMTP_URL) are not about reads
  for (let i = 0; i < 5; i++) {
    const json = await fetch(`${app.url}/api/v1/scan/${report.scan_id}.json`);
    const body = (await json.json()) as ScanResult;
    assert.equal(json.status, 200);
    assert.equal(body.browser_view?.status, 'failed');
    assert.match(body.browser_view!.note, /could not be read/);
    const html = await fetch(`${app.url}/r/${report.scan_id}`);
    assert.equal(html.status, 200);
    assert.match(await html.text(), /could not be read/);
    const result = await client.callTool({ name: 'get_readiness_report', arguments: { host: 'hostile.test' } });
    assert.notEqual(result.isError, true, JSON.stringify(result.content).slice(0, 300));
    assert.equal(ReadinessReport.parse(result.structuredContent).browser_view?.status, 'failed');
  }
  assert.deepEqual(lines.slice(fromHere).filter((l) => l.level >= 40).map((l) => l.msg), [], 'no warning or error for a report that reads as unreadable');
});

function emptyView(): BrowserView {
  return { status: 'not_run', note: 'Not run.', counted_in_score: false, pages: [], findings: [], requests: { made: 0, refused: 0, refused_examples: [], budget_spent: null }, screenshot: null, duration_ms: 0 };
}
