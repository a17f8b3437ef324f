// read_reports: the bulk read (POST /api/v1/reports): the latest stored report of up to 100 hosts in
// one store round trip. Never scans and never contacts a store. Story: normalise → read → shape.
// Also the two request checks its REST row needs (body errors, Idempotency-Key), kept free of express.
import type { z } from 'zod';
import { AppError } from '../lib/errors.js';
import { ReportsRequest, ReportsResponse, type HostReport } from '../schemas/host-report.js';
import type { LatestEntry } from '../db/repo.js';
import { agentReadyVerified, reportUrl } from './readiness.js';
import { indexHost } from '../lib/hosts.js';
import { defineTool } from './tool.js';

export const readReports = defineTool({
  name: 'read_reports',
  title: 'Read the stored reports of many stores',
  description:
    'Returns the latest stored readiness report of up to 100 stores at once: score, grade, capped, agent_ready_verified, when it was scanned and the report link, or scanned: false for a store with no public report. One entry per requested host, in the order sent (duplicates answered each time); host is the index name of the store (lower case, no scheme, no leading "www."), so "https://www.Shop.example/" comes back as "shop.example". Reads stored data only: it never scans a store.',
  input: ReportsRequest,
  output: ReportsResponse,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false },
  expose: [],
  async handler({ hosts }, { db, config }) {
    const wanted = hosts.map(indexHost);
    const latest = await db.latestByHosts([...new Set(wanted)]);
    const now = new Date();
    return { reports: wanted.map((host) => hostReport(host, latest.get(host), config.BASE_URL, now)) };
  },
});

function hostReport(host: string, entry: LatestEntry | undefined, baseUrl: string, now: Date): HostReport {
  if (!entry) return { host, scanned: false };
  return {
    host,
    scanned: true,
    score: entry.score,
    grade: entry.grade as HostReport['grade'],
    capped: entry.capped,
    agent_ready_verified: agentReadyVerified(entry, now),
    scanned_at: entry.updatedAt.toISOString(),
    report_url: reportUrl(baseUrl, entry.scanId),
  };
}

/** express.json leaves the body undefined for any other content type (docs/security.md O8: 400, not 500). */
export function reportsBody(body: unknown): unknown {
  if (body === undefined) {
    throw new AppError('INVALID_BODY', 'Send a JSON body with Content-Type: application/json, e.g. {"hosts": ["shop.example.com"]}.');
  }
  return body;
}

/** 400 INVALID_BODY naming each problem with its place in the body ("hosts[3]: … is not a host name"). */
export function invalidReportsBody(issues: z.core.$ZodIssue[]): AppError {
  const parts = issues.slice(0, 5).map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((k) => JSON.stringify(k.slice(0, 40))).join(', ');
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}: the body has exactly one field, "hosts"`;
    }
    const where = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
    return where ? `${where} ${issue.message}` : issue.message;
  });
  const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
  return new AppError('INVALID_BODY', `Invalid body: ${parts.join('; ')}${more}.`);
}

// docs/security.md O4: a header we echo must be 1–255 visible ASCII characters. Inner spaces are allowed because the
// IETF Idempotency-Key draft uses a quoted structured-field string; Node already trims the ends and refuses CR/LF.
const IDEMPOTENCY_KEY = /^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/;

/** The Idempotency-Key to echo, undefined when absent; anything else is 400 INVALID_BODY. */
export function idempotencyKey(values: string[] | undefined): string | undefined {
  if (values === undefined || values.length === 0) return undefined;
  if (values.length > 1) throw new AppError('INVALID_BODY', 'Send the Idempotency-Key header once.');
  const [value] = values;
  if (!IDEMPOTENCY_KEY.test(value)) {
    throw new AppError(
      'INVALID_BODY',
      value.length > 255 || value.length === 0
        ? `The Idempotency-Key header must be 1 to 255 characters long (got ${value.length}).`
        : 'The Idempotency-Key header may only contain visible ASCII characters (and inner spaces).',
    );
  }
  return value;
}
