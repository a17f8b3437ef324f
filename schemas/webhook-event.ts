// The webhook format: event types and the JSON body {type, timestamp, data} every delivery carries. The worker
// builds bodies of this shape (monitoring/events.ts); /webhooks.md documents it from the same list.
import { z } from 'zod';
import { Grade } from './scan-result.js';

export const EVENT_TYPES = ['scan.completed', 'score.changed', 'grade.changed', 'check.regressed', 'agent_ready.changed', 'audit.completed', 'agents.changed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Sent by "Send test event", whatever events the endpoint picked. */
export const TEST_EVENT_TYPE = 'webhook.test';

export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  'scan.completed': 'Every scan of the host, by anyone (a monitor, the owner, an agent), once it is stored.',
  'score.changed': 'The score differs from the scan before.',
  'grade.changed': 'The grade differs from the scan before.',
  'check.regressed': 'At least one check moved down from pass or partial (to partial, fail, or gone).',
  'agent_ready.changed': 'The store became agent-ready, or stopped being agent-ready.',
  'audit.completed': 'A deep audit the account started has finished (done or failed); its coverage per fact comes along.',
  'agents.changed': 'An AI agent now gets another answer than in the scan before: newly blocked or challenged (or let in again) on the home or product page.',
};

const Status = z.enum(['pass', 'partial', 'fail']);

export const ChangedCheck = z.object({
  id: z.string(),
  label: z.string(),
  pillar: z.string(),
  from: Status.nullable().describe('Status in the scan before; null when the check is new.'),
  to: Status.nullable().describe('Status now; null when the check is gone.'),
  points_from: z.number().nullable(),
  points_to: z.number().nullable(),
  max: z.number(),
  regressed: z.boolean().describe('Moved down from pass or partial.'),
});

export const ScanEventData = z.object({
  host: z.string(),
  scan_id: z.int().min(1),
  report_url: z.url(),
  scanned_at: z.iso.datetime(),
  score: z.number(),
  grade: Grade,
  agent_ready: z.boolean(),
  previous_scan_id: z.int().nullable(),
  previous_score: z.number().nullable(),
  previous_grade: Grade.nullable(),
  previous_agent_ready: z.boolean().nullable(),
  changed_checks: z.array(ChangedCheck),
  agents_changed: z
    .array(
      z.object({
        agent: z.string().describe('The agent, e.g. "ChatGPT-User".'),
        page: z.enum(['home', 'product']),
        from: z.string().describe('What it got in the scan before: served, blocked, challenged, rate_limited, degraded or failed.'),
        to: z.string().describe('What it gets now.'),
      }),
    )
    .describe('Pages whose answer changed for an AI agent; empty when nothing changed or a scan had no agents matrix.'),
});

export const WebhookBody = z.object({
  type: z.enum([...EVENT_TYPES, TEST_EVENT_TYPE]),
  timestamp: z.iso.datetime(),
  data: z.record(z.string(), z.unknown()),
});
