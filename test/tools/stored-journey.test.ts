// The buying journey on its way into the store and back (tools/stored-report.ts): its caps hold it to a known size
// whatever the pages handed back, it gives way after the pictures and the browser view when a report is over its
// bound, and a stored journey that fails its schema reads back as "could not be read" on every surface.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSER_VIEW_CAPS as CAPS } from '../../schemas/browser-view.js';
import { Journey, JOURNEY_STEPS, MAX_JOURNEY_SHOT_URL } from '../../schemas/journey.js';
import { ReadinessReport } from '../../schemas/readiness.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import { journeyFromRun } from '../../scan/journey/report.js';
import type { JourneyRun } from '../../scan/fetching/render.js';
import { MAX_REPORT_BYTES, readableReport, storableReport } from '../../tools/stored-report.js';
import { fakeReport, saveReport } from '../helpers/scans.js';
import { startApp } from '../helpers/start-app.js';
import { connectMcp } from '../helpers/mcp-client.js';

/** A character JSON writes as six (\u0001): the worst a page's text can cost per character. */
const WIDE = '\u0001';
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** A journey in which every field holds the most its caps let through. */
function worstJourney(): Journey {
  const url = `https://shop.example/${'p'.repeat(CAPS.journeyUrl - 21)}`;
  const run: JourneyRun = {
    steps: JOURNEY_STEPS.map((step) => ({ step, status: 'passed', url, detail: WIDE.repeat(CAPS.journeyDetail), ms: 1000 })),
    blocker: null,
    checkout: { url, signals: Array.from({ length: CAPS.journeySignals }, () => WIDE.repeat(CAPS.journeyControlName)), guest: true },
    accessibility: (['open_product', 'checkout'] as const).map((step) => ({
      step,
      url,
      violations: Array.from({ length: CAPS.axeRules }, () => ({ rule: WIDE.repeat(CAPS.axeText), impact: 'critical' as const, help: WIDE.repeat(CAPS.axeText), nodes: 10_000, targets: Array.from({ length: CAPS.axeTargets }, () => WIDE.repeat(CAPS.axeText)) })),
    })),
    screenshot: { step: 'checkout', dataUrl: `data:image/jpeg;base64,${'A'.repeat(MAX_JOURNEY_SHOT_URL - 23)}` },
    refused: 1_000_000,
    ms: 15_000,
  };
  const protocol = { via: 'mcp' as const, endpoint: url, tool: WIDE.repeat(CAPS.journeyName), query: WIDE.repeat(CAPS.journeyName), found: true, price_matches: false, page_price: { amount: 1, currency: 'EUR' }, protocol_price: { amount: 2, currency: 'EUR' }, availability_matches: false, calls: 3, detail: WIDE.repeat(CAPS.journeyDetail) };
  return journeyFromRun(run, { product: { url, name: WIDE.repeat(CAPS.journeyName) }, protocol, homeUrl: 'https://shop.example/' }, 'headless Chromium', new Date());
}

test('the worst journey the caps allow fits its schema and stays under 350 KiB of JSON: beside the worst browser view, a report fits its bound', () => {
  const journey = worstJourney();
  assert.equal(journey.outcome, 'reached_checkout', 'it was read, not replaced');
  assert.ok(Journey.safeParse(journey).success);
  const size = bytes(journey);
  assert.ok(size < 350 * 1024, `${Math.round(size / 1024)} KiB`);
  // tools/stored-report.ts: the browser view's worst case is under 600 KiB.
  assert.ok(size + 600 * 1024 < MAX_REPORT_BYTES);
});

test('over the bound, the journey gives way after the browser view: first its picture, then itself', () => {
  const journey = worstJourney();
  const base = { ...fakeReport(7, { host: 'shop.test', score: 50 }), journey };
  // Padding that leaves room for the journey without its picture, not with it.
  const room = MAX_REPORT_BYTES - bytes({ ...base, journey: { ...journey, screenshot: null }, public_entry_note: '' }) - 10;
  const padded: ScanResult = { ...base, public_entry_note: 'x'.repeat(room) };
  const stored = storableReport(padded);
  assert.equal(stored.journey?.screenshot, null);
  assert.deepEqual(stored.journey?.steps, journey.steps, 'the rest of the journey is kept');
  assert.ok(bytes(stored) <= MAX_REPORT_BYTES);
  const tighter: ScanResult = { ...base, public_entry_note: 'x'.repeat(room + 100_000) };
  const without = storableReport(tighter);
  assert.equal(without.journey?.outcome, 'not_run');
  assert.match(without.journey?.note ?? '', /left out: the report would have been over its size bound/);
});

test('a journey that does not fit its schema is not stored as it is: it says it could not be reported', () => {
  const report = { ...fakeReport(8, { host: 'shop.test', score: 50 }), journey: { ...worstJourney(), steps: [{ step: 'pay', status: 'passed' }] } } as unknown as ScanResult;
  const stored = storableReport(report);
  assert.equal(stored.journey?.outcome, 'not_run');
  assert.match(stored.journey?.note ?? '', /could not be reported/);
});

test('a stored journey that fails its schema reads as "could not be read" through REST, the page and MCP, without an error', async (t) => {
  const app = await startApp(t);
  const report = { ...fakeReport(9, { host: 'shop.test', score: 50 }), journey: { outcome: 'reached_checkout', steps: 'nope' } } as unknown as ScanResult;
  await saveReport(app.db, report);
  assert.match(readableReport(report).journey?.note ?? '', /could not be read/);
  const page = await fetch(`${app.url}/r/9`);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /The buying journey of this scan could not be read/);
  const client = await connectMcp(t, app);
  const result = await client.callTool({ name: 'get_readiness_report', arguments: { host: 'shop.test' } });
  assert.notEqual(result.isError, true, JSON.stringify(result).slice(0, 300));
  assert.equal(ReadinessReport.parse(result.structuredContent).journey?.outcome, 'not_run');
});
