// The audit.completed webhook event: sent to the endpoints of the account that started the audit which picked it,
// once, whichever instance finishes the audit (the delivery's dedupe key is the endpoint and the audit).
import { randomUUID } from 'node:crypto';
import type { Repository } from '../../db/repo.js';
import type { AuditRecord } from '../../db/audit-repo.js';
import type { NewDelivery } from '../../db/monitoring-repo.js';
import { bodyOf } from '../../monitoring/events.js';
import type { AuditResult } from '../../schemas/deep-audit.js';
import { auditApiPath } from './read.js';

export async function queueAuditCompleted(db: Repository, audit: AuditRecord, end: { status: 'done' | 'failed'; result: AuditResult | null; error: string | null; at: Date }, baseUrl: string): Promise<void> {
  const endpoints = (await db.monitoring.listEndpoints(audit.accountId)).filter((e) => !e.disabledAt && e.events.includes('audit.completed'));
  if (endpoints.length === 0) return;
  const messageId = `msg_${audit.id}_completed`;
  const body = bodyOf('audit.completed', end.at, {
    audit_id: audit.id,
    audit_url: `${baseUrl}${auditApiPath(audit.id)}`,
    host: audit.host,
    url: audit.url,
    status: end.status,
    error: end.error,
    pages_found: end.result?.pages_found ?? null,
    pages_audited: end.result?.pages_audited ?? null,
    coverage: Object.fromEntries((end.result?.coverage ?? []).map((c) => [c.fact, c.percent])),
    findings: end.result?.findings.length ?? null,
  });
  for (const endpoint of endpoints) {
    const delivery: NewDelivery = {
      id: randomUUID(),
      dedupeKey: `${endpoint.id}:${messageId}`,
      endpointId: endpoint.id,
      messageId,
      eventType: 'audit.completed',
      payload: body,
      nextAttemptAt: end.at,
      createdAt: end.at,
    };
    await db.monitoring.addDelivery(delivery);
  }
}
