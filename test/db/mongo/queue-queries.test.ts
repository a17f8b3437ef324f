// What the MongoDB documents of db/mongo/queue-queries.ts mean, run through mingo since no MongoDB server can run
// here: the polite claim in its steps (hosts with claimable work, a free and due host's turn, one of its items),
// finishing and pausing, the shared rate, counts, paging, re-queueing, and the audits' one-in-progress key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Aggregator, Query, updateOne, updateMany } from 'mingo';
import type { AnyObject } from 'mingo/types';
import * as W from '../../../db/mongo/queue-queries.js';
import type { SortSpec } from '../../../db/mongo/queries.js';
import type { NewWork } from '../../../db/queue-repo.js';

type Docs = AnyObject[];

function find(docs: Docs, filter: unknown, sort?: SortSpec, limit?: number): AnyObject[] {
  let cursor = new Query(filter as AnyObject).find<AnyObject>(docs);
  if (sort) cursor = cursor.sort(sort);
  if (limit !== undefined) cursor = cursor.limit(limit);
  return cursor.all();
}

function findOneAndUpdate(docs: Docs, filter: unknown, update: unknown, sort?: SortSpec): AnyObject | null {
  const [first] = find(docs, filter, sort, 1);
  if (!first) return null;
  updateOne(docs, { _id: first._id }, update as never);
  return docs.find((d) => d._id === first._id)!;
}

const t = (s: number) => new Date(Date.parse('2025-03-01T12:00:00Z') + s * 1000);

function work(id: string, host: string, seq: number, extra: AnyObject = {}): AnyObject {
  const w: NewWork = { id, kind: 'audit_page', group: 'g', host, url: `https://${host}/${id}`, seq, createdAt: t(0) };
  return { ...W.workToDoc(w), ...extra };
}

const pace = (host: string, nextAt = W.FREE, leaseUntil = W.FREE): AnyObject => ({ _id: host, nextAt, leaseUntil, leaseToken: null });

/** MongoQueue.claimPolitely, step by step, on arrays. */
function claimPolitely(items: Docs, paces: Docs, now: Date, token: string): AnyObject | null {
  const hosts = [...new Set(find(items, W.claimableWork('audit_page', now)).map((d) => d.host as string))];
  for (const { _id: host } of find(paces, W.freeHosts(hosts, now), W.PACE_SORT, 20)) {
    if (!findOneAndUpdate(paces, W.freeHost(host as string, now), W.lease(new Date(now.getTime() + 30_000), token))) continue;
    const item = findOneAndUpdate(items, W.claimableOfHost('audit_page', host as string, now), W.leaseItem(new Date(now.getTime() + 30_000), token), W.ITEM_SORT);
    if (item) return item;
    updateOne(paces, W.heldHost(host as string, token) as AnyObject, W.RETURN_HOST as never);
  }
  return null;
}

describe('mongo queue queries (mingo)', () => {
  it('a polite claim takes the due host waiting longest, then its lowest-seq item; a busy or paused host is passed over', () => {
    const items = [work('a1', 'a', 2), work('a2', 'a', 1), work('b1', 'b', 3), work('c1', 'c', 4, { state: 'done' })];
    const paces = [pace('a', t(5)), pace('b', t(1)), pace('c')];
    const first = claimPolitely(items, paces, t(2), 'x');
    assert.equal(first?._id, 'b1', 'a is not due before t(5); c has nothing queued');
    assert.equal(first?.attempts, 1);
    assert.equal(paces.find((p) => p._id === 'b')!.leaseToken, 'x');
    assert.equal(claimPolitely(items, paces, t(3), 'y'), null, 'b is in flight, a not due');
    const second = claimPolitely(items, paces, t(6), 'z');
    assert.equal(second?._id, 'a2', 'lowest seq of the host');
  });

  it('finishing needs the token; the host turn comes back due at hostFreeAt, never earlier than a pause', () => {
    const items = [work('a1', 'a', 1), work('a2', 'a', 2)];
    const paces = [pace('a')];
    claimPolitely(items, paces, t(0), 'tok');
    updateOne(items, W.heldItem('a1', 'other') as AnyObject, W.finishItem('done', '{}', t(1)) as never);
    assert.equal(items[0].state, 'queued', 'another token finishes nothing');
    updateOne(items, W.heldItem('a1', 'tok') as AnyObject, W.finishItem('done', '{"ok":1}', t(1)) as never);
    assert.deepEqual([items[0].state, items[0].result, items[0].leaseToken], ['done', '{"ok":1}', null]);
    paces[0].nextAt = t(100); // a pause set meanwhile
    updateOne(paces, W.heldHost('a', 'tok') as AnyObject, W.releaseHost(t(2)) as never);
    assert.deepEqual([paces[0].leaseToken, (paces[0].nextAt as Date).getTime()], [null, t(100).getTime()]);
    paces[0].nextAt = W.FREE;
    paces[0].leaseToken = 'tok2';
    updateOne(paces, W.heldHost('a', 'tok2') as AnyObject, W.releaseHost(t(3)) as never);
    assert.equal((paces[0].nextAt as Date).getTime(), t(3).getTime());
  });

  it('an expired lease frees the item and the turn; a gone item gives the turn back untouched', () => {
    const items = [work('a1', 'a', 1, { leaseUntil: t(10), leaseToken: 'dead', attempts: 1 })];
    const paces = [pace('a', W.FREE, t(10))];
    assert.equal(claimPolitely(items, paces, t(5), 'n'), null);
    const again = claimPolitely(items, paces, t(11), 'n');
    assert.deepEqual([again?._id, again?.attempts, again?.leaseToken], ['a1', 2, 'n']);
    // Another instance finished the item between this one's host step and its item step: the turn goes back as it was.
    updateOne(items, W.heldItem('a1', 'n') as AnyObject, W.finishItem('done', null, t(12)) as never);
    updateOne(paces, W.heldHost('a', 'n') as AnyObject, W.releaseHost(t(20)) as never);
    assert.ok(findOneAndUpdate(paces, W.freeHost('a', t(21)), W.lease(t(51), 'late')));
    assert.equal(findOneAndUpdate(items, W.claimableOfHost('audit_page', 'a', t(21)), W.leaseItem(t(51), 'late'), W.ITEM_SORT), null);
    updateOne(paces, W.heldHost('a', 'late') as AnyObject, W.RETURN_HOST as never);
    assert.deepEqual([paces[0].leaseToken, (paces[0].leaseUntil as Date).getTime(), (paces[0].nextAt as Date).getTime()], [null, 0, t(20).getTime()]);
  });

  it('the shared rate slot is taken only when due, and given back only if nobody moved it', () => {
    const paces = [pace('rate:seed')];
    assert.ok(findOneAndUpdate(paces, W.rateDue('rate:seed', t(0)), W.rateNext(t(10))));
    assert.equal(findOneAndUpdate(paces, W.rateDue('rate:seed', t(5)), W.rateNext(t(15))), null);
    updateOne(paces, W.rateTakenAt('rate:seed', t(99)) as AnyObject, W.rateNext(t(0)) as never);
    assert.equal((paces[0].nextAt as Date).getTime(), t(10).getTime(), 'moved by someone else: kept');
    updateOne(paces, W.rateTakenAt('rate:seed', t(10)) as AnyObject, W.rateNext(t(0)) as never);
    assert.equal((paces[0].nextAt as Date).getTime(), t(0).getTime());
  });

  it('counts, pages of results and re-queueing of a group', () => {
    const items = [
      work('a', 'h', 1, { state: 'done', doneAt: t(10), result: '{}' }),
      work('b', 'h', 2, { state: 'failed', doneAt: t(20) }),
      work('c', 'h', 3),
      { ...work('d', 'h', 4), group: 'other' },
    ];
    const [row] = new Aggregator(W.groupCounts('g', t(15)) as AnyObject[]).run(items);
    assert.deepEqual({ queued: row.queued, done: row.done, failed: row.failed, finishedSince: row.finishedSince }, { queued: 1, done: 1, failed: 1, finishedSince: 1 });
    assert.deepEqual(find(items, W.groupAfter('g', 1), W.ITEM_SORT).map((d) => d._id), ['b', 'c']);
    updateMany(items, W.finishedBefore('g', t(15)) as AnyObject, W.REQUEUE as never);
    assert.deepEqual(items.map((d) => d.state), ['queued', 'failed', 'queued', 'queued']);
    assert.deepEqual([items[0].attempts, items[0].result, items[0].doneAt], [0, null, null]);
    assert.deepEqual(find(items, W.groupAfter('{"$gt":""}', 0)), [], 'values stay values');
  });

  it('an audit is active under one key per account and host until it ends; it ends from its plan step or its lease', () => {
    const base = { accountId: 'acct', host: 'a.example', url: 'https://a.example/', maxPages: 200, status: 'queued' as const, createdAt: t(0), discovered: null, planned: null, delayMs: 1000, finishedAt: null, error: null, result: null };
    const audits: Docs = [W.auditToDoc({ ...base, id: 'aud_1' }) as unknown as AnyObject];
    assert.equal(find(audits, W.activeAuditOfHost('acct', 'a.example')).length, 1);
    assert.equal(find(audits, W.activeAudits('acct')).length, 1);
    assert.equal(find(audits, W.finishableAudit('aud_1', t(1))).length, 0, 'queued: not finishable');
    updateOne(audits, W.queuedAudit('aud_1') as AnyObject, W.markPlanned({ discovered: 10, planned: 5, delayMs: 2000 }) as never);
    assert.equal(audits[0].status, 'running');
    assert.ok(findOneAndUpdate(audits, W.finishableAudit('aud_1', t(1)), W.lease(t(31), 'k')));
    assert.equal(find(audits, W.endableAudit('aud_1', null)).length, 0, 'running: only the lease holder ends it');
    updateOne(audits, W.endableAudit('aud_1', 'k') as AnyObject, W.endAudit({ status: 'done', at: t(2), result: '{}', error: null }) as never);
    assert.deepEqual([audits[0].status, audits[0].activeKey], ['done', undefined]);
    assert.equal(find(audits, W.activeAuditOfHost('acct', 'a.example')).length, 0);
    assert.equal(find(audits, W.previousAudit('acct', 'a.example', t(5)), W.NEWEST_AUDIT_SORT)[0]?._id, 'aud_1');
  });
});
