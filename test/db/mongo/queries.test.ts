// What the MongoDB documents built in db/mongo/queries.ts mean, checked by running them through mingo (the
// MongoDB query language in JS), since no MongoDB server can run here. Upserts are simulated the way the server
// does them: the filter's _id equality seeds the new document, and a miss on an existing _id is E11000.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Aggregator, Query, updateOne } from 'mingo';
import type { AnyObject } from 'mingo/types';
import * as Q from '../../../db/mongo/queries.js';
import type { BandDoc, BucketDoc, LatestDoc, SortSpec, UsageDoc } from '../../../db/mongo/queries.js';
import type { ScanRecord } from '../../../db/repo.js';
import { HOST_PREFIX_WINDOW } from '../../../db/repo.js';

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
  // The upsert filters on _id alone, so a duplicate-key insert of two first saves is retried by the server (and by
  // the adapter outside a transaction): the retry matches the row that won the insert.
  const save = (docs: Docs, s: ScanRecord) => {
    const first = upsert(docs, Q.latestByHost(s.host), Q.latestUpsertUpdate(s));
    return first === 'duplicate' ? upsert(docs, Q.latestByHost(s.host), Q.latestUpsertUpdate(s)) : first;
  };

  it('moves the row only to a newer scan (same instant: a higher id); a scan without vertical keeps the host one', () => {
    const docs: Docs = [];
    assert.equal(save(docs, scan({ id: 2, score: 80, vertical: 'food', createdAt: new Date(2000) })), 'inserted');
    assert.deepEqual(docs, [
      { _id: 'h.example', scanId: 2, vertical: 'food', score: 80, grade: 'D', capped: false, agentReady: false, updatedAt: new Date(2000) },
    ]);
    assert.equal(save(docs, scan({ id: 1, score: 20, vertical: 'toys', createdAt: new Date(1000) })), 'updated');
    assert.equal(docs[0].scanId, 2, 'an older scan leaves the row as it was');
    assert.equal(docs[0].score, 80);
    assert.equal(docs[0].vertical, 'food');
    assert.equal(save(docs, scan({ id: 3, score: 60, vertical: null, grade: 'C', agentReady: true, createdAt: new Date(3000) })), 'updated');
    assert.deepEqual(docs, [
      { _id: 'h.example', scanId: 3, vertical: 'food', score: 60, grade: 'C', capped: false, agentReady: true, updatedAt: new Date(3000) },
    ]);
    save(docs, scan({ id: 4, score: 61, vertical: 'toys', createdAt: new Date(3000) }));
    assert.equal(docs[0].vertical, 'toys', 'same instant: the higher id wins');
    save(docs, scan({ id: 2, score: 1, vertical: 'food', createdAt: new Date(3000) }));
    assert.equal(docs[0].scanId, 4, 'same instant, lower id: kept');
    assert.equal(save(docs, scan({ id: 5, host: 'n.example', vertical: null })), 'inserted');
    assert.equal(docs[1].vertical, null, 'a new host without vertical gets null, not a missing field');
    assert.equal(docs.length, 2);
  });

  it('two first saves that both miss: the newer scan wins in either order', () => {
    const older = scan({ id: 7, score: 10, createdAt: new Date(1000) });
    const newer = scan({ id: 8, score: 90, createdAt: new Date(2000) });
    for (const order of [[older, newer], [newer, older]]) {
      const docs: Docs = [];
      // Both updates find no row; the first inserts, the second collides and is retried against that row.
      assert.equal(upsert(docs, Q.latestByHost('h.example'), Q.latestUpsertUpdate(order[0])), 'inserted');
      assert.equal(upsert(docs, { _id: { $eq: 'h.example' }, _missing: { $exists: true } }, Q.latestUpsertUpdate(order[1])), 'duplicate');
      assert.equal(save(docs, order[1]), 'updated');
      assert.equal(docs.length, 1);
      assert.equal(docs[0].scanId, 8, `order ${order.map((x) => x.id)}`);
      assert.equal(docs[0].score, 90);
    }
  });

  it('latestAfter and scanWins say what the pipeline leaves, on random out-of-order saves', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const docs: Docs = [];
    let expected: LatestDoc | null = null;
    for (let id = 1; id <= 200; id++) {
      const s = scan({ id: Math.floor(rand() * 50) + 1, score: Math.floor(rand() * 100), vertical: rand() < 0.3 ? null : `v${Math.floor(rand() * 3)}`, createdAt: new Date(Math.floor(rand() * 10) * 1000) });
      assert.equal(Q.scanWins(expected, s), Q.latestAfter(expected, s) !== expected);
      expected = Q.latestAfter(expected, s);
      save(docs, s);
      assert.deepEqual(docs[0], { ...expected }, `after scan ${s.id}@${s.createdAt.getTime()}`);
    }
  });

  it('values that look like expressions are stored as they are', () => {
    const docs: Docs = [];
    save(docs, scan({ grade: '$score', vertical: '$vertical' }));
    assert.equal(docs[0].grade, '$score');
    assert.equal(docs[0].vertical, '$vertical');
  });

  it('a delist first writes the row (creating it if need be), so that a concurrent save conflicts', () => {
    const docs: Docs = [{ ...latest('h.example', 50) }];
    assert.equal(upsert(docs, Q.latestByHost('h.example'), Q.latestTouch()), 'updated');
    assert.equal(upsert(docs, Q.latestByHost('new.example'), Q.latestTouch()), 'inserted');
    assert.equal(docs[0].score, 50, 'the touch changes no field the index reads');
  });

  it('setting a vertical changes that field of a listed row only, matches no missing row, and keeps the value as data', () => {
    const docs: Docs = [{ ...latest('h.example', 50, 'apparel') }, { ...latest('o.example', 40, 'pets') }];
    assert.equal(updateOne(docs, Q.latestByHost('h.example'), Q.latestSetVertical('beauty') as never).modifiedCount, 1);
    assert.deepEqual(docs[0], { ...latest('h.example', 50, 'beauty') });
    assert.deepEqual(docs[1], { ...latest('o.example', 40, 'pets') }, 'another host is left as it was');
    assert.equal(updateOne(docs, Q.latestByHost('gone.example'), Q.latestSetVertical('beauty') as never).matchedCount, 0);
    assert.equal(docs.length, 2, 'no row is created for an unknown or delisted host');
    updateOne(docs, Q.latestByHost('h.example'), Q.latestSetVertical('$score') as never);
    assert.equal(docs[0].vertical, '$score');
  });
});

describe('mongo-queries: score histogram', () => {
  type Row = { _id: string; vertical: string | null; score: number };
  const apply = (docs: { buckets: Docs; bands: Docs }, prev: Q.Counted | null, next: Q.Counted | null) => {
    const moves = Q.countMoves(prev, next);
    for (const [target, ops] of [[docs.buckets, moves.buckets], [docs.bands, moves.bands]] as const) {
      for (const op of ops as { updateOne: { filter: unknown; update: unknown } }[]) upsert(target, op.updateOne.filter, op.updateOne.update);
    }
  };
  const countsOf = (docs: { buckets: Docs; bands: Docs }, vertical: string | null, scores: number[]) => {
    const scope = Q.scopeOf(vertical);
    const bands = find(docs.bands, Q.bandsOfScope(scope)) as unknown as BandDoc[];
    const buckets = find(docs.buckets, Q.bucketsInBands(scope, [...new Set(scores.map(Q.bandOf))])) as unknown as BucketDoc[];
    return Q.histogramCounts(bands, buckets);
  };

  it('kept move by move, it counts like the rows it follows, and a rebuild gives the same documents', () => {
    let seed = 31;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const rows = new Map<string, Row>();
    const docs = { buckets: [] as Docs, bands: [] as Docs };
    for (let i = 0; i < 400; i++) {
      const host = `h${Math.floor(rand() * 40)}.example`;
      const prev = rows.get(host) ?? null;
      const next = rand() < 0.15 ? null : { _id: host, vertical: rand() < 0.2 ? null : `v${Math.floor(rand() * 3)}`, score: Math.round(rand() * 1000) / 10 };
      apply(docs, prev, next);
      if (next) rows.set(host, next);
      else rows.delete(host);
    }
    const all = [...rows.values()];
    for (const vertical of [null, 'v0', 'v1', 'v2']) {
      const scoped = all.filter((r) => vertical === null || r.vertical === vertical);
      const probes = [...scoped.map((r) => r.score), 0, 4.9, 5, 50, 99.9, 100];
      const counts = countsOf(docs, vertical, probes);
      assert.equal(counts.total, scoped.length, `total of ${vertical}`);
      for (const t of probes) assert.equal(counts.above(t), scoped.filter((r) => r.score > t).length, `above ${t} in ${vertical}`);
    }
    const groups = new Aggregator(Q.HISTOGRAM_GROUPS).run(all as AnyObject[]) as never;
    const rebuilt = Q.histogramDocs(groups);
    const live = (list: Docs) => list.filter((d) => d.n !== 0).sort((x, y) => String(x._id).localeCompare(String(y._id)));
    assert.deepEqual(live(rebuilt.buckets as never), live(docs.buckets));
    assert.deepEqual(live(rebuilt.bands as never), live(docs.bands));
  });

  it('a move within one score and vertical writes nothing', () => {
    assert.deepEqual(Q.countMoves({ score: 50, vertical: 'food' }, { score: 50, vertical: 'food' }), { buckets: [], bands: [] });
    assert.equal(Q.countMoves(null, { score: 50, vertical: 'food' }).buckets.length, 2, 'the whole index and the vertical');
    assert.equal(Q.countMoves({ score: 50, vertical: null }, { score: 51, vertical: null }).bands.length, 0, 'same band: no band write');
  });

  it('a deep page starts at the score the histogram finds and skips only within its ties', async () => {
    const docs = { buckets: [] as Docs, bands: [] as Docs };
    const rows: LatestDoc[] = [];
    let seed = 5;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 120; i++) {
      const row = { ...latest(`h${String(i).padStart(3, '0')}.example`, Math.floor(rand() * 20) * 5, rand() < 0.5 ? 'food' : 'toys') };
      rows.push(row);
      apply(docs, null, row);
    }
    for (const vertical of [null, 'food']) {
      const scope = Q.scopeOf(vertical);
      const filter = Q.topStoresFilter({ vertical });
      const plain = new Query(filter as AnyObject).find<AnyObject>(rows).sort(Q.RANK_SORT).all();
      const bands = find(docs.bands, Q.bandsOfScope(scope), Q.BANDS_DESC) as unknown as BandDoc[];
      const bucketsOf = async (band: number) => find(docs.buckets, Q.bucketsInBands(scope, [band]), Q.BUCKETS_DESC) as unknown as BucketDoc[];
      for (const offset of [0, 1, 7, 30, 59, plain.length - 1]) {
        const seek = await Q.scoreAtOffset(bands, bucketsOf, offset);
        assert.ok(seek, `offset ${offset}`);
        assert.equal(seek.above, plain.filter((r) => (r.score as number) > seek.score).length);
        const page = new Query(Q.fromScoreDown(filter, seek.score) as AnyObject).find<AnyObject>(rows).sort(Q.RANK_SORT).skip(offset - seek.above).limit(10).all();
        assert.deepEqual(page.map((r) => r._id), plain.slice(offset, offset + 10).map((r) => r._id), `page at ${offset} in ${vertical}`);
        assert.ok(offset - seek.above < plain.filter((r) => r.score === seek.score).length, 'the skip stays within one score');
      }
      assert.equal(await Q.scoreAtOffset(bands, bucketsOf, plain.length), null, 'past the end');
    }
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

  it('the scan id counter counts up from 1, or from the highest stored id it was raised to', () => {
    const docs: Docs = [];
    const next = () => {
      upsert(docs, Q.counterFilter(Q.SCAN_COUNTER), Q.counterIncrement());
      return docs[0].n as number;
    };
    assert.deepEqual([next(), next(), next()], [1, 2, 3]);
    const fresh: Docs = [];
    assert.equal(upsert(fresh, Q.counterFilter(Q.SCAN_COUNTER), Q.counterAtLeast(41)), 'inserted');
    assert.equal(fresh[0].n, 41, 'a lost counter starts above the stored scans');
    upsert(fresh, Q.counterFilter(Q.SCAN_COUNTER), Q.counterAtLeast(0));
    assert.equal(fresh[0].n, 41, 'never lowered (an empty scans collection, another instance starting)');
    upsert(fresh, Q.counterFilter(Q.SCAN_COUNTER), Q.counterIncrement());
    assert.equal(fresh[0].n, 42);
    const scans = [Q.scanToDoc(scan({ id: 3 })), Q.scanToDoc(scan({ id: 41 })), Q.scanToDoc(scan({ id: 9 }))];
    assert.equal(find(scans, {}, Q.HIGHEST_ID_SORT, 1)[0]._id, 41);
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

  it('marks a host delisted with an upsert on its _id; a save while delisted writes the mark', () => {
    const docs: Docs = [];
    assert.equal(upsert(docs, Q.delistedByHost('h.example'), Q.delistedMark(new Date(1))), 'inserted');
    assert.equal(upsert(docs, Q.delistedByHost('h.example'), Q.delistedMark(new Date(2))), 'updated');
    assert.deepEqual(docs, [{ _id: 'h.example', at: new Date(2) }]);
    assert.equal(updateOne(docs, Q.delistedByHost('h.example') as AnyObject, Q.delistedHiddenScan() as never).matchedCount, 1);
    assert.equal(updateOne(docs, Q.delistedByHost('other.example') as AnyObject, Q.delistedHiddenScan() as never).matchedCount, 0, 'no mark: nothing written');
    assert.deepEqual(docs, [{ _id: 'h.example', at: new Date(2), hiddenScans: 1 }]);
  });

  it('no two indexes of a collection share a key pattern (MongoDB 4.4 refuses it)', () => {
    for (const [name, indexes] of Object.entries(Q.INDEXES)) {
      const keys = indexes.map((i) => JSON.stringify(i.key));
      assert.equal(new Set(keys).size, keys.length, name);
      for (const obsolete of Q.OBSOLETE_INDEXES[name as keyof typeof Q.INDEXES] ?? []) {
        assert.ok(!indexes.some((i) => i.name === obsolete), `${obsolete} is not created again`);
      }
    }
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
