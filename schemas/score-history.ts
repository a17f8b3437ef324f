// Output of get_score_history: a host's stored scans, newest first, each with its change from the scan before.
// The root carries no `.meta({id})` (MCP needs an object at the root); the row schema has one for OpenAPI.
import { z } from 'zod';
import { Grade } from './scan-result.js';

/** The most scans one history read returns. */
export const HISTORY_MAX = 50;
export const HistoryLimit = z.int().min(1).max(HISTORY_MAX).default(10).describe(`How many scans to return, newest first (1–${HISTORY_MAX}).`);

export const HistoryEntry = z
  .object({
    scan_id: z.int().min(1).describe('The scan\'s id; its report is at report_url.'),
    scanned_at: z.iso.datetime().describe('When the scan ran (UTC).'),
    score: z.int().min(0).max(100).describe('Readiness score out of 100.'),
    grade: Grade,
    capped: z.boolean().describe('True when agents were blocked outright, capping the score at 35.'),
    agent_ready: z.boolean().describe('Whether this scan met the agent-ready bar (score ≥ 70, not capped, price, availability and live-agent access passing).'),
    score_change: z.int().nullable().describe('Points gained (positive) or lost since the scan before it; null for the host\'s first scan.'),
    report_url: z.url().describe('Shareable public report of the scan.'),
  })
  .meta({ id: 'HistoryEntry' });

export const ScoreHistory = z
  .object({
    host: z.string().describe('The store as the readiness index names it (lower case, no leading www.).'),
    scans: z.array(HistoryEntry).describe('Stored scans of the store, newest first.'),
  })
  .describe('The score history of one store.');
export type ScoreHistory = z.infer<typeof ScoreHistory>;
