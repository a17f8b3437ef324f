// What the MongoDB documents built in store/mongo-queries.ts mean, checked by running them through mingo (the
// MongoDB query language in JS), since no MongoDB server can run here. Upserts are simulated the way the server
// does them: the filter's _id equality seeds the new document, and a miss on an existing _id is E11000.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Aggregator, Query, updateOne } from 'mingo';
import type { AnyObject } from 'mingo/types';
import * as Q from '../../store/mongo-queries.js';
import type { LatestDoc, SortSpec, UsageDoc } from '../../store/mongo-queries.js';
import type { ScanRecord } from '../../store/repo.js';
import { HOST_PREFIX_WINDOW } from '../../store/repo.js';

type Docs = AnyObject[];
// Our document interfaces have no index signature; mingo only needs plain objects.
const asDocs = (docs: object[]): Docs => docs as Docs;

function find(docs: object[], filter: unknown, sort?: SortSpec, limit?: number): AnyObject[] {
  let cursor = new Query(filter as AnyObject).find<AnyObject>(docs);
  if (sort) cursor = cursor.sort(sort);
  if (limit !== undefined) cursor = cursor.limit(limit);
  return cursor.all();
}

const count = (docs: object[], filter: unknown): number => find(docs, filter).length;

function upsert(docs: Docs, filter: unknown, update: unknown): 'updated' | 'inserted' | 'duplicate' {
  const res = updateOne(docs, filter as AnyObject, update as never);
  if (res.matchedCount > 0) return 'updated';
  const id = (filter as { _id: { $eq: unknown } })._id.$eq;
  if (docs.some((d) => d._id === id)) return 'duplicate';
  docs.push({ _id: id });
  updateOne(docs, { _id: { $eq: id } }, update as never);
  return 'inserted';
}

const latest = (host: string, score: number, vertical: string | null = null): LatestDoc => ({
  _id: host,
  scanId: 1,
  vertical,
  score,
  grade: 'B',
  capped: false,
  agentReady: false,
  updatedAt: new Date(0),
});

// a 90 · b c d 80 · e 70 · f 60 · g 50
const LADDER: LatestDoc[] = [
  latest('a.example', 90, 'food'),
  latest('b.example', 80, 'toys'),
  latest('c.example', 80, 'food'),
  latest('d.example', 80, 'food'),
  latest('e.example', 70, 'toys'),
  latest('f.example', 60),
  latest('g.example', 50, 'food'),
];

function above(docs: object[], host: string, score: number, n: number, vertical: string | null = null): string[] {
  const q = Q.neighborsAbove(host, score, vertical);
  return find(docs, q.filter, q.sort, n).reverse().map((d) => d._id as string);
}

function below(docs: object[], host: string, score: number, n: number, vertical: string | null = null): string[] {
  const q = Q.neighborsBelow(host, score, vertical);
  return find(docs, q.filter, q.sort, n).map((d) => d._id as string);
}

function scan(over: Partial<ScanRecord>): ScanRecord {
  return {
    id: 1,
    host: 'h.example',
    vertical: null,
    score: 50,
    grade: 'D',
    capped: false,
    agentReady: false,
    createdAt: new Date(1000),
    ownerKeyId: null,
    report: {},
    ...over,
  };
}

describe('mongo-queries: rank counts', () => {
  it('counts the hosts strictly above a score, overall and per vertical', () => {
    assert.equal(count(LADDER, Q.rankCountFilter(90, null)), 0);
    assert.equal(count(LADDER, Q.rankCountFilter(80, null)), 1);
    assert.equal(count(LADDER, Q.rankCountFilter(70, null)), 4);
    assert.equal(count(LADDER, Q.rankCountFilter(50, null)), 6);
    assert.equal(count(LADDER, Q.rankCountFilter(80, 'food')), 1);
    assert.equal(count(LADDER, Q.rankCountFilter(50, 'food')), 3);
    assert.equal(count(LADDER, Q.rankCountFilter(85, 'toys')), 0);
    assert.equal(count(LADDER, Q.scopeFilter(null)), 7);
    assert.equal(count(LADDER, Q.scopeFilter('food')), 4);
    assert.deepEqual(Q.scopeFilter(null), {});
  });
});

describe('mongo-queries: neighbours', () => {
  it('above: sorted score asc/_id desc, limited, then reversed; below: score desc/_id asc', () => {
    assert.deepEqual(above(LADDER, 'a.example', 90, 2), []);
    assert.deepEqual(below(LADDER, 'a.example', 90, 2), ['b.example', 'c.example']);
    assert.deepEqual(above(LADDER, 'c.example', 80, 2), ['a.example', 'b.example']);
    assert.deepEqual(below(LADDER, 'c.example', 80, 2), ['d.example', 'e.example']);
    assert.deepEqual(above(LADDER, 'd.example', 80, 2), ['b.example', 'c.example']);
    assert.deepEqual(below(LADDER, 'b.example', 80, 3), ['c.example', 'd.example', 'e.example']);
    assert.deepEqual(above(LADDER, 'g.example', 50, 2), ['e.example', 'f.example']);
    assert.deepEqual(below(LADDER, 'g.example', 50, 2), []);
    assert.deepEqual(above(LADDER, 'e.example', 70, 1), ['d.example']);
  });

  it('restricts to one vertical', () => {
    assert.deepEqual(above(LADDER, 'd.example', 80, 2, 'food'), ['a.example', 'c.example']);
    assert.deepEqual(below(LADDER, 'd.example', 80, 2, 'food'), ['g.example']);
    assert.deepEqual(below(LADDER, 'b.example', 80, 2, 'toys'), ['e.example']);
  });

  it('leaves out the host own stored row when it is ranked as if it had another score', () => {
    assert.deepEqual(above(LADDER, 'g.example', 85, 5), ['a.example']);
    assert.deepEqual(below(LADDER, 'g.example', 85, 3), ['b.example', 'c.example', 'd.example']);
    assert.deepEqual(above(LADDER, 'a.example', 55, 2), ['e.example', 'f.example']);
    assert.deepEqual(below(LADDER, 'a.example', 55, 2), ['g.example']);
    assert.deepEqual(above(LADDER, 'new.example', 80, 3), ['b.example', 'c.example', 'd.example']);
    assert.deepEqual(below(LADDER, 'new.example', 80, 1), ['e.example']);
  });

  it('agree with the plain ranking rule on random data with many ties', () => {
    let seed = 99;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const docs = Array.from({ length: 60 }, (_, i) => latest(`h${Math.floor(rand() * 100)}-${i}.example`, Math.floor(rand() * 5) * 10));
    const order = [...docs].sort((x, y) => y.score - x.score || (x._id < y._id ? -1 : 1)).map((d) => d._id);
    for (const [i, d] of order.map((h) => docs.find((x) => x._id === h)!).entries()) {
      assert.deepEqual(above(docs, d._id, d.score, 3), order.slice(Math.max(0, i - 3), i), `above ${d._id}`);
      assert.deepEqual(below(docs, d._id, d.score, 3), order.slice(i + 1, i + 4), `below ${d._id}`);
      assert.equal(count(docs, Q.rankCountFilter(d.score, null)), docs.filter((x) => x.score > d.score).length);
    }
  });
});

describe('mongo-queries: latest upsert', () => {
  it('the filter matches the host row only when it is not newer than the scan', () => {
    const row = { ...latest('h.example', 50), updatedAt: new Date(1000) };
    const matches = (host: string, at: number, id: number) => new Query(Q.latestUpsertFilter(host, new Date(at), id) as AnyObject).test(row);
    assert.equal(matches('h.example', 2000, 1), true);
    assert.equal(matches('h.example', 1000, row.scanId + 1), true, 'same instant, later scan id');
    assert.equal(matches('h.example', 1000, row.scanId - 1), false, 'same instant, earlier scan id');
    assert.equal(matches('h.example', 999, 99), false);
    assert.equal(matches('other.example', 2000, 1), false);
    assert.equal(matches('{"$gt":""}', 2000, 1), false);
  });

  it('out-of-order saves never move latest backwards; a scan without vertical keeps the host one', () => {
    const docs: Docs = [];
    const save = (s: ScanRecord) => upsert(docs, Q.latestUpsertFilter(s.host, s.createdAt, s.id), Q.latestUpsertUpdate(s));
    assert.equal(save(scan({ id: 2, score: 80, vertical: 'food', createdAt: new Date(2000) })), 'inserted');
    assert.deepEqual(docs, [
      { _id: 'h.example', scanId: 2, vertical: 'food', score: 80, grade: 'D', capped: false, agentReady: false, updatedAt: new Date(2000) },
    ]);
    assert.equal(save(scan({ id: 1, score: 20, vertical: 'toys', createdAt: new Date(1000) })), 'duplicate');
    assert.equal(docs[0].scanId, 2);
    assert.equal(docs[0].score, 80);
    assert.equal(save(scan({ id: 3, score: 60, vertical: null, grade: 'C', agentReady: true, createdAt: new Date(3000) })), 'updated');
    assert.deepEqual(docs, [
      { _id: 'h.example', scanId: 3, vertical: 'food', score: 60, grade: 'C', capped: false, agentReady: true, updatedAt: new Date(3000) },
    ]);
    assert.equal(save(scan({ id: 4, score: 61, vertical: 'toys', createdAt: new Date(3000) })), 'updated', 'same instant: the later save wins');
    assert.equal(docs[0].vertical, 'toys');
    assert.equal(save(scan({ id: 5, host: 'n.example', vertical: null })), 'inserted');
    assert.equal(docs[1].vertical, null, 'a new host without vertical gets null, not a missing field');
    assert.equal(docs.length, 2);
  });

  it('values that look like expressions are stored as they are', () => {
    const docs: Docs = [];
    const s = scan({ grade: '$score', vertical: '$vertical' });
    upsert(docs, Q.latestUpsertFilter(s.host, s.createdAt, s.id), Q.latestUpsertUpdate(s));
    assert.equal(docs[0].grade, '$score');
    assert.equal(docs[0].vertical, '$vertical');
  });
});

describe('mongo-queries: $eq and $in keep outside values as data', () => {
  it('host, key and id lookups', () => {
    const keys = [{ _id: 'abc', id: 'key_1' }];
    assert.equal(count(LADDER, Q.latestByHost('{"$gt":""}')), 0);
    assert.equal(count(LADDER, Q.latestByHost({ $gt: '' } as unknown as string)), 0, 'an object is compared, not obeyed');
    assert.equal(count(LADDER, Q.latestByHost('c.example')), 1);
    assert.equal(count(LADDER, Q.latestByHosts(['{"$gt":""}'])), 0);
    assert.equal(count(LADDER, Q.latestByHosts([{ $gt: '' } as unknown as string, 'a.example'])), 1);
    assert.deepEqual(
      find(LADDER, Q.latestByHosts(['a.example', 'missing.example', 'g.example'])).map((d) => d._id),
      ['a.example', 'g.example'],
    );
    assert.equal(count(keys, Q.apiKeyByHash('{"$ne":null}')), 0);
    assert.equal(count(keys, Q.apiKeyByHash({ $ne: null } as unknown as string)), 0);
    assert.equal(count(keys, Q.apiKeyById({ $exists: true } as unknown as string)), 0);
    assert.equal(count(keys, Q.apiKeyById('key_1')), 1);
    assert.equal(count([{ _id: 'h.example' }], Q.delistedByHost({ $gt: '' } as unknown as string)), 0);
    assert.equal(count([{ _id: 7 }], Q.scanById({ $gt: 0 } as unknown as number)), 0);
    assert.equal(count([{ _id: 7 }], Q.scanById(7)), 1);
  });
});

describe('mongo-queries: topStores', () => {
  const docs: LatestDoc[] = LADDER.map((d, i) => ({ ...d, agentReady: i % 2 === 0, updatedAt: new Date(i * 1000) }));
  const ids = (filter: unknown, skip = 0, limit = 100) =>
    new Query(filter as AnyObject).find<AnyObject>(docs).sort(Q.RANK_SORT).skip(skip).limit(limit).all().map((d) => d._id);

  it('filters by vertical, agent readiness and recency, in rank order', () => {
    assert.deepEqual(ids(Q.topStoresFilter({})), LADDER.map((d) => d._id));
    assert.deepEqual(ids(Q.topStoresFilter({}), 2, 3), ['c.example', 'd.example', 'e.example']);
    assert.deepEqual(ids(Q.topStoresFilter({ vertical: 'food' })), ['a.example', 'c.example', 'd.example', 'g.example']);
    assert.deepEqual(ids(Q.topStoresFilter({ vertical: null })), LADDER.map((d) => d._id));
    assert.deepEqual(ids(Q.topStoresFilter({ agentReadyOnly: true })), ['a.example', 'c.example', 'e.example', 'g.example']);
    assert.deepEqual(ids(Q.topStoresFilter({ since: new Date(4000) })), ['e.example', 'f.example', 'g.example']);
    assert.deepEqual(ids(Q.topStoresFilter({ since: new Date(2000), agentReadyOnly: true, vertical: 'food' })), ['c.example', 'g.example']);
  });

  it('counts the entries above the first row of a page with the same filters', () => {
    assert.equal(count(docs, Q.topStoresAboveFilter({}, 80)), 1);
    assert.equal(count(docs, Q.topStoresAboveFilter({ agentReadyOnly: true }, 70)), 2);
    assert.equal(count(docs, Q.topStoresAboveFilter({ vertical: 'food', since: new Date(1000) }, 50)), 2);
  });
});

describe('mongo-queries: usage and counters', () => {
  it('increments create the document, then add to it', () => {
    const docs: Docs = [];
    const inc = (key: string, period: string, by: number) => upsert(docs, Q.usageFilter(key, period), Q.usageIncrement(key, period, by));
    assert.equal(inc('k1', '2025-03', 1), 'inserted');
    assert.equal(inc('k1', '2025-03', 1), 'updated');
    assert.equal(inc('k1', '2025-03', 5), 'updated');
    assert.equal(inc('k1', '2025-04', 2), 'inserted');
    assert.equal(inc('k2', '2025-03', 10), 'inserted');
    const doc: UsageDoc | undefined = docs.find((d) => d._id === Q.usageId('k1', '2025-03')) as UsageDoc | undefined;
    assert.deepEqual(doc, { _id: Q.usageId('k1', '2025-03'), n: 7, key: 'k1', period: '2025-03' });

    const sum = (key: string, periods: string[]) => new Aggregator(Q.usageSumPipeline(key, periods)).run(docs)[0]?.n ?? 0;
    assert.equal(sum('k1', ['2025-03', '2025-04', '2025-05']), 9);
    assert.equal(sum('k1', ['2025-05']), 0);
    assert.equal(sum('k2', ['2025-03', '2025-04']), 10);

    const kept = docs.filter((d) => !new Query(Q.usagePruneFilter('2025-04') as AnyObject).test(d));
    assert.deepEqual(kept.map((d) => d._id), [Q.usageId('k1', '2025-04')]);
  });

  it('usage ids cannot collide across key and period boundaries', () => {
    assert.notEqual(Q.usageId('a', 'b:c'), Q.usageId('a:b', 'c'));
    assert.notEqual(Q.usageId('a', '2025'), Q.usageId('a2', '025'));
  });

  it('the scan id counter counts up from 1', () => {
    const docs: Docs = [];
    const next = () => {
      upsert(docs, Q.counterFilter(Q.SCAN_COUNTER), Q.counterIncrement());
      return docs[0].n as number;
    };
    assert.deepEqual([next(), next(), next()], [1, 2, 3]);
  });
});

describe('mongo-queries: keys, scans and delisting', () => {
  it('revoking keeps the first instant', () => {
    const docs = asDocs([Q.apiKeyToDoc({ id: 'key_1', keyHash: 'h', owner: 'o', plan: 'pro', createdAt: new Date(1), revokedAt: null })]);
    assert.equal(updateOne(docs, Q.apiKeyById('key_1') as AnyObject, Q.apiKeyRevoke(new Date(5)) as never).matchedCount, 1);
    assert.deepEqual(docs[0].revokedAt, new Date(5));
    updateOne(docs, Q.apiKeyById('key_1') as AnyObject, Q.apiKeyRevoke(new Date(9)) as never);
    assert.deepEqual(docs[0].revokedAt, new Date(5));
    assert.equal(updateOne(docs, Q.apiKeyById('key_2') as AnyObject, Q.apiKeyRevoke(new Date(9)) as never).matchedCount, 0);
  });

  it('finds the newest scan of a host, and its newest vertical', () => {
    const docs = [
      Q.scanToDoc(scan({ id: 1, vertical: 'food', createdAt: new Date(1000) })),
      Q.scanToDoc(scan({ id: 2, vertical: 'toys', createdAt: new Date(2000) })),
      Q.scanToDoc(scan({ id: 3, vertical: null, createdAt: new Date(3000) })),
      Q.scanToDoc(scan({ id: 4, vertical: null, createdAt: new Date(3000) })),
      Q.scanToDoc(scan({ id: 5, host: 'other.example', createdAt: new Date(9000) })),
    ];
    assert.equal(find(docs, Q.scansOfHost('h.example'), Q.NEWEST_SCAN_SORT, 1)[0]._id, 4);
    assert.equal(find(docs, Q.scansOfHostWithVertical('h.example'), Q.NEWEST_SCAN_SORT, 1)[0].vertical, 'toys');
  });

  it('stores the report as JSON text, byte for byte', () => {
    const report = { z: 1, a: [1.5, 'x', null], '$odd.key': true };
    assert.equal(Q.scanToDoc(scan({ report })).report, JSON.stringify(report));
  });

  it('marks a host delisted with an upsert on its _id', () => {
    const docs: Docs = [];
    assert.equal(upsert(docs, Q.delistedByHost('h.example'), Q.delistedMark(new Date(1))), 'inserted');
    assert.equal(upsert(docs, Q.delistedByHost('h.example'), Q.delistedMark(new Date(2))), 'updated');
    assert.deepEqual(docs, [{ _id: 'h.example', at: new Date(2) }]);
  });
  it('completes host names: an anchored _id range in host order, cut at the window, then best score first', () => {
    const run = (docs: object[], prefix: string, limit = 100): string[] =>
      new Aggregator(Q.hostsByPrefixPipeline(prefix, limit) as AnyObject[]).run(asDocs(docs)).map((d) => d._id as string);
    const docs = [latest('shop.example', 40), latest('shoes.example', 90), latest('shore.example', 90), latest('ashop.example', 99), latest('sh', 5)];
    assert.deepEqual(run(docs, 'sho'), ['shoes.example', 'shore.example', 'shop.example']);
    assert.deepEqual(run(docs, 'sho', 1), ['shoes.example']);
    assert.deepEqual(run(docs, ''), ['ashop.example', 'shoes.example', 'shore.example', 'shop.example', 'sh']);
    for (const hostile of ['.*', '^s', '{"$gt":""}', '$where']) assert.deepEqual(run(docs, hostile), [], hostile);
    // The first stage is a range on _id only: the host index answers it, never a scan.
    const match = Q.hostsByPrefixPipeline('sho', 10)[0].$match as AnyObject;
    assert.deepEqual(Object.keys(match), ['_id']);
    // More hosts than the window: only the first HOST_PREFIX_WINDOW in host order are ranked.
    const many = Array.from({ length: HOST_PREFIX_WINDOW + 5 }, (_, i) => latest(`h${String(i).padStart(5, '0')}.example`, i >= HOST_PREFIX_WINDOW ? 100 : 1));
    assert.ok(!run(many, 'h').some((h) => h >= `h${String(HOST_PREFIX_WINDOW).padStart(5, '0')}`));
    assert.equal(run(many, 'h').length, 100);
  });
});
