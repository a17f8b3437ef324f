// Every document MongoMonitoring sends to the server, as pure functions whose meaning is checked with mingo
// (test/db/mongo/monitoring-queries.test.ts). Caller values sit under $eq/$in/$literal only.
// A claim is one findOneAndUpdate whose filter requires the lease to be free: the server applies it to one document
// atomically, so of two instances racing for a row exactly one gets it.
import type { Document, Filter, IndexDescription, UpdateFilter } from 'mongodb';
import type { DeliveryNext, NewDelivery, ScanEventRow } from '../monitoring-repo.js';
import type { ScanDoc, SortSpec } from './queries.js';

export const FREE = new Date(0); // leaseUntil of a row nobody holds

export interface ClaimDoc {
  _id: string; // accountId \0 host
  accountId: string;
  host: string;
  origin: string;
  token: string;
  createdAt: Date;
  verifiedAt: Date | null;
  method: string | null;
  checkedAt?: Date | null; // the last check of the token; absent before the first re-check
}

export interface MonitorDoc {
  _id: string;
  accountId: string;
  host: string;
  origin: string;
  cadence: string;
  nextRunAt: Date;
  leaseUntil: Date;
  leaseToken: string | null;
  createdAt: Date;
  lastRunAt: Date | null;
  lastOutcome: string | null;
  lastScanId: number | null;
}

export interface MonitorSlotsDoc {
  _id: string; // accountId
  n: number;
}

export interface EndpointDoc {
  _id: string;
  accountId: string;
  url: string;
  events: string[];
  secretEnc: string;
  previousSecretEnc: string | null;
  previousSecretUntil: Date | null;
  createdAt: Date;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
}

/** The outbox of a scan lives on the scan document itself: inserted with it, so in the same single-document write. */
export interface ScanOutbox {
  leaseUntil: Date;
  leaseToken: string | null;
}

export interface DeliveryDoc {
  _id: string;
  dedupeKey: string;
  endpointId: string;
  messageId: string;
  eventType: string;
  payload: string;
  nextAttemptAt: Date;
  createdAt: Date;
  attempts: number;
  state: string;
  leaseUntil: Date;
  leaseToken: string | null;
  expiresAt?: Date; // set once finished; a TTL index removes the row then
}

export interface AttemptDoc {
  endpointId: string;
  deliveryId: string;
  messageId: string;
  eventType: string;
  attempt: number;
  status: number | null;
  outcome: string;
  durationMs: number;
  at: Date;
  seq: number; // orders attempts of one instant
  expiresAt: Date;
}

export const FINISHED_DELIVERY_TTL_MS = 30 * 86_400_000;
export const ATTEMPT_TTL_MS = 90 * 86_400_000;

export const MONITORING_INDEXES: Record<
  'ownership_claims' | 'monitors' | 'webhook_endpoints' | 'webhook_deliveries' | 'webhook_attempts' | 'scans',
  IndexDescription[]
> = {
  ownership_claims: [
    { key: { host: 1, verifiedAt: 1 }, name: 'host_verified' },
    { key: { accountId: 1, createdAt: 1 }, name: 'account' },
  ],
  monitors: [
    { key: { accountId: 1, host: 1 }, name: 'account_host', unique: true },
    { key: { nextRunAt: 1 }, name: 'due' },
  ],
  webhook_endpoints: [{ key: { accountId: 1, createdAt: 1 }, name: 'account' }],
  webhook_deliveries: [
    { key: { dedupeKey: 1 }, name: 'dedupe', unique: true },
    { key: { nextAttemptAt: 1 }, name: 'due', partialFilterExpression: { state: 'pending' } },
    { key: { leaseUntil: 1, endpointId: 1 }, name: 'in_flight', partialFilterExpression: { state: 'pending' } },
    { key: { expiresAt: 1 }, name: 'ttl', expireAfterSeconds: 0 },
  ],
  webhook_attempts: [
    { key: { endpointId: 1, at: -1, seq: -1 }, name: 'endpoint_newest' },
    { key: { expiresAt: 1 }, name: 'ttl', expireAfterSeconds: 0 },
  ],
  scans: [{ key: { 'outbox.leaseUntil': 1, _id: 1 }, name: 'outbox', partialFilterExpression: { outbox: { $exists: true } } }],
};

export const NEWEST_SCAN_SORT: SortSpec = { createdAt: -1, _id: -1 };
export const HISTORY_PROJECTION = { report: 0 } as const;

export function claimId(accountId: string, host: string): string {
  return `${accountId}\u0000${host}`;
}

/** A host's public history: scans of its entry point only (a scan of another page is not the store's score). */
export function scanHistoryFilter(host: string): Filter<ScanDoc> {
  return { host: { $eq: host }, publicEntry: { $ne: false } };
}

/** The host's entry-point scans strictly before (createdAt, id). */
export function scansBefore(host: string, createdAt: Date, id: number): Filter<ScanDoc> {
  return {
    host: { $eq: host },
    publicEntry: { $ne: false },
    $or: [{ createdAt: { $lt: createdAt } }, { createdAt: { $eq: createdAt }, _id: { $lt: id } }],
  };
}

/** The outbox field a scan document is inserted with when its events are wanted. */
export function scanOutboxField(events: boolean | undefined): { outbox?: ScanOutbox } {
  return events ? { outbox: { leaseUntil: FREE, leaseToken: null } } : {};
}

export function claimByAccountHost(accountId: string, host: string): Filter<ClaimDoc> {
  return { _id: { $eq: claimId(accountId, host) } };
}

export function claimsOfAccount(accountId: string): Filter<ClaimDoc> {
  return { accountId: { $eq: accountId } };
}

/** Inserts the claim only when absent: an existing claim (and its token) is left as it is. */
export function claimInsertOnce(doc: ClaimDoc): UpdateFilter<ClaimDoc> {
  const { _id, ...rest } = doc;
  return { $setOnInsert: rest };
}

// A claim verified before keeps its first date and method.
export function claimVerify(at: Date, method: string): Document[] {
  return [
    {
      $set: {
        verifiedAt: { $ifNull: ['$verifiedAt', { $literal: at }] },
        method: { $ifNull: ['$method', { $literal: method }] },
        checkedAt: { $literal: at },
      },
    },
  ];
}

export const CLAIM_UNVERIFY: UpdateFilter<ClaimDoc> = { $set: { verifiedAt: null, method: null } };

export function verifiedClaimsOfHost(host: string): Filter<ClaimDoc> {
  return { host: { $eq: host }, verifiedAt: { $ne: null } };
}

export const VERIFIED_SORT: SortSpec = { verifiedAt: 1, accountId: 1 };

/** Verified claims whose last check (their verification, before any re-check) is at or before `before`. */
export function claimsDueRecheck(before: Date): Filter<ClaimDoc> {
  return {
    verifiedAt: { $ne: null },
    $or: [{ checkedAt: { $lte: before } }, { checkedAt: null, verifiedAt: { $lte: before } }],
  };
}

// A claim never re-checked sorts first (a missing checkedAt sorts before any date), then the longest unchecked.
export const RECHECK_SORT: SortSpec = { checkedAt: 1, verifiedAt: 1, accountId: 1, host: 1 };

/** Takes one of the account's monitor slots; misses (and so, upserting, collides) when all `max` are taken. */
export function monitorSlotFilter(accountId: string, max: number): Filter<MonitorSlotsDoc> {
  return { _id: { $eq: accountId }, n: { $lt: max } };
}

export function monitorSlotChange(by: 1 | -1): UpdateFilter<MonitorSlotsDoc> {
  return { $inc: { n: by } };
}

export function monitorOfAccount(accountId: string, id: string): Filter<MonitorDoc> {
  return { _id: { $eq: id }, accountId: { $eq: accountId } };
}

/** Due and not leased (a lease that ran out is free again). */
export function dueMonitorFilter(now: Date): Filter<MonitorDoc> {
  return { nextRunAt: { $lte: now }, leaseUntil: { $lte: now } };
}

export const DUE_MONITOR_SORT: SortSpec = { nextRunAt: 1, _id: 1 };

export function takeLease(until: Date, token: string): UpdateFilter<{ leaseUntil: Date; leaseToken: string | null }> {
  return { $set: { leaseUntil: until, leaseToken: token } };
}

export function heldLease(id: string, token: string): Filter<{ _id: string; leaseToken: string | null }> {
  return { _id: { $eq: id }, leaseToken: { $eq: token } };
}

export function finishMonitor(done: { nextRunAt: Date; at: Date; outcome: string; scanId: number | null }): Document[] {
  return [
    {
      $set: {
        nextRunAt: { $literal: done.nextRunAt },
        lastRunAt: { $literal: done.at },
        lastOutcome: { $literal: done.outcome },
        lastScanId: done.scanId === null ? '$lastScanId' : { $literal: done.scanId },
        leaseUntil: { $literal: FREE },
        leaseToken: null,
      },
    },
  ];
}

export function endpointsOfAccounts(accountIds: string[]): Filter<EndpointDoc> {
  return { accountId: { $in: accountIds.filter((a) => typeof a === 'string') }, disabledAt: { $eq: null } };
}

/** Scans with an outbox whose lease is free. */
export function dueScanEventFilter(now: Date): Filter<ScanDoc & { outbox?: ScanOutbox }> {
  return { 'outbox.leaseUntil': { $lte: now } };
}

export const DUE_SCAN_EVENT_SORT: SortSpec = { 'outbox.leaseUntil': 1, _id: 1 };

export function takeScanEventLease(until: Date, token: string): UpdateFilter<ScanDoc & { outbox?: ScanOutbox }> {
  return { $set: { 'outbox.leaseUntil': until, 'outbox.leaseToken': token } };
}

export function heldScanEvent(scanId: number, token: string): Filter<ScanDoc & { outbox?: ScanOutbox }> {
  return { _id: { $eq: scanId }, 'outbox.leaseToken': { $eq: token } };
}

export const CLEAR_OUTBOX: UpdateFilter<ScanDoc & { outbox?: ScanOutbox }> = { $unset: { outbox: '' } };

export function toScanEventRow(doc: Pick<ScanDoc, '_id' | 'host' | 'createdAt'>): ScanEventRow {
  return { scanId: doc._id, host: doc.host, createdAt: doc.createdAt };
}

export function deliveryToDoc(d: NewDelivery): DeliveryDoc {
  return { _id: d.id, ...omitId(d), attempts: 0, state: 'pending', leaseUntil: FREE, leaseToken: null };
}

function omitId(d: NewDelivery): Omit<NewDelivery, 'id'> {
  const { id: _id, ...rest } = d;
  return rest;
}

export function deliveryByDedupeKey(dedupeKey: string): Filter<DeliveryDoc> {
  return { dedupeKey: { $eq: dedupeKey } };
}

/** Inserts the delivery only when its dedupe key is new (with upsert: the filter seeds dedupeKey). */
export function deliveryInsertOnce(d: NewDelivery): UpdateFilter<DeliveryDoc> {
  const { dedupeKey: _key, ...rest } = deliveryToDoc(d);
  return { $setOnInsert: rest };
}

export function dueDeliveryFilter(now: Date): Filter<DeliveryDoc> {
  return { state: { $eq: 'pending' }, nextAttemptAt: { $lte: now }, leaseUntil: { $lte: now } };
}

export const DUE_DELIVERY_SORT: SortSpec = { nextAttemptAt: 1, _id: 1 };

/** Deliveries being sent now: pending under a live lease. */
export function deliveriesInFlight(now: Date): Filter<DeliveryDoc> {
  return { state: { $eq: 'pending' }, leaseUntil: { $gt: now } };
}

/** Due deliveries of endpoints other than these (those with one in flight, those of accounts at their cap). */
export function dueDeliveryElsewhere(now: Date, busyEndpoints: string[]): Filter<DeliveryDoc> {
  return { ...dueDeliveryFilter(now), endpointId: { $nin: busyEndpoints } };
}

/** Another delivery of the endpoint in flight besides this one. */
export function rivalInFlight(now: Date, endpointId: string, id: string): Filter<DeliveryDoc> {
  return { ...deliveriesInFlight(now), endpointId: { $eq: endpointId }, _id: { $ne: id } };
}

export function releaseLease(): UpdateFilter<DeliveryDoc> {
  return { $set: { leaseUntil: FREE, leaseToken: null } };
}

export function postponeDelivery(until: Date): UpdateFilter<DeliveryDoc> {
  return { $set: { nextAttemptAt: until, leaseUntil: FREE, leaseToken: null } };
}

export function moveDelivery(next: DeliveryNext, at: Date): UpdateFilter<DeliveryDoc> {
  const set: Partial<DeliveryDoc> = { state: next.state, leaseUntil: FREE, leaseToken: null };
  if (next.state === 'pending') set.nextAttemptAt = next.nextAttemptAt;
  else set.expiresAt = new Date(at.getTime() + FINISHED_DELIVERY_TTL_MS);
  return { $inc: { attempts: 1 }, $set: set };
}

export function attemptsOfEndpoint(endpointId: string): Filter<AttemptDoc> {
  return { endpointId: { $eq: endpointId } };
}

export const NEWEST_ATTEMPT_SORT: SortSpec = { at: -1, seq: -1 };

/** The endpoint's attempts at or older than `oldestKept`'s position, which the pruning removes. */
export function attemptsNotNewerThan(endpointId: string, at: Date, seq: number): Filter<AttemptDoc> {
  return { endpointId: { $eq: endpointId }, $or: [{ at: { $lt: at } }, { at: { $eq: at }, seq: { $lte: seq } }] };
}
