// A scan's report on its way into the store and back out. Into it: the report must pass its own schema and stay
// within MAX_REPORT_BYTES, or what a page put into it (the browser view, the buying journey) gives way, or nothing is
// stored. Out of it: a report stored before those rules whose browser view or journey fails the schema is served
// with that part marked unreadable, never as an error. And the latest public report of a host, or the HOST_NOT_FOUND error the read tools
// give (unknown and delisted hosts alike: the store hides delisted ones), shared by get_readiness_report, the report
// resources and the prompts.
import { AppError } from '../lib/errors.js';
import { indexHost } from '../lib/hosts.js';
import type { Repository } from '../db/repo.js';
import { BrowserView } from '../schemas/browser-view.js';
import { ScanResult } from '../schemas/scan-result.js';
import { failed } from '../scan/browser-view.js';
import { Journey } from '../schemas/journey.js';
import { notRunJourney } from '../scan/journey/report.js';
import { hostNotScanned } from './readiness.js';

/**
 * The most a stored report weighs, as JSON. The audit's own parts are held to short quotes by the scanner; the
 * browser view's caps (schemas/browser-view.ts) hold it under 600 KiB with its screenshot (test/tools/stored-report.test.ts
 * computes the worst case); this bound stands over both.
 */
export const MAX_REPORT_BYTES = 1024 * 1024;

const OVER_BOUND = `the report would have been over its size bound (${MAX_REPORT_BYTES / 1024} KiB)`;
/** What gives way, in order, until a report fits its bound: the pictures, then the browser view, then the journey. */
const GIVE_WAY: ((r: ScanResult) => ScanResult | null)[] = [
  (r) => (r.browser_view?.screenshot ? { ...r, browser_view: { ...r.browser_view, screenshot: null, screenshot_note: 'The screenshot was left out: the report would have been over its size bound.' } } : null),
  (r) => (r.journey?.screenshot ? { ...r, journey: { ...r.journey, screenshot: null } } : null),
  (r) => (r.browser_view ? { ...r, browser_view: failed(`The browser view was left out: ${OVER_BOUND}.`, r.browser_view.duration_ms) } : null),
  (r) => (r.journey ? { ...r, journey: notRunJourney(`The buying journey was left out: ${OVER_BOUND}.`) } : null),
];

/** The report as it may be stored and answered; throws when even without its browser view and journey it is not. */
export function storableReport(report: ScanResult): ScanResult {
  let out = report;
  const view = out.browser_view;
  if (view && !BrowserView.safeParse(view).success) {
    out = { ...out, browser_view: failed('The browser view could not be reported: what the pages handed back did not fit its schema.', view.duration_ms) };
  }
  if (out.journey && !Journey.safeParse(out.journey).success) out = { ...out, journey: notRunJourney('The buying journey could not be reported: what the pages handed back did not fit its schema.') };
  if (!ScanResult.safeParse(out).success) throw unstorable('does not match its own schema');
  if (jsonBytes(out) <= MAX_REPORT_BYTES) return out;
  for (const giveWay of GIVE_WAY) {
    out = giveWay(out) ?? out;
    if (jsonBytes(out) <= MAX_REPORT_BYTES) return out;
  }
  throw unstorable(`is over ${MAX_REPORT_BYTES / 1024} KiB`);
}

/** A stored report as it may be answered: a browser view or journey that fails its schema is replaced by one that says so. */
export function readableReport(stored: unknown): ScanResult {
  const read = stored as ScanResult;
  const journey = read?.journey;
  const report = journey === undefined || Journey.safeParse(journey).success ? read : { ...read, journey: notRunJourney('The buying journey of this scan could not be read: what was stored does not fit its schema.') };
  const view = report?.browser_view;
  if (view === undefined || BrowserView.safeParse(view).success) return report;
  const withoutShot = { ...view, screenshot: null, screenshot_note: 'The stored screenshot could not be read.' };
  if (BrowserView.safeParse(withoutShot).success) return { ...report, browser_view: withoutShot };
  const ms = typeof view?.duration_ms === 'number' ? view.duration_ms : 0;
  return { ...report, browser_view: failed('The browser view of this scan could not be read: what was stored does not fit its schema.', ms) };
}

export async function latestReport(db: Repository, rawHost: string): Promise<ScanResult> {
  const host = indexHost(rawHost);
  const entry = await db.latestByHost(host);
  const scan = entry ? await db.getScan(entry.scanId) : null;
  if (!scan) throw hostNotScanned(host);
  return readableReport(scan.report);
}

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

const unstorable = (why: string) => new AppError('INTERNAL_ERROR', `The report of this scan ${why}, so it was not stored. Please report this to the service's operator.`);
