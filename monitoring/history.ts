// A host's score history and what changed between two of its scans: the score, and every check whose status
// moved, with its points. Public: delisted hosts have none (the store answers an empty history for them).
import type { Repository } from '../db/repo.js';
import type { ScanSummary } from '../db/monitoring-repo.js';

export type CheckStatus = 'pass' | 'partial' | 'fail';

export interface CheckChange {
  id: string;
  label: string;
  pillar: string;
  from: CheckStatus | null; // null: the check did not exist in the previous scan
  to: CheckStatus | null; // null: the check is gone from the newer scan
  points_from: number | null;
  points_to: number | null;
  max: number;
}

export interface ScanDiff {
  score_from: number;
  score_to: number;
  grade_from: string;
  grade_to: string;
  changed_checks: CheckChange[];
}

interface CheckLike {
  id: string;
  label?: string;
  status: CheckStatus;
  points?: number;
  max?: number;
}

interface ReportLike {
  score?: number;
  grade?: string;
  pillars?: { id: string; checks?: CheckLike[] }[];
}

const RANK: Record<CheckStatus, number> = { fail: 0, partial: 1, pass: 2 };

/** A check moved down: from pass or partial to something lower (or it disappeared). */
export const isRegression = (c: CheckChange): boolean => c.from !== null && c.from !== 'fail' && (c.to === null || RANK[c.to] < RANK[c.from]);

function checksOf(report: unknown): Map<string, CheckLike & { pillar: string }> {
  const out = new Map<string, CheckLike & { pillar: string }>();
  for (const pillar of (report as ReportLike | null)?.pillars ?? []) {
    for (const check of pillar.checks ?? []) out.set(check.id, { ...check, pillar: pillar.id });
  }
  return out;
}

/** The changes from `previous` to `current` (both stored scan reports), in the order of the current report. */
export function diffReports(previous: unknown, current: unknown): ScanDiff {
  const before = checksOf(previous);
  const after = checksOf(current);
  const changed: CheckChange[] = [];
  for (const [id, now] of after) {
    const was = before.get(id);
    if (was && was.status === now.status) continue;
    changed.push({
      id,
      label: now.label ?? id,
      pillar: now.pillar,
      from: was?.status ?? null,
      to: now.status,
      points_from: was?.points ?? null,
      points_to: now.points ?? null,
      max: now.max ?? 0,
    });
  }
  for (const [id, was] of before) {
    if (after.has(id)) continue;
    changed.push({ id, label: was.label ?? id, pillar: was.pillar, from: was.status, to: null, points_from: was.points ?? null, points_to: null, max: was.max ?? 0 });
  }
  const p = previous as ReportLike | null;
  const c = current as ReportLike | null;
  return {
    score_from: p?.score ?? 0,
    score_to: c?.score ?? 0,
    grade_from: p?.grade ?? '',
    grade_to: c?.grade ?? '',
    changed_checks: changed,
  };
}

export const MAX_PAGE_HISTORY = 10;

/** The host's scans, newest first (empty when delisted or unknown). */
export function scoreHistory(db: Repository, host: string, limit: number): Promise<ScanSummary[]> {
  return db.monitoring.scanHistory(host, limit);
}

/** The diff between a stored scan and the host's scan before it, or null when it is the first. */
export async function diffWithPrevious(db: Repository, scan: { id: number; host: string; report: unknown }): Promise<{ previousId: number; diff: ScanDiff } | null> {
  const previousId = await db.monitoring.previousScanId(scan.host, scan.id);
  if (previousId === null) return null;
  const previous = await db.getScan(previousId);
  if (!previous) return null;
  return { previousId, diff: diffReports(previous.report, scan.report) };
}
