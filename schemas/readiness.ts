// Output schemas of the three MCP read tools (check_merchant_readiness, get_readiness_report,
// list_agent_ready_stores). MCP requires `type: "object"` at the root of an outputSchema, so a root here never
// carries a `.meta({id})` (that would turn the root into a bare $ref); nested schemas keep theirs.
import { z } from 'zod';
import { Host } from './params.js';
import { Grade, Protocols, ScanResult } from './scan-result.js';

/**
 * The host argument of the read tools: Host, minus control characters. The URL parser would silently strip a
 * trailing NUL ("shop.test\u0000" → "shop.test"); a read tool refuses it instead (docs/security.md O5).
 */
export const ReadHost = Host.refine(
  (s) => ![...s].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f),
  'host must not contain control characters',
);

const Score = z.int().min(0).max(100).describe('Readiness score out of 100.');
const ReportUrl = z.url().describe('Shareable public report of the scan.');
const ScannedAt = z.iso.datetime().describe('When the latest public scan ran (UTC).');

export const ReadinessSummary = z
  .object({
    host: z.string().describe('The store as the readiness index names it (lower case, no leading www.).'),
    score: Score,
    grade: Grade,
    capped: z.boolean().describe('True when agents are blocked outright, which caps the score at 35.'),
    protocols: Protocols.nullable().describe(
      'Agent-protocol adoption seen by the latest scan (UCP, ACP, MCP, A2A, AP2, x402, llms.txt, …): true, false, or null when not checked; null when the stored report predates protocol detection.',
    ),
    report_url: ReportUrl,
    scanned_at: ScannedAt,
    agent_ready_verified: z
      .boolean()
      .describe(
        'True when the latest scan is at most 90 days old, not capped, scores at least 70, and product price, product availability and live-agent access in robots.txt all pass.',
      ),
  })
  .describe('Latest stored readiness summary of one store.');
export type ReadinessSummary = z.infer<typeof ReadinessSummary>;

/** The full stored scan result; `.extend({})` gives the root its own identity so it is emitted inline. */
export const ReadinessReport = ScanResult.extend({}).describe('The latest public readiness report of one store, as stored.');
export type ReadinessReport = z.infer<typeof ReadinessReport>;

export const AgentReadyStore = z
  .object({
    rank: z.int().min(1).describe('Competition rank among the agent-ready stores listed (ties share a rank).'),
    host: z.string(),
    score: Score,
    grade: Grade,
    vertical: z.string().nullable().describe('Store category, or null when none was given at scan time.'),
    report_url: ReportUrl,
    scanned_at: ScannedAt,
  })
  .meta({ id: 'AgentReadyStore' });

export const AgentReadyStores = z
  .object({
    stores: z.array(AgentReadyStore).describe('Verified agent-ready stores, best score first.'),
    total: z
      .int()
      .min(0)
      .describe('How many stores the readiness index holds (in the requested vertical), agent-ready or not: the list is the agent-ready top of this many.'),
  })
  .describe('The best verified agent-ready stores of the readiness index.');
export type AgentReadyStores = z.infer<typeof AgentReadyStores>;
