// Readiness-index facts shared by the read tools: the agent_ready_verified rule (docs/checks.md §9) and the
// public report link.
import { AppError, scanNextAction } from '../lib/errors.js';
import { AGENT_READY } from '../scan/checks/rubric.js';
import type { LatestEntry } from '../db/repo.js';

export const VERIFIED_MAX_AGE_DAYS = 90;

/** The agent-ready rule in a merchant's words; pages say "Agent-ready" for it and nothing else. */
export const AGENT_READY_RULE = `score ${AGENT_READY.minScore} or more, not capped, price, stock and agent access all passing, scanned within ${VERIFIED_MAX_AGE_DAYS} days`;

/** The agent-ready rule of scan/checks/rubric.ts, met at scan time (stored as agentReady), and a recent scan. */
export function agentReadyVerified(entry: Pick<LatestEntry, 'agentReady' | 'updatedAt'>, now = new Date()): boolean {
  const ageDays = (now.getTime() - entry.updatedAt.getTime()) / 86_400_000;
  return entry.agentReady && ageDays <= VERIFIED_MAX_AGE_DAYS;
}

export const reportUrl = (baseUrl: string, scanId: number): string => `${baseUrl}/r/${scanId}`;

export function hostNotScanned(host: string): AppError {
  return new AppError(
    'HOST_NOT_FOUND',
    `${host} has no public readiness report. Its owner can scan it to get one.`,
    scanNextAction(`Scan ${host} to create its readiness report (a scan is meant for the merchant's own store).`, {
      url: `https://${host}`,
    }),
  );
}

/** No stored scan has this id; `forBrief` when the caller wanted its agent brief, so the next step says so. */
export function scanNotFound(scanId: number, forBrief = false): AppError {
  return new AppError(
    'SCAN_NOT_FOUND',
    `No scan with id ${scanId}. Run a scan to get a new id${forBrief ? ', then ask for its brief' : ''}.`,
    scanNextAction(`Scan a store to create a report; the response carries ${forBrief ? 'the scan_id whose brief you can read' : 'its scan_id'}.`),
  );
}
