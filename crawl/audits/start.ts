// Starting a deep audit: the record, then its plan as the first work item of the store's host (the plan's requests
// take the host's turn like the pages after them). The audit id is 128 random bits: it is the key to read the audit.
import { randomBytes } from 'node:crypto';
import type { Repository } from '../../db/repo.js';
import { AUDITS_IN_PROGRESS_PER_ACCOUNT, type AuditRecord } from '../../db/audit-repo.js';
import type { NewWork } from '../../db/queue-repo.js';
import { hostIdentity } from '../../lib/hosts.js';

/** Items of one audit are ordered after every item queued before it: seconds since the epoch, room for the pages. */
export const seqBase = (at: Date): number => Math.floor(at.getTime() / 1000) * 100_000;

export const newAuditId = (): string => `aud_${randomBytes(16).toString('base64url')}`;

/** The plan's work item: one per audit, in a group of its own so that the audit's group holds its pages only. */
export function planItem(audit: AuditRecord): NewWork {
  return { id: `${audit.id}:plan`, kind: 'audit_plan', group: `plan:${audit.id}`, host: audit.host, url: audit.url, seq: seqBase(audit.createdAt), createdAt: audit.createdAt };
}

export type StartOutcome = { started: AuditRecord } | { running: string } | { limit: number };

export async function startAudit(db: Repository, req: { accountId: string; root: URL; maxPages: number; delayMs: number; now: Date }): Promise<StartOutcome> {
  const audit: AuditRecord = {
    id: newAuditId(),
    accountId: req.accountId,
    host: hostIdentity(req.root),
    url: req.root.href,
    maxPages: req.maxPages,
    status: 'queued',
    createdAt: req.now,
    discovered: null,
    planned: null,
    delayMs: req.delayMs,
    finishedAt: null,
    error: null,
    result: null,
  };
  const created = await db.audits.createAudit(audit, AUDITS_IN_PROGRESS_PER_ACCOUNT);
  if (!created.created) return 'running' in created ? { running: created.running } : { limit: AUDITS_IN_PROGRESS_PER_ACCOUNT };
  await db.queue.enqueue([planItem(audit)]); // lost in a crash: the worker's sweep queues it again
  return { started: audit };
}
