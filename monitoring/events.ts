// The webhook events one scan causes, computed from the scan and the host's scan before it. Every event of a scan
// carries the same data; its type says which change it announces. Message ids are derived from the scan and the
// type, so computing them twice (a fan-out retried after a crash) gives the same webhook-id.
import type { ScanRecord } from '../db/repo.js';
import { EVENT_TYPES, TEST_EVENT_TYPE, type EventType } from '../schemas/webhook-event.js';
import { diffReports, isRegression, type CheckChange } from './history.js';
import { agentChanges, type AgentChange } from './agent-changes.js';

export { EVENT_TYPES, TEST_EVENT_TYPE, type EventType };

/** Body sizes stay far below the 20 KB receivers are told to expect: a scan has about 40 checks. */
const MAX_CHANGED_CHECKS = 60;

export interface ScanEventData {
  host: string;
  scan_id: number;
  report_url: string;
  scanned_at: string;
  score: number;
  grade: string;
  agent_ready: boolean;
  previous_scan_id: number | null;
  previous_score: number | null;
  previous_grade: string | null;
  previous_agent_ready: boolean | null;
  changed_checks: (CheckChange & { regressed: boolean })[];
  /** Pages whose answer changed for an AI agent (the agents matrix), e.g. ChatGPT-User newly blocked. */
  agents_changed: AgentChange[];
}

export interface WebhookEvent {
  messageId: string;
  type: EventType | typeof TEST_EVENT_TYPE;
  /** The JSON body: {type, timestamp, data}. */
  body: string;
}

export const messageIdFor = (scanId: number, type: EventType): string => `msg_scan${scanId}_${type.replace('.', '_')}`;

export function bodyOf(type: string, timestamp: Date, data: object): string {
  return JSON.stringify({ type, timestamp: timestamp.toISOString(), data });
}

export function eventsForScan(scan: ScanRecord, previous: ScanRecord | null, reportUrl: string): WebhookEvent[] {
  const diff = previous ? diffReports(previous.report, scan.report) : null;
  const changed = (diff?.changed_checks ?? []).map((c) => ({ ...c, regressed: isRegression(c) }));
  const data: ScanEventData = {
    host: scan.host,
    scan_id: scan.id,
    report_url: reportUrl,
    scanned_at: scan.createdAt.toISOString(),
    score: scan.score,
    grade: scan.grade,
    agent_ready: scan.agentReady,
    previous_scan_id: previous?.id ?? null,
    previous_score: previous?.score ?? null,
    previous_grade: previous?.grade ?? null,
    previous_agent_ready: previous?.agentReady ?? null,
    changed_checks: changed.slice(0, MAX_CHANGED_CHECKS),
    agents_changed: previous ? agentChanges(previous.report, scan.report) : [],
  };
  const types: EventType[] = ['scan.completed'];
  if (previous) {
    if (previous.score !== scan.score) types.push('score.changed');
    if (previous.grade !== scan.grade) types.push('grade.changed');
    if (changed.some((c) => c.regressed)) types.push('check.regressed');
    if (previous.agentReady !== scan.agentReady) types.push('agent_ready.changed');
    if (data.agents_changed.length > 0) types.push('agents.changed');
  }
  return types.map((type) => ({ messageId: messageIdFor(scan.id, type), type, body: bodyOf(type, scan.createdAt, data) }));
}
