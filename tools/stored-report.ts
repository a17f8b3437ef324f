// The latest public report of a host, or the HOST_NOT_FOUND error the read tools give (unknown and delisted hosts
// alike: the store hides delisted ones). Shared by get_readiness_report, the report resources and the prompts.
import { indexHost } from '../lib/hosts.js';
import type { Repository } from '../db/repo.js';
import type { ScanResult } from '../schemas/scan-result.js';
import { hostNotScanned } from './readiness.js';

export async function latestReport(db: Repository, rawHost: string): Promise<ScanResult> {
  const host = indexHost(rawHost);
  const entry = await db.latestByHost(host);
  const scan = entry ? await db.getScan(entry.scanId) : null;
  if (!scan) throw hostNotScanned(host);
  return scan.report as ScanResult;
}
