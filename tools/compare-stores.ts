// compare_stores: 2 to 5 stores of the readiness index side by side, from their latest stored reports: score,
// grade, pillars and each check, with the checks on which they differ marked. Reads stored data only; a store the
// index does not hold (never scanned, or delisted) is listed as not scanned rather than failing the comparison.
import { z } from 'zod';
import { ReadHost } from '../schemas/readiness.js';
import { MAX_COMPARED, MIN_COMPARED, StoreComparison } from '../schemas/comparison.js';
import type { ScanResult } from '../schemas/scan-result.js';
import type { Repository } from '../db/repo.js';
import { indexHost } from '../lib/hosts.js';
import { AppError } from '../lib/errors.js';
import { reportUrl } from './readiness.js';
import { readableReport } from './stored-report.js';
import { defineTool } from './tool.js';

export const CompareHosts = z
  .array(ReadHost)
  .min(MIN_COMPARED)
  .max(MAX_COMPARED)
  .describe(`${MIN_COMPARED} to ${MAX_COMPARED} store host names, e.g. ["shop-a.example", "shop-b.example"] (URLs are reduced to their host).`);

/** "a.example, b.example" (commas or spaces), as a query or a form gives it → the list; the schema judges it. */
export const hostList = (value: string | undefined): string[] => (value ?? '').split(/[\s,]+/).filter(Boolean).slice(0, 50);

/** The hosts in index form, duplicates dropped; fewer than two different stores is an error. */
export function distinctHosts(raw: string[]): string[] {
  const hosts = [...new Set(raw.map((h) => indexHost(h)))];
  if (hosts.length < MIN_COMPARED) throw new AppError('INVALID_PARAMS', `hosts: name ${MIN_COMPARED} to ${MAX_COMPARED} different stores.`);
  return hosts;
}

/** The latest stored reports of these hosts (delisted and unknown hosts have none). */
export async function latestReports(db: Repository, hosts: string[]): Promise<Map<string, { scanId: number; report: ScanResult }>> {
  const latest = await db.latestByHosts(hosts);
  const found = await Promise.all(
    hosts.map(async (host) => {
      const entry = latest.get(host);
      const scan = entry ? await db.getScan(entry.scanId) : null;
      return scan ? ([host, { scanId: scan.id, report: readableReport(scan.report) }] as const) : null;
    }),
  );
  return new Map(found.filter((x) => x !== null));
}

export async function compareStored(db: Repository, baseUrl: string, rawHosts: string[]): Promise<StoreComparison> {
  const hosts = distinctHosts(rawHosts);
  const reports = await latestReports(db, hosts);
  const stores = hosts.map((host) => {
    const found = reports.get(host);
    if (!found) return { host, scanned: false };
    const r = found.report;
    return {
      host,
      scanned: true,
      score: r.score,
      grade: r.grade,
      capped: r.capped,
      scanned_at: r.scanned_at,
      report_url: reportUrl(baseUrl, found.scanId),
      pillars: r.pillars.map((p) => ({ id: p.id, label: p.label, score: p.score, max: p.max })),
    };
  });
  const scanned = hosts.filter((h) => reports.has(h));
  if (scanned.length < MIN_COMPARED) return { stores, checks: [], differing: 0 };
  // Every check of every scanned report, in the order of the first report that has it.
  const rows = new Map<string, { id: string; label: string; pillar: string }>();
  const byHost = new Map(scanned.map((h) => [h, new Map(reports.get(h)!.report.pillars.flatMap((p) => p.checks.map((c) => [c.id, c] as const)))]));
  for (const h of scanned) {
    for (const p of reports.get(h)!.report.pillars) for (const c of p.checks) if (!rows.has(c.id)) rows.set(c.id, { id: c.id, label: c.label, pillar: p.label });
  }
  const checks = [...rows.values()].map((row) => {
    const results = scanned.map((host) => {
      const c = byHost.get(host)!.get(row.id);
      return { host, status: c?.status ?? null, points: c?.points ?? null, max: c?.max ?? null };
    });
    return { ...row, differs: new Set(results.map((r) => r.status)).size > 1, results };
  });
  return { stores, checks, differing: checks.filter((c) => c.differs).length };
}

export const compareStores = defineTool({
  name: 'compare_stores',
  title: 'Compare stores\' agent-readiness',
  description:
    'Returns 2 to 5 stores of the readiness index side by side from their latest stored reports: score out of 100, grade, whether capped, each pillar\'s points, and every check\'s status per store, with the checks on which they differ marked. Use it to explain which store an AI shopping agent would find easier to discover, understand and buy from, and why. It reads stored results only and never contacts a store; a store that was never scanned is listed with scanned: false.',
  input: z.object({ hosts: CompareHosts }),
  output: StoreComparison,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false },
  expose: ['mcp', 'functions'],
  handler: ({ hosts }, { db, baseUrl }) => compareStored(db, baseUrl, hosts),
});
