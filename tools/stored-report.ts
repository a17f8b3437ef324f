// A scan's report on its way into the store and back out. Into it: the report must pass its own schema and stay
// within MAX_REPORT_BYTES, or what a page put into it (the browser view) gives way, or nothing is stored. Out of it:
// a report stored before those rules whose browser view fails the schema is served with that view marked
// unreadable, never as an error. And the latest public report of a host, or the HOST_NOT_FOUND error the read tools
// give (unknown and delisted hosts alike: the store hides delisted ones), shared by get_readiness_report, the report
// resources and the prompts.
import { AppError } from '../lib/errors.js';
import { indexHost } from '../lib/hosts.js';
import type { Repository } from '../db/repo.js';
import { BrowserView } from '../schemas/browser-view.js';
import { ScanResult } from '../schemas/scan-result.js';
import { failed } from '../scan/browser-view.js';
import { hostNotScanned } from './readiness.js';

/**
 * The most a stored report weighs, as JSON. The audit's own parts are held to short quotes by the scanner; the
 * browser view's caps (schemas/browser-view.ts) hold it under 600 KiB with its screenshot (test/tools/stored-report.test.ts
 * computes the worst case); this bound stands over both.
 */
export const MAX_REPORT_BYTES = 1024 * 1024;

/** The report as it may be stored and answered; throws when even without its browser view it is not. */
export function storableReport(report: ScanResult): ScanResult {
  let out = report;
  const view = out.browser_view;
  if (view && !BrowserView.safeParse(view).success) {
    out = { ...out, browser_view: failed('The browser view could not be reported: what the pages handed back did not fit its schema.', view.duration_ms) };
  }
  if (!ScanResult.safeParse(out).success) throw unstorable('does not match its own schema');
  if (jsonBytes(out) <= MAX_REPORT_BYTES) return out;
  if (out.browser_view?.screenshot) {
    out = { ...out, browser_view: { ...out.browser_view, screenshot: null, screenshot_note: 'The screenshot was left out: the report would have been over its size bound.' } };
    if (jsonBytes(out) <= MAX_REPORT_BYTES) return out;
  }
  if (out.browser_view) {
    out = { ...out, browser_view: failed(`The browser view was left out: the report would have been over its size bound (${MAX_REPORT_BYTES / 1024} KiB).`, out.browser_view.duration_ms) };
    if (jsonBytes(out) <= MAX_REPORT_BYTES) return out;
  }
  throw unstorable(`is over ${MAX_REPORT_BYTES / 1024} KiB`);
}

/** A stored report as it may be answered: a browser view that fails its schema is replaced by one that says so. */
export function readableReport(stored: unknown): ScanResult {
  const report = stored as ScanResult;
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
