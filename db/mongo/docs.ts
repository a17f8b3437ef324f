// The `scans` and `latest` documents of MongoRepo and the one mapping of each to the records the service reads,
// so a field's reading (absent and null alike) is written once whichever query reads it.
import type { LatestDoc, ScanDoc } from './queries.js';
import type { LatestEntry, ScanJsonRecord, ScanRecord } from '../repo.js';
import type { ScanSummary } from '../monitoring-repo.js';

/** A scan as its host's history lists it (the report need not be read). */
export function toScanSummary(d: Omit<ScanDoc, 'report'>): ScanSummary {
  return {
    id: d._id,
    host: d.host,
    score: d.score,
    grade: d.grade,
    capped: d.capped,
    agentReady: d.agentReady,
    createdAt: d.createdAt,
  };
}

/** A scan's fields without its report, shared by both reads of a scan. */
export function scanFields(d: Omit<ScanDoc, 'report'>): Omit<ScanRecord, 'report'> {
  return { ...toScanSummary(d), vertical: d.vertical ?? null, ownerKeyId: d.ownerKeyId ?? null };
}

export function toScan(d: ScanDoc): ScanRecord {
  return { ...scanFields(d), report: JSON.parse(d.report) as unknown };
}

/** toScan with the report left as its stored JSON text, in UTF-8 bytes. */
export function toScanJson(d: ScanDoc): ScanJsonRecord {
  return { ...scanFields(d), reportJson: Buffer.from(d.report, 'utf8') };
}

export function toLatest(d: LatestDoc): LatestEntry {
  return {
    host: d._id,
    scanId: d.scanId,
    vertical: d.vertical ?? null,
    score: d.score,
    grade: d.grade,
    capped: d.capped,
    agentReady: d.agentReady,
    updatedAt: d.updatedAt,
  };
}
