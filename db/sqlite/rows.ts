// The `scans` and `latest` rows of the SQLite file and the one mapping of each to the records the service reads,
// so a column's meaning (0/1 flags, epoch milliseconds) is written once whichever query reads it.
import type { LatestEntry, ScanJsonRecord, ScanRecord } from '../repo.js';
import type { ScanSummary } from '../monitoring-repo.js';

/** A scan's columns without its report: what every read of a scan maps. */
export const SCAN_COLS = 'id, host, vertical, score, grade, capped, agent_ready, created_at, owner_key_id';

export interface ScanColumns {
  id: number;
  host: string;
  vertical: string | null;
  score: number;
  grade: string;
  capped: number;
  agent_ready: number;
  created_at: number;
  owner_key_id: string | null;
}

export interface ScanRow extends ScanColumns {
  owner_account_id: string | null;
  report: string;
  public_entry?: number; // written, not read back (1 when absent: rows from before the column existed)
}

/** A scan read with its report as the stored UTF-8 bytes. */
export type ScanJsonRow = ScanColumns & { report: Buffer };

export const LATEST_COLS = 'host, scan_id, vertical, score, grade, capped, agent_ready, updated_at';

export interface LatestRow {
  host: string;
  scan_id: number;
  vertical: string | null;
  score: number;
  grade: string;
  capped: number;
  agent_ready: number;
  updated_at: number;
}

/** A `latest` row read as an array, in LATEST_COLS order (cheaper than an object per row for long lists). */
export type LatestTuple = [
  host: string,
  scanId: number,
  vertical: string | null,
  score: number,
  grade: string,
  capped: number,
  agentReady: number,
  updatedAt: number,
];

/** The row a scan is written as. */
export function scanRowOf(scan: ScanRecord): ScanRow {
  return {
    id: scan.id,
    host: scan.host,
    vertical: scan.vertical,
    score: scan.score,
    grade: scan.grade,
    capped: scan.capped ? 1 : 0,
    agent_ready: scan.agentReady ? 1 : 0,
    created_at: scan.createdAt.getTime(),
    owner_key_id: scan.ownerKeyId,
    owner_account_id: scan.ownerAccountId ?? null,
    report: JSON.stringify(scan.report) ?? 'null',
    public_entry: scan.publicEntry === false ? 0 : 1,
  };
}

/** A scan as its host's history lists it. */
export function toScanSummary(r: ScanColumns): ScanSummary {
  return {
    id: r.id,
    host: r.host,
    score: r.score,
    grade: r.grade,
    capped: r.capped === 1,
    agentReady: r.agent_ready === 1,
    createdAt: new Date(r.created_at),
  };
}

/** A scan's fields without its report, shared by both reads of a scan. */
export function scanFields(r: ScanColumns): Omit<ScanRecord, 'report'> {
  return { ...toScanSummary(r), vertical: r.vertical, ownerKeyId: r.owner_key_id };
}

export function toScan(r: ScanRow): ScanRecord {
  return { ...scanFields(r), report: JSON.parse(r.report) as unknown };
}

/** toScan with the report left as its stored bytes. */
export function toScanJson(r: ScanJsonRow): ScanJsonRecord {
  return { ...scanFields(r), reportJson: r.report };
}

/** The host's `latest` row made from one of its scans (a save, or a relist rebuilding the row). */
export function latestRowOf(scan: ScanColumns, vertical: string | null): LatestRow {
  return {
    host: scan.host,
    scan_id: scan.id,
    vertical,
    score: scan.score,
    grade: scan.grade,
    capped: scan.capped,
    agent_ready: scan.agent_ready,
    updated_at: scan.created_at,
  };
}

export function toLatest(r: LatestRow): LatestEntry {
  return {
    host: r.host,
    scanId: r.scan_id,
    vertical: r.vertical,
    score: r.score,
    grade: r.grade,
    capped: r.capped === 1,
    agentReady: r.agent_ready === 1,
    updatedAt: new Date(r.updated_at),
  };
}

/** toLatest for a row read as an array. */
export function tupleToLatest([host, scan_id, vertical, score, grade, capped, agent_ready, updated_at]: LatestTuple): LatestEntry {
  return toLatest({ host, scan_id, vertical, score, grade, capped, agent_ready, updated_at });
}
