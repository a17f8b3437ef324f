// CSV downloads for spreadsheets: a report's checks (/r/{id}.csv), a store's score history (/history/{host}.csv)
// and the console's scans (/console/scans.csv). Written by csv-stringify with a UTF-8 byte order mark (so Excel
// reads accents right) and `escape_formulas`: a cell that starts with = + - @ or a tab is prefixed with a quote, so
// text a store wrote (evidence) can never run as a spreadsheet formula (docs/security.md "Output safety").
import type { Response } from 'express';
import { stringify } from 'csv-stringify/sync';
import type { ScanResult } from '../schemas/scan-result.js';
import type { ScoreHistory } from '../schemas/score-history.js';
import type { OwnedScan } from '../db/accounts-repo.js';

type Row = Record<string, string | number | boolean | null>;

export function toCsv(rows: Row[], columns: string[]): string {
  return stringify(rows, { header: true, columns, bom: true, escape_formulas: true, cast: { boolean: (v) => (v ? 'true' : 'false') } });
}

/** Sends CSV as a download named `filename` (letters, digits, dots and hyphens only). */
export function sendCsv(res: Response, filename: string, csv: string, cacheControl = 'no-cache'): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8; header=present');
  res.setHeader('Content-Disposition', `attachment; filename="${filename.replace(/[^a-zA-Z0-9.-]/g, '-')}"`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', cacheControl);
  res.send(csv);
}

export const CHECK_COLUMNS = ['pillar', 'check_id', 'label', 'status', 'points', 'max', 'hard_block', 'finding', 'evidence', 'fix_points', 'fix'];

/** One row per check of the report, in report order, with its fix when the report lists one. */
export function checksCsv(report: ScanResult): string {
  const fixes = new Map(report.top_fixes.map((f) => [f.check_id, f]));
  const rows = report.pillars.flatMap((p) =>
    p.checks.map((c) => ({
      pillar: p.label,
      check_id: c.id,
      label: c.label,
      status: c.status,
      points: c.points,
      max: c.max,
      hard_block: c.hard_block,
      finding: c.title,
      evidence: c.evidence,
      fix_points: fixes.get(c.id)?.points ?? null,
      fix: fixes.get(c.id)?.how ?? null,
    })),
  );
  return toCsv(rows, CHECK_COLUMNS);
}

export const HISTORY_COLUMNS = ['scan_id', 'scanned_at', 'score', 'grade', 'score_change', 'capped', 'agent_ready', 'report_url'];

export function historyCsv(history: ScoreHistory): string {
  return toCsv(history.scans, HISTORY_COLUMNS);
}

export const SCAN_COLUMNS = ['scan_id', 'scanned_at', 'host', 'score', 'grade', 'score_change', 'api_key', 'report_url'];

export function scansCsv(scans: OwnedScan[], baseUrl: string): string {
  const rows = scans.map((s) => ({
    scan_id: s.id,
    scanned_at: s.createdAt.toISOString(),
    host: s.host,
    score: s.score,
    grade: s.grade,
    score_change: s.previousScore === null ? null : Math.round((s.score - s.previousScore) * 10) / 10,
    api_key: s.keyId ?? 'signed-in session',
    report_url: `${baseUrl}/r/${s.id}`,
  }));
  return toCsv(rows, SCAN_COLUMNS);
}
