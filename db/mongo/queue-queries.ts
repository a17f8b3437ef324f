// Every document MongoQueue and MongoAudits send to the server, as pure functions whose meaning is checked with mingo
// (test/db/mongo/queue-queries.test.ts). Caller values sit under $eq/$in/$literal only.
// A polite claim is two findOneAndUpdate calls, each atomic on its document: the host's turn first (its pace
// document, free and due), then one queued item of that host. An item found gone gives the turn back unchanged.
import type { Document, Filter, IndexDescription, UpdateFilter } from 'mongodb';
import type { NewWork } from '../queue-repo.js';
import type { AuditRecord } from '../audit-repo.js';
import type { SortSpec } from './queries.js';

export const FREE = new Date(0);

export interface WorkDoc {
  _id: string;
  kind: string;
  group: string;
  host: string;
  url: string;
  seq: number;
  createdAt: Date;
  state: 'queued' | 'done' | 'failed';
  attempts: number;
  leaseUntil: Date;
  leaseToken: string | null;
  doneAt: Date | null;
  result: string | null;
}

export interface PaceDoc {
  _id: string; // the host identity, or a shared rate's key
  nextAt: Date;
  leaseUntil: Date;
  leaseToken: string | null;
}

export interface AuditDoc extends Omit<AuditRecord, 'id'> {
  _id: string;
  leaseUntil: Date;
  leaseToken: string | null;
  /** accountId \0 host while the audit is queued or running: a unique index allows one in progress per account and host. */
  activeKey?: string;
}

export const QUEUE_INDEXES: Record<'work_items' | 'host_pace' | 'audits', IndexDescription[]> = {
  work_items: [
    { key: { group: 1, url: 1 }, name: 'group_url', unique: true },
    // The claim's item step and the hosts with queued work of a kind (a DISTINCT_SCAN on kind, state, host).
    { key: { kind: 1, state: 1, host: 1, seq: 1 }, name: 'claim' },
    { key: { group: 1, seq: 1 }, name: 'group_seq' },
    { key: { group: 1, state: 1, doneAt: 1 }, name: 'group_finished' },
  ],
  host_pace: [{ key: { nextAt: 1 }, name: 'due' }],
  audits: [
    { key: { accountId: 1, createdAt: -1 }, name: 'account' },
    { key: { accountId: 1, host: 1, createdAt: -1 }, name: 'account_host' },
    { key: { activeKey: 1 }, name: 'active', unique: true, partialFilterExpression: { activeKey: { $exists: true } } },
    { key: { status: 1, createdAt: 1 }, name: 'status' },
  ],
};

export function workToDoc(w: NewWork): WorkDoc {
  const { id, ...rest } = w;
  return { _id: id, ...rest, state: 'queued', attempts: 0, leaseUntil: FREE, leaseToken: null, doneAt: null, result: null };
}

/** Inserts the item only when its (group, url) is new (with upsert: the filter seeds group and url). */
export function workByGroupUrl(group: string, url: string): Filter<WorkDoc> {
  return { group: { $eq: group }, url: { $eq: url } };
}

export function workInsertOnce(w: NewWork): UpdateFilter<WorkDoc> {
  const { group: _g, url: _u, ...rest } = workToDoc(w);
  return { $setOnInsert: rest };
}

/** Seeds the host's pace document once: due now, nobody holding it. */
export function paceById(key: string): Filter<PaceDoc> {
  return { _id: { $eq: key } };
}

export const PACE_INSERT_ONCE: UpdateFilter<PaceDoc> = { $setOnInsert: { nextAt: FREE, leaseUntil: FREE, leaseToken: null } };

/** Queued items of a kind whose lease is free (the hosts with claimable work are their distinct hosts). */
export function claimableWork(kind: string, now: Date): Filter<WorkDoc> {
  return { kind: { $eq: kind }, state: { $eq: 'queued' }, leaseUntil: { $lte: now } };
}

export function queuedOfKind(kind: string): Filter<WorkDoc> {
  return { kind: { $eq: kind }, state: { $eq: 'queued' } };
}

export function claimableOfHost(kind: string, host: string, now: Date): Filter<WorkDoc> {
  return { ...claimableWork(kind, now), host: { $eq: host } };
}

export const ITEM_SORT: SortSpec = { seq: 1, _id: 1 };

/** Free and due pace documents among these hosts, due longest first. */
export function freeHosts(hosts: string[], now: Date): Filter<PaceDoc> {
  return { _id: { $in: hosts.filter((h) => typeof h === 'string') }, nextAt: { $lte: now }, leaseUntil: { $lte: now } };
}

export function pacesOf(hosts: string[]): Filter<PaceDoc> {
  return { _id: { $in: hosts.filter((h) => typeof h === 'string') } };
}

export const PACE_SORT: SortSpec = { nextAt: 1, _id: 1 };

export function freeHost(host: string, now: Date): Filter<PaceDoc> {
  return { _id: { $eq: host }, nextAt: { $lte: now }, leaseUntil: { $lte: now } };
}

export function lease(until: Date, token: string): UpdateFilter<{ leaseUntil: Date; leaseToken: string | null }> {
  return { $set: { leaseUntil: until, leaseToken: token } };
}

export function leaseItem(until: Date, token: string): UpdateFilter<WorkDoc> {
  return { $set: { leaseUntil: until, leaseToken: token }, $inc: { attempts: 1 } };
}

/** A shared rate's slot, taken when due: its next instant moves on by the interval. */
export function rateDue(key: string, now: Date): Filter<PaceDoc> {
  return { _id: { $eq: key }, nextAt: { $lte: now } };
}

export function rateNext(next: Date): UpdateFilter<PaceDoc> {
  return { $set: { nextAt: next } };
}

/** Gives a rate slot back when nothing was claimed with it (only if nobody moved it since). */
export function rateTakenAt(key: string, next: Date): Filter<PaceDoc> {
  return { _id: { $eq: key }, nextAt: { $eq: next } };
}

export function heldItem(id: string, token: string): Filter<WorkDoc> {
  return { _id: { $eq: id }, leaseToken: { $eq: token }, state: { $eq: 'queued' } };
}

export function heldHost(host: string, token: string): Filter<PaceDoc> {
  return { _id: { $eq: host }, leaseToken: { $eq: token } };
}

export function finishItem(state: 'done' | 'failed', result: string | null, at: Date): UpdateFilter<WorkDoc> {
  return { $set: { state, result, doneAt: at, leaseUntil: FREE, leaseToken: null } };
}

export const RETURN_ITEM: UpdateFilter<WorkDoc> = { $set: { leaseUntil: FREE, leaseToken: null } };

/** The turn goes back with the next instant the host may be asked; a later pause set meanwhile stays. */
export function releaseHost(next: Date): Document[] {
  return [{ $set: { leaseUntil: { $literal: FREE }, leaseToken: null, nextAt: { $max: ['$nextAt', { $literal: next }] } } }];
}

/** Gives back a host turn taken for an item that turned out gone, as it was (its next instant untouched). */
export const RETURN_HOST: UpdateFilter<PaceDoc> = { $set: { leaseUntil: FREE, leaseToken: null } };

export function renewLease(until: Date): UpdateFilter<{ leaseUntil: Date }> {
  return { $set: { leaseUntil: until } };
}

export function groupCounts(group: string, since: Date): Document[] {
  return [
    { $match: { group: { $eq: group } } },
    {
      $group: {
        _id: null,
        queued: { $sum: { $cond: [{ $eq: ['$state', 'queued'] }, 1, 0] } },
        done: { $sum: { $cond: [{ $eq: ['$state', 'done'] }, 1, 0] } },
        failed: { $sum: { $cond: [{ $eq: ['$state', 'failed'] }, 1, 0] } },
        finishedSince: { $sum: { $cond: [{ $and: [{ $ne: ['$state', 'queued'] }, { $gte: ['$doneAt', { $literal: since }] }] }, 1, 0] } },
      },
    },
  ];
}

export function groupAfter(group: string, afterSeq: number): Filter<WorkDoc> {
  return { group: { $eq: group }, seq: { $gt: afterSeq } };
}

export const RESULT_PROJECTION = { seq: 1, url: 1, state: 1, result: 1, doneAt: 1 } as const;

export function finishedBefore(group: string, before: Date): Filter<WorkDoc> {
  return { group: { $eq: group }, state: { $in: ['done', 'failed'] }, doneAt: { $lte: before } };
}

export const REQUEUE: UpdateFilter<WorkDoc> = { $set: { state: 'queued', attempts: 0, result: null, doneAt: null } };

// --- audits

export const activeKeyOf = (accountId: string, host: string): string => `${accountId}\u0000${host}`;

export function auditToDoc(a: AuditRecord): AuditDoc {
  const { id, ...rest } = a;
  return { _id: id, ...rest, leaseUntil: FREE, leaseToken: null, activeKey: activeKeyOf(a.accountId, a.host) };
}

export function auditById(id: string): Filter<AuditDoc> {
  return { _id: { $eq: id } };
}

export function activeAudits(accountId: string): Filter<AuditDoc> {
  return { accountId: { $eq: accountId }, status: { $in: ['queued', 'running'] } };
}

export function activeAuditOfHost(accountId: string, host: string): Filter<AuditDoc> {
  return { activeKey: { $eq: activeKeyOf(accountId, host) } };
}

export function auditsOfAccount(accountId: string): Filter<AuditDoc> {
  return { accountId: { $eq: accountId } };
}

export const NEWEST_AUDIT_SORT: SortSpec = { createdAt: -1, _id: 1 };

export function previousAudit(accountId: string, host: string, before: Date): Filter<AuditDoc> {
  return { accountId: { $eq: accountId }, host: { $eq: host }, status: { $eq: 'done' }, createdAt: { $lt: before } };
}

export function markPlanned(plan: { discovered: number; planned: number; delayMs: number }): UpdateFilter<AuditDoc> {
  return { $set: { status: 'running', discovered: plan.discovered, planned: plan.planned, delayMs: plan.delayMs } };
}

export function queuedAudit(id: string): Filter<AuditDoc> {
  return { _id: { $eq: id }, status: { $eq: 'queued' } };
}

export const IN_PROGRESS: Filter<AuditDoc> = { status: { $in: ['queued', 'running'] } };
export const OLDEST_AUDIT_SORT: SortSpec = { createdAt: 1, _id: 1 };

export function finishableAudit(id: string, now: Date): Filter<AuditDoc> {
  return { _id: { $eq: id }, status: { $eq: 'running' }, leaseUntil: { $lte: now } };
}

/** The audit ends only from its plan step (queued, no token) or from the holder of its finishing lease. */
export function endableAudit(id: string, token: string | null): Filter<AuditDoc> {
  return token === null
    ? { _id: { $eq: id }, status: { $eq: 'queued' } }
    : { _id: { $eq: id }, status: { $eq: 'running' }, leaseToken: { $eq: token } };
}

export function endAudit(end: { status: 'done' | 'failed'; at: Date; result: string | null; error: string | null }): UpdateFilter<AuditDoc> {
  return {
    $set: { status: end.status, finishedAt: end.at, result: end.result, error: end.error, leaseUntil: FREE, leaseToken: null },
    $unset: { activeKey: '' },
  };
}
