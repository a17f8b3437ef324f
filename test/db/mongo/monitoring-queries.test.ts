// What the MongoDB documents of db/mongo/monitoring-queries.ts mean, run through mingo since no MongoDB server
// can run here: claims (a findOneAndUpdate is its filter + sort + limit 1, then its update), leases, the monitor
// cap, outbox rows on scan documents, delivery moves and attempt pruning.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Query, updateOne } from 'mingo';
import type { AnyObject } from 'mingo/types';
import * as M from '../../../db/mongo/monitoring-queries.js';
import type { SortSpec } from '../../../db/mongo/queries.js';

type Docs = AnyObject[];

function find(docs: object[], filter: unknown, sort?: SortSpec, limit?: number): AnyObject[] {
  let cursor = new Query(filter as AnyObject).find<AnyObject>(docs);
  if (sort) cursor = cursor.sort(sort);
  if (limit !== undefined) cursor = cursor.limit(limit);
  return cursor.all();
}

/** findOneAndUpdate as the server runs it: the first match in sort order, updated; null when none matches. */
function findOneAndUpdate(docs: Docs, filter: unknown, update: unknown, sort: SortSpec): AnyObject | null {
  const [first] = find(docs, filter, sort, 1);
  if (!first) return null;
  updateOne(docs, { _id: first._id }, update as never);
  return docs.find((d) => d._id === first._id)!;
}

/**
 * An upsert as the server does it: the filter's _id equality seeds the new document when nothing matches, and
 * $setOnInsert (which mingo does not know) applies only then.
 */
function upsert(docs: Docs, filter: unknown, update: AnyObject): void {
  const { $setOnInsert, ...rest } = update as { $setOnInsert?: AnyObject };
  if (find(docs, filter).length > 0) {
    if (Object.keys(rest).length > 0) updateOne(docs, filter as AnyObject, rest as never);
    return;
  }
  // The server seeds the new document with the filter's equality fields.
  const seed: AnyObject = Object.fromEntries(Object.entries(filter as Record<string, { $eq: unknown }>).map(([k, v]) => [k, v.$eq]));
  // An _id in $setOnInsert becomes the new document's _id (mingo refuses to $set _id, so it is seeded here).
  const { _id: insertId, ...onInsert } = ($setOnInsert ?? {}) as AnyObject;
  docs.push({ ...(insertId === undefined ? {} : { _id: insertId }), ...seed });
  updateOne(docs, filter as AnyObject, { ...rest, $set: onInsert } as never);
}

const t = (minutes: number) => new Date(Date.parse('2025-03-01T12:00:00Z') + minutes * 60_000);

describe('mongo monitoring queries (mingo)', () => {
  it('history reads one host\'s entry-point scans newest first; scansBefore finds the entry-point scan just before, ties by id', () => {
    const scans = [
      { _id: 1, host: 'h', createdAt: t(1) },
      { _id: 2, host: 'h', createdAt: t(2) },
      { _id: 3, host: 'h', createdAt: t(2) },
      { _id: 4, host: 'x', createdAt: t(3) },
      { _id: 5, host: 'h', createdAt: t(4) },
      { _id: 6, host: 'h', createdAt: t(5), publicEntry: false },
      { _id: 7, host: 'h', createdAt: t(6), publicEntry: true },
    ];
    assert.deepEqual(find(scans, M.scanHistoryFilter('h'), M.NEWEST_SCAN_SORT).map((d) => d._id), [7, 5, 3, 2, 1]);
    assert.deepEqual(find(scans, M.scansBefore('h', t(2), 3), M.NEWEST_SCAN_SORT, 1).map((d) => d._id), [2]);
    assert.deepEqual(find(scans, M.scansBefore('h', t(6), 7), M.NEWEST_SCAN_SORT, 1).map((d) => d._id), [5]);
    assert.deepEqual(find(scans, M.scansBefore('h', t(1), 1), M.NEWEST_SCAN_SORT, 1), []);
    assert.deepEqual(find(scans, M.scanHistoryFilter('{"$gt":""}')), []);
  });

  it('a claim is inserted once and verification keeps the first date and method', () => {
    const docs: Docs = [];
    const claim = { _id: M.claimId('a', 'h'), accountId: 'a', host: 'h', origin: 'https://h', token: 't1', createdAt: t(0), verifiedAt: null, method: null };
    upsert(docs, M.claimByAccountHost('a', 'h'), M.claimInsertOnce(claim) as AnyObject);
    upsert(docs, M.claimByAccountHost('a', 'h'), M.claimInsertOnce({ ...claim, token: 't2' }) as AnyObject);
    assert.equal(docs.length, 1);
    assert.equal(docs[0].token, 't1');
    assert.equal(docs[0]._id, M.claimId('a', 'h'));
    assert.deepEqual(find(docs, M.verifiedClaimsOfHost('h')), []);
    updateOne(docs, M.claimByAccountHost('a', 'h') as AnyObject, M.claimVerify(t(5), 'file') as never);
    updateOne(docs, M.claimByAccountHost('a', 'h') as AnyObject, M.claimVerify(t(9), 'meta') as never);
    assert.deepEqual([docs[0].verifiedAt, docs[0].method], [t(5), 'file']);
    assert.equal(find(docs, M.verifiedClaimsOfHost('h')).length, 1);
    updateOne(docs, M.claimByAccountHost('a', 'h') as AnyObject, M.CLAIM_UNVERIFY as never);
    assert.deepEqual([docs[0].verifiedAt, docs[0].method, docs[0].token], [null, null, 't1']);
    assert.equal(find(docs, M.verifiedClaimsOfHost('h')).length, 0);
  });

  it('the monitor slot filter matches only below the cap, so an upsert past it collides on _id', () => {
    const slots: Docs = [{ _id: 'acct', n: 9 }];
    assert.equal(find(slots, M.monitorSlotFilter('acct', 10)).length, 1);
    updateOne(slots, M.monitorSlotFilter('acct', 10) as AnyObject, M.monitorSlotChange(1) as never);
    assert.equal(slots[0].n, 10);
    assert.equal(find(slots, M.monitorSlotFilter('acct', 10)).length, 0, 'full: the upsert would insert _id acct again → E11000');
    assert.equal(find(slots, M.monitorSlotFilter('other', 10)).length, 0, 'a new account: the upsert inserts');
  });

  it('re-checks: verified claims whose last check (or verification) is old enough, never-checked first, each taken once', () => {
    const base = { host: 'h', origin: 'https://h', token: 'tok', createdAt: t(0), method: 'meta' };
    const docs: Docs = [
      { ...base, _id: 'a', accountId: 'a', verifiedAt: t(5) },
      { ...base, _id: 'b', accountId: 'b', verifiedAt: t(1), checkedAt: t(8) },
      { ...base, _id: 'c', accountId: 'c', verifiedAt: null },
      { ...base, _id: 'd', accountId: 'd', verifiedAt: t(2), checkedAt: t(50) },
    ];
    const take = (now: Date, before: Date) => findOneAndUpdate(docs, M.claimsDueRecheck(before), { $set: { checkedAt: now } }, M.RECHECK_SORT)?._id ?? null;
    assert.equal(take(t(100), t(4)), null);
    assert.deepEqual([take(t(100), t(10)), take(t(100), t(10)), take(t(100), t(10))], ['a', 'b', null]);
    assert.equal(take(t(200), t(60)), 'd');
    updateOne(docs, { _id: 'c' }, M.claimVerify(t(300), 'file') as never);
    assert.equal((docs.find((d) => d._id === 'c')!.checkedAt as Date).getTime(), t(300).getTime(), 'a verification is a check');
  });

  it('claims the most overdue free monitor; a held lease blocks; an expired one is free; finishing needs the token', () => {
    const base = { accountId: 'a', origin: 'https://h', cadence: 'daily', createdAt: t(0), lastRunAt: null, lastOutcome: null, lastScanId: 3, leaseToken: null };
    const docs: Docs = [
      { ...base, _id: 'm1', host: 'h1', nextRunAt: t(5), leaseUntil: M.FREE },
      { ...base, _id: 'm2', host: 'h2', nextRunAt: t(2), leaseUntil: M.FREE },
      { ...base, _id: 'm3', host: 'h3', nextRunAt: t(50), leaseUntil: M.FREE },
    ];
    const claim = (now: Date, token: string) => findOneAndUpdate(docs, M.dueMonitorFilter(now), M.takeLease(new Date(now.getTime() + 60_000), token), M.DUE_MONITOR_SORT);
    assert.equal(claim(t(1), 'x'), null);
    assert.equal(claim(t(10), 'a')?._id, 'm2');
    assert.equal(claim(t(10), 'b')?._id, 'm1');
    assert.equal(claim(t(10), 'c'), null);
    assert.equal(claim(t(12), 'd')?._id, 'm2', 'lease ran out');
    assert.equal(updateOne(docs, M.heldLease('m2', 'a') as AnyObject, M.finishMonitor({ nextRunAt: t(2000), at: t(10), outcome: 'scanned', scanId: null }) as never).matchedCount, 0);
    updateOne(docs, M.heldLease('m2', 'd') as AnyObject, M.finishMonitor({ nextRunAt: t(2000), at: t(12), outcome: 'skipped: quota', scanId: null }) as never);
    const m2 = docs.find((d) => d._id === 'm2')!;
    assert.deepEqual([m2.nextRunAt, m2.lastOutcome, m2.lastScanId, m2.leaseToken, m2.leaseUntil], [t(2000), 'skipped: quota', 3, null, M.FREE]);
  });

  it('the outbox lives on scan documents: claimed by lease, cleared only with the token', () => {
    const docs: Docs = [
      { _id: 1, host: 'a', createdAt: t(1), ...M.scanOutboxField(true) },
      { _id: 2, host: 'b', createdAt: t(2), ...M.scanOutboxField(undefined) },
      { _id: 3, host: 'c', createdAt: t(3), ...M.scanOutboxField(true) },
    ];
    const claim = (now: Date, token: string) =>
      findOneAndUpdate(docs, M.dueScanEventFilter(now), M.takeScanEventLease(new Date(now.getTime() + 60_000), token), M.DUE_SCAN_EVENT_SORT);
    assert.equal(claim(t(5), 'a')?._id, 1);
    assert.equal(claim(t(5), 'b')?._id, 3);
    assert.equal(claim(t(5), 'c'), null, 'scan 2 has no outbox; the others are leased');
    assert.equal(updateOne(docs, M.heldScanEvent(1, 'wrong') as AnyObject, M.CLEAR_OUTBOX as never).matchedCount, 0);
    updateOne(docs, M.heldScanEvent(1, 'a') as AnyObject, M.CLEAR_OUTBOX as never);
    assert.equal('outbox' in docs[0], false);
    assert.equal(claim(t(7), 'd')?._id, 3, 'an expired lease is taken again');
    assert.equal(claim(t(100), 'e')?._id, 3);
  });

  it('deliveries: due and free pending ones are claimed; a move counts the attempt and frees the lease', () => {
    const d = M.deliveryToDoc({ id: 'd1', dedupeKey: 'ep:m', endpointId: 'ep', messageId: 'm', eventType: 'scan.completed', payload: '{}', nextAttemptAt: t(5), createdAt: t(0) });
    const docs: Docs = [d as unknown as AnyObject];
    const claim = (now: Date, token: string) => findOneAndUpdate(docs, M.dueDeliveryFilter(now), M.takeLease(new Date(now.getTime() + 60_000), token), M.DUE_DELIVERY_SORT);
    assert.equal(claim(t(1), 'x'), null);
    assert.equal(claim(t(6), 'a')?._id, 'd1');
    assert.equal(claim(t(6), 'b'), null);
    updateOne(docs, M.heldLease('d1', 'a') as AnyObject, M.moveDelivery({ state: 'pending', nextAttemptAt: t(30) }, t(6)) as never);
    assert.deepEqual([docs[0].attempts, docs[0].state, docs[0].nextAttemptAt, docs[0].leaseToken], [1, 'pending', t(30), null]);
    assert.equal(claim(t(20), 'c'), null);
    assert.equal(claim(t(30), 'd')?._id, 'd1');
    updateOne(docs, M.heldLease('d1', 'd') as AnyObject, M.moveDelivery({ state: 'delivered' }, t(30)) as never);
    assert.deepEqual([docs[0].attempts, docs[0].state], [2, 'delivered']);
    assert.ok((docs[0].expiresAt as Date) > t(30), 'a finished delivery gets its TTL date');
    assert.equal(claim(t(100_000), 'e'), null);
  });

  it('a delivery upserted twice on its dedupe key is inserted once, whole, and never overwritten', () => {
    const docs: Docs = [];
    const d = { id: 'd1', dedupeKey: 'ep:m', endpointId: 'ep', messageId: 'm', eventType: 'scan.completed', payload: '{}', nextAttemptAt: t(5), createdAt: t(0) };
    upsert(docs, M.deliveryByDedupeKey('ep:m'), M.deliveryInsertOnce(d) as AnyObject);
    upsert(docs, M.deliveryByDedupeKey('ep:m'), M.deliveryInsertOnce({ ...d, id: 'd2', payload: '{"other":1}' }) as AnyObject);
    assert.equal(docs.length, 1);
    assert.deepEqual(docs[0], M.deliveryToDoc(d) as unknown as AnyObject);
    assert.equal(find(docs, M.dueDeliveryFilter(t(5))).length, 1);
  });

  it('attempt pruning removes the 101st newest and everything older, of that endpoint only', () => {
    const docs: Docs = [];
    for (let i = 0; i < 105; i++) docs.push({ endpointId: 'ep', at: t(i % 50), seq: i, _id: i });
    docs.push({ endpointId: 'other', at: t(0), seq: 0, _id: 'o' });
    const [cut] = find(docs, M.attemptsOfEndpoint('ep'), M.NEWEST_ATTEMPT_SORT).slice(100, 101);
    const doomed = find(docs, M.attemptsNotNewerThan('ep', cut.at as Date, cut.seq as number)).map((d) => d._id);
    assert.equal(doomed.length, 5);
    const kept = docs.filter((d) => !doomed.includes(d._id) && d.endpointId === 'ep');
    assert.equal(kept.length, 100);
    const newest = find(docs, M.attemptsOfEndpoint('ep'), M.NEWEST_ATTEMPT_SORT).slice(0, 100).map((d) => d._id).sort();
    assert.deepEqual(kept.map((d) => d._id).sort(), newest);
  });

  it('endpointsOfAccounts keeps enabled endpoints of the given accounts and ignores non-string ids', () => {
    const docs = [
      { _id: 'e1', accountId: 'a', disabledAt: null },
      { _id: 'e2', accountId: 'a', disabledAt: t(1) },
      { _id: 'e3', accountId: 'b', disabledAt: null },
    ];
    assert.deepEqual(find(docs, M.endpointsOfAccounts(['a', { $gt: '' } as unknown as string])).map((d) => d._id), ['e1']);
  });

  it('TTL indexes exist where rows expire', () => {
    for (const name of ['webhook_deliveries', 'webhook_attempts'] as const) {
      assert.ok(M.MONITORING_INDEXES[name].some((i) => i.expireAfterSeconds === 0 && 'expiresAt' in i.key), name);
    }
  });
});
