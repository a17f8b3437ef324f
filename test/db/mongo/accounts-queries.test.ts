// What the MongoDB documents of db/mongo/accounts-queries.ts mean, run through mingo since no server runs
// here: token and session filters, the TTL index shapes, account upserts and the scans-page aggregate.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Aggregator, Query, updateOne } from 'mingo';
import type { AnyObject } from 'mingo/types';
import * as Q from '../../../db/mongo/accounts-queries.js';

const find = (docs: object[], filter: unknown): AnyObject[] => new Query(filter as AnyObject).find<AnyObject>(docs as AnyObject[]).all();
const T = (m: number) => new Date(Date.UTC(2026, 0, 10, 12, m));

describe('mongo account queries (mingo)', () => {
  it('a token is consumable only by its address, unexpired; the filter takes operator strings as data', () => {
    const docs = [Q.tokenToDoc({ tokenHash: 'h', email: 'a@s.test', returnTo: null, createdAt: T(0), expiresAt: T(15) })];
    assert.equal(find(docs, Q.consumableToken('h', 'a@s.test', T(1))).length, 1);
    assert.equal(find(docs, Q.consumableToken('h', 'b@s.test', T(1))).length, 0);
    assert.equal(find(docs, Q.consumableToken('h', 'a@s.test', T(15))).length, 0);
    assert.equal(find(docs, Q.consumableToken('{"$ne":null}', 'a@s.test', T(1))).length, 0);
    assert.equal(find(docs, Q.liveToken('h', T(14))).length, 1);
    assert.equal(find(docs, Q.expired(T(15))).length, 1);
  });

  it('expiring collections carry TTL indexes on expiresAt; the scans page has its owner index', () => {
    for (const name of ['sign_in_tokens', 'sessions'] as const) {
      const ttl = Q.ACCOUNT_INDEXES[name].find((i) => i.expireAfterSeconds === 0);
      assert.deepEqual(ttl?.key, { expiresAt: 1 });
    }
    assert.ok(Q.ACCOUNT_INDEXES.accounts.some((i) => i.unique && JSON.stringify(i.key) === '{"email":1}'));
    assert.ok(Q.ACCOUNT_INDEXES.scans.some((i) => JSON.stringify(i.key) === '{"ownerAccountId":1,"_id":-1}'));
  });

  it('sessions: live filter, touch, and all of one account', () => {
    const doc = Q.sessionToDoc({ idHash: 'h', accountId: 'a1', createdAt: T(0), lastSeenAt: T(0), expiresAt: T(30), absoluteExpiresAt: T(90) });
    const docs = [doc as unknown as AnyObject];
    assert.equal(find(docs, Q.liveSession('h', T(29))).length, 1);
    assert.equal(find(docs, Q.liveSession('h', T(30))).length, 0);
    updateOne(docs, Q.byId('h') as AnyObject, Q.sessionTouch(T(20), T(50)) as never);
    assert.equal(find(docs, Q.liveSession('h', T(40))).length, 1);
    assert.equal(find(docs, Q.sessionsOfAccount('a1')).length, 1);
  });

  it('an account upsert writes only on insert (mingo has no $setOnInsert: its shape is checked)', () => {
    const update = Q.accountInsert('acct_2', T(5));
    assert.deepEqual(Object.keys(update), ['$setOnInsert'], 'an existing account is left as it is');
    assert.deepEqual(update.$setOnInsert, { _id: 'acct_2', createdAt: T(5) });
    const docs: AnyObject[] = [{ _id: 'acct_1', email: 'a@s.test', createdAt: T(0) }];
    assert.equal(find(docs, Q.accountByEmail('a@s.test')).length, 1);
    assert.equal(find(docs, Q.accountByEmail('{"$ne":null}')).length, 0);
  });

  it('the scans page: owner, keyset, host filter, previous score of the host, unlink on delete', () => {
    const scans: AnyObject[] = [
      { _id: 1, host: 'a.test', score: 40, grade: 'D', createdAt: T(0), ownerKeyId: null, report: '{}' },
      { _id: 2, host: 'a.test', score: 50, grade: 'D', createdAt: T(1), ownerKeyId: 'k1', ownerAccountId: 'p', report: '{}' },
      { _id: 3, host: 'b.test', score: 70, grade: 'C', createdAt: T(2), ownerKeyId: null, ownerAccountId: 'p', report: '{}' },
      { _id: 4, host: 'a.test', score: 65, grade: 'C', createdAt: T(3), ownerKeyId: 'k1', ownerAccountId: 'p', report: '{}' },
      { _id: 5, host: 'a.test', score: 10, grade: 'E', createdAt: T(4), ownerKeyId: null, ownerAccountId: 'q', report: '{}' },
    ];
    const run = (pipeline: object[]) =>
      new Aggregator(pipeline as AnyObject[], { collectionResolver: (name: string) => (name === 'scans' ? scans : []) }).run(scans) as AnyObject[];
    const page = run(Q.ownedScansPipeline('p', { limit: 2 }));
    assert.deepEqual(page.map((d) => [d._id, d.previous]), [[4, [{ score: 50 }]], [3, []]]);
    assert.equal(page[0].report, undefined, 'the report is never read for the page');
    assert.deepEqual(run(Q.ownedScansPipeline('p', { limit: 5, beforeId: 3 })).map((d) => [d._id, d.previous]), [[2, [{ score: 40 }]]]);
    assert.deepEqual(run(Q.ownedScansPipeline('p', { limit: 5, host: 'a.test' })).map((d) => d._id), [4, 2]);
    assert.deepEqual(run(Q.ownedScansPipeline('{"$ne":null}', { limit: 5 })), []);
    const counts = run(Q.scanCountsPipeline('p', T(2))).map((r) => [r._id, r.n]);
    assert.deepEqual(counts.sort(), [['k1', 1], [null, 1]].sort());
    updateOne(scans, { _id: 4 }, Q.scanUnlink as never);
    assert.equal(scans[3].ownerAccountId, undefined);
    assert.equal(scans[3].ownerKeyId, null);
  });

  it('scans made before signing in: only those no account and no key holds are listed and attached', () => {
    const scans: AnyObject[] = [
      { _id: 1, host: 'a.test', ownerKeyId: null, report: '{}' }, // anonymous, never linked
      { _id: 2, host: 'a.test', ownerKeyId: null, ownerAccountId: 'q', report: '{}' }, // another account's
      { _id: 3, host: 'b.test', ownerKeyId: 'k9', report: '{}' }, // an unlinked key's
      { _id: 4, host: 'b.test', ownerKeyId: null, ownerAccountId: null, report: '{}' }, // a null link, as absent
      { _id: 5, host: 'c.test', ownerKeyId: null, report: '{}' }, // not asked for
    ];
    assert.deepEqual(find(scans, Q.unownedScansByIds([1, 2, 3, 4, 99])).map((d) => d._id), [1, 4]);
    assert.deepEqual(find(scans, Q.unownedScansByIds([1.5, -1, Number.NaN] as number[])), [], 'only scan ids are asked for');
    for (const doc of find(scans, Q.unownedScansByIds([1, 2, 3, 4]))) updateOne(scans, { _id: doc._id }, Q.scanAttach('p') as never);
    assert.deepEqual(scans.map((d) => d.ownerAccountId ?? null), ['p', 'q', null, 'p', null]);
    assert.deepEqual(find(scans, Q.unownedScansByIds([1, 4])), [], 'once attached, no other account can take them');
  });
});
