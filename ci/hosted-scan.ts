// `scan --server URL --key KEY`: the scan runs on a hosted instance through its API (GET /api/v1/scan), so it is
// stored there: in the store's history, the index when it is the store's root, and the key owner's console.
import { CiFetchError, fetchJson } from './fetch-json.js';
import { CiReport } from './report.js';
import { errorText } from './baseline.js';
import { describeIssues } from '../tools/invoke.js';

export class HostedScanError extends Error {}

/** The hosted API's scan takes up to its own budget (30 s by default) plus the queue; allow well beyond that. */
const HOSTED_SCAN_TIMEOUT_MS = 180_000;

export async function scanThroughServer(
  server: string,
  storeUrl: string,
  opts: { key?: string; signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<{ report: CiReport; json: unknown }> {
  const endpoint = new URL('api/v1/scan', server.endsWith('/') ? server : `${server}/`);
  endpoint.searchParams.set('url', storeUrl);
  let answer;
  try {
    answer = await fetchJson(endpoint.href, {
      headers: opts.key ? { authorization: `Bearer ${opts.key}` } : {},
      timeoutMs: opts.timeoutMs ?? HOSTED_SCAN_TIMEOUT_MS,
      signal: opts.signal,
    });
  } catch (err) {
    if (err instanceof CiFetchError) throw new HostedScanError(`The server ${err.message}.`);
    throw err;
  }
  if (answer.status !== 200) {
    const retry = answer.headers.get('retry-after');
    throw new HostedScanError(`The server answered ${answer.status}${errorText(answer.body)}${retry ? ` (retry after ${retry} s)` : ''}.`);
  }
  const parsed = CiReport.safeParse(answer.body);
  if (!parsed.success) throw new HostedScanError(`The server's answer is not a scan report (${describeIssues(parsed.error.issues)}).`);
  return { report: parsed.data, json: answer.body };
}
