// Every document MongoRepo sends to the server, built by pure functions so their meaning can be checked with
// mingo (test/db/mongo/queries.test.ts) where no real server is available. Values that come from callers
// always sit under $eq/$in/$literal, so a string such as '{"$gt":""}' or '$field' is only ever data.
import type { AnyBulkWriteOperation, Document, Filter, IndexDescription, UpdateFilter } from 'mongodb';
import type { ApiKeyRecord, ScanRecord, TopStoresOptions } from '../repo.js';
import { HOST_PREFIX_WINDOW, prefixEnd } from '../repo.js';

export interface ScanDoc {
  _id: number;
  host: string;
  vertical: string | null;
  score: number;
  grade: string;
  capped: boolean;
  agentReady: boolean;
  createdAt: Date;
  ownerKeyId: string | null;
  ownerAccountId?: string; // present only while the scan belongs to a console account
  report: string; // JSON text: the report comes back byte for byte, whatever keys or number types it holds
  publicEntry?: boolean; // false: never the host's latest row (absent in documents from before the field)
}

export interface LatestDoc {
  _id: string; // host
  scanId: number;
  vertical: string | null;
  score: number;
  grade: string;
  capped: boolean;
  agentReady: boolean;
  updatedAt: Date;
}

export interface DelistedDoc {
  _id: string; // host
  at: Date;
  hiddenScans?: number; // scans saved while delisted; each save writes it, so that it conflicts with a relist
}

/** One score of one scope ('*' the whole index, 'v:<vertical>' one vertical) and how many listed hosts hold it. */
export interface BucketDoc {
  _id: string;
  scope: string;
  band: number;
  score: number;
  n: number;
}

/** The sum of a scope's buckets in one band of BAND_WIDTH scores. */
export interface BandDoc {
  _id: string;
  scope: string;
  band: number;
  n: number;
}

export interface ApiKeyDoc {
  _id: string; // keyHash
  id: string;
  owner: string;
  plan: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface UsageDoc {
  _id: string;
  key: string;
  period: string;
  n: number;
}

export interface CounterDoc {
  _id: string;
  n: number;
}

export type SortSpec = Record<string, 1 | -1>;

// No two indexes of a collection share a key pattern (MongoDB 4.4 refuses that even with different partial filters).
export const INDEXES: Record<'scans' | 'latest' | 'api_keys' | 'usage' | 'score_buckets' | 'score_bands', IndexDescription[]> = {
  scans: [{ key: { host: 1, createdAt: -1, _id: -1 }, name: 'host_created_id' }],
  latest: [
    { key: { score: -1, _id: 1 }, name: 'score_host' },
    { key: { vertical: 1, score: -1, _id: 1 }, name: 'vertical_score_host' },
    { key: { agentReady: 1, score: -1, _id: 1 }, name: 'agent_ready_score_host', partialFilterExpression: { agentReady: true } },
  ],
  api_keys: [{ key: { id: 1 }, name: 'id', unique: true }],
  usage: [{ key: { period: 1 }, name: 'period' }],
  score_buckets: [{ key: { scope: 1, band: 1, score: -1 }, name: 'scope_band_score' }],
  score_bands: [{ key: { scope: 1, band: -1 }, name: 'scope_band' }],
};

// Indexes of earlier versions that the ones above replace; dropped at start-up when present.
export const OBSOLETE_INDEXES: Partial<Record<keyof typeof INDEXES, string[]>> = {
  scans: ['host_created'],
  latest: ['ready_score_host'],
};

export const SCAN_COUNTER = 'scan_id';

export function counterFilter(name: string): Filter<CounterDoc> {
  return { _id: { $eq: name } };
}

export function counterIncrement(): UpdateFilter<CounterDoc> {
  return { $inc: { n: 1 } };
}

// Raises the counter to at least the highest stored id (an import, a lost counter); never lowers it.
export function counterAtLeast(n: number): UpdateFilter<CounterDoc> {
  return { $max: { n } };
}

export const HIGHEST_ID_SORT: SortSpec = { _id: -1 };

export function scanToDoc(scan: ScanRecord): ScanDoc {
  return {
    _id: scan.id,
    host: scan.host,
    vertical: scan.vertical,
    score: scan.score,
    grade: scan.grade,
    capped: scan.capped,
    agentReady: scan.agentReady,
    createdAt: scan.createdAt,
    ownerKeyId: scan.ownerKeyId,
    ...(scan.ownerAccountId ? { ownerAccountId: scan.ownerAccountId } : {}),
    report: JSON.stringify(scan.report) ?? 'null',
    publicEntry: scan.publicEntry !== false,
  };
}

export function scanById(id: number): Filter<ScanDoc> {
  return { _id: { $eq: id } };
}

// Newest first; the id breaks ties between scans stamped with the same instant.
export const NEWEST_SCAN_SORT: SortSpec = { createdAt: -1, _id: -1 };

/** The scans a relist may rebuild the host's latest row from: its public-entry scans. */
export function scansOfHost(host: string): Filter<ScanDoc> {
  return { host: { $eq: host }, publicEntry: { $ne: false } };
}

export function scansOfHostWithVertical(host: string): Filter<ScanDoc> {
  return { host: { $eq: host }, publicEntry: { $ne: false }, vertical: { $ne: null } };
}

export function latestByHost(host: string): Filter<LatestDoc> {
  return { _id: { $eq: host } };
}

export function latestByHosts(hosts: string[]): Filter<LatestDoc> {
  // $in compares its elements as values; dropping non-strings keeps a stray object from reaching the server at all.
  return { _id: { $in: hosts.filter((h) => typeof h === 'string') } };
}

// Whether `scan` replaces the host's row `prev`: newest instant wins, and of one instant the higher scan id (the
// order a relist rebuilds in). The same rule as latestUpsertUpdate's, for the caller that keeps counts.
export function scanWins(prev: Pick<LatestDoc, 'updatedAt' | 'scanId'> | null, scan: Pick<ScanRecord, 'createdAt' | 'id'>): boolean {
  if (!prev) return true;
  const [a, b] = [prev.updatedAt.getTime(), scan.createdAt.getTime()];
  return a < b || (a === b && prev.scanId <= scan.id);
}

/** The host's row after `scan` is applied to `prev` (what latestUpsertUpdate leaves). */
export function latestAfter(prev: LatestDoc | null, scan: ScanRecord): LatestDoc {
  if (prev && !scanWins(prev, scan)) return prev;
  return {
    _id: scan.host,
    scanId: scan.id,
    vertical: scan.vertical ?? prev?.vertical ?? null,
    score: scan.score,
    grade: scan.grade,
    capped: scan.capped,
    agentReady: scan.agentReady,
    updatedAt: scan.createdAt,
  };
}

// Pipeline update for an upsert filtered on _id alone: every field moves only when the scan is newer than the
// row (a new row has no scanId yet). An equality filter lets the server retry a duplicate-key upsert of two
// first saves, and lets the newer scan win in either order; a scan without a vertical keeps the host's one.
export function latestUpsertUpdate(scan: ScanRecord): Document[] {
  const wins = {
    $or: [
      { $eq: [{ $ifNull: ['$scanId', null] }, null] },
      { $lt: ['$updatedAt', { $literal: scan.createdAt }] },
      { $and: [{ $eq: ['$updatedAt', { $literal: scan.createdAt }] }, { $lte: ['$scanId', { $literal: scan.id }] }] },
    ],
  };
  const next = (field: keyof LatestDoc, value: unknown) => ({ $cond: [wins, value, `$${field}`] });
  return [
    {
      $set: {
        scanId: next('scanId', { $literal: scan.id }),
        vertical: next('vertical', scan.vertical === null ? { $ifNull: ['$vertical', null] } : { $literal: scan.vertical }),
        score: next('score', { $literal: scan.score }),
        grade: next('grade', { $literal: scan.grade }),
        capped: next('capped', { $literal: scan.capped }),
        agentReady: next('agentReady', { $literal: scan.agentReady }),
        updatedAt: next('updatedAt', { $literal: scan.createdAt }),
      },
    },
  ];
}

// The owner's or the operator's vertical for a listed host's row; the value is data ($set of a plain update).
export function latestSetVertical(vertical: string): UpdateFilter<LatestDoc> {
  return { $set: { vertical } };
}

// A write to the host's row (creating it if need be) before a delist deletes it: a save running at the same
// time then conflicts with the delist's transaction, where snapshot isolation would let both commit.
export function latestTouch(): UpdateFilter<LatestDoc> {
  return { $set: { delisting: true } } as UpdateFilter<LatestDoc>;
}

// The whole index, or one vertical of it.
export function scopeFilter(vertical: string | null): Filter<LatestDoc> {
  return vertical === null ? {} : { vertical: { $eq: vertical } };
}

// Listed hosts strictly above `score`: the competition rank is this count plus one.
export function rankCountFilter(score: number, vertical: string | null): Filter<LatestDoc> {
  return { ...scopeFilter(vertical), score: { $gt: score } };
}

export const RANK_SORT: SortSpec = { score: -1, _id: 1 };

export interface NeighborQuery {
  filter: Filter<LatestDoc>;
  sort: SortSpec;
}

// The rows just above (score, host) in rank order, nearest first: sort ascending, limit, then reverse.
// Each $or branch has its own tight bounds on {score:-1,_id:1}, so the server merges two short index scans.
// `_id $ne` drops the host's own stored row when it is being ranked as if it had another score.
export function neighborsAbove(host: string, score: number, vertical: string | null): NeighborQuery {
  return {
    filter: {
      $or: [
        { ...scopeFilter(vertical), score: { $gt: score }, _id: { $ne: host } },
        { ...scopeFilter(vertical), score: { $eq: score }, _id: { $lt: host } },
      ],
    },
    sort: { score: 1, _id: -1 },
  };
}

// The rows just below (score, host) in rank order, nearest first.
export function neighborsBelow(host: string, score: number, vertical: string | null): NeighborQuery {
  return {
    filter: {
      $or: [
        { ...scopeFilter(vertical), score: { $lt: score }, _id: { $ne: host } },
        { ...scopeFilter(vertical), score: { $eq: score }, _id: { $gt: host } },
      ],
    },
    sort: { score: -1, _id: 1 },
  };
}

export function topStoresFilter(opts: Pick<TopStoresOptions, 'vertical' | 'agentReadyOnly' | 'since'>): Filter<LatestDoc> {
  return {
    ...scopeFilter(opts.vertical ?? null),
    ...(opts.agentReadyOnly ? { agentReady: { $eq: true } } : {}),
    ...(opts.since !== undefined ? { updatedAt: { $gte: opts.since } } : {}),
  };
}

// Entries passing the same filters with a higher score: the rank of the first row of a page.
export function topStoresAboveFilter(
  opts: Pick<TopStoresOptions, 'vertical' | 'agentReadyOnly' | 'since'>,
  score: number,
): Filter<LatestDoc> {
  return { ...topStoresFilter(opts), score: { $gt: score } };
}

// Hosts starting with `prefix`: a range on _id (the host index) in host order, cut at the window, then ranked by
// score. `latest` holds listed hosts only, so no delisted host can appear.
export function hostsByPrefixPipeline(prefix: string, limit: number): Document[] {
  return [
    { $match: { _id: { $gte: prefix, $lt: prefixEnd(prefix) } } },
    { $sort: { _id: 1 } },
    { $limit: HOST_PREFIX_WINDOW },
    { $sort: { score: -1, _id: 1 } },
    { $limit: limit },
    { $project: { _id: 1 } },
  ];
}

export function delistedByHost(host: string): Filter<DelistedDoc> {
  return { _id: { $eq: host } };
}

export function delistedMark(at: Date): UpdateFilter<DelistedDoc> {
  return { $set: { at } };
}

// A save of a delisted host writes its mark, so that a relist deleting the mark at the same time conflicts with it.
export function delistedHiddenScan(): UpdateFilter<DelistedDoc> {
  return { $inc: { hiddenScans: 1 } };
}

// ---- Score histogram: rank counts and totals as sums over a few dozen documents, whatever the number of hosts.

export const BAND_WIDTH = 5;
export const bandOf = (score: number): number => Math.floor(score / BAND_WIDTH);
export const scopeOf = (vertical: string | null): string => (vertical === null ? '*' : `v:${vertical}`);
const scopesOf = (vertical: string | null): string[] => (vertical === null ? ['*'] : ['*', `v:${vertical}`]);
const bucketId = (scope: string, score: number): string => `${scope}\u0000${score}`;
const bandId = (scope: string, band: number): string => `${scope}\u0000${band}`;

export interface Counted {
  score: number;
  vertical: string | null;
}

export interface CountWrites {
  buckets: AnyBulkWriteOperation<BucketDoc>[];
  bands: AnyBulkWriteOperation<BandDoc>[];
}

/**
 * The increments that move one host from `prev` to `next` in the histogram (null: not listed). The _id fixes
 * scope, band and score, so $set of them (rather than $setOnInsert) writes the same values on every update.
 */
export function countMoves(prev: Counted | null, next: Counted | null): CountWrites {
  const buckets = new Map<string, { scope: string; score: number; n: number }>();
  const bands = new Map<string, { scope: string; band: number; n: number }>();
  const add = (c: Counted | null, delta: number) => {
    if (!c) return;
    for (const scope of scopesOf(c.vertical)) {
      const bu = buckets.get(bucketId(scope, c.score)) ?? { scope, score: c.score, n: 0 };
      buckets.set(bucketId(scope, c.score), { ...bu, n: bu.n + delta });
      const ba = bands.get(bandId(scope, bandOf(c.score))) ?? { scope, band: bandOf(c.score), n: 0 };
      bands.set(bandId(scope, ba.band), { ...ba, n: ba.n + delta });
    }
  };
  add(prev, -1);
  add(next, 1);
  return {
    buckets: [...buckets]
      .filter(([, b]) => b.n !== 0)
      .map(([_id, b]) => ({
        updateOne: {
          filter: { _id: { $eq: _id } },
          update: { $inc: { n: b.n }, $set: { scope: b.scope, band: bandOf(b.score), score: b.score } },
          upsert: true,
        },
      })),
    bands: [...bands]
      .filter(([, b]) => b.n !== 0)
      .map(([_id, b]) => ({
        updateOne: {
          filter: { _id: { $eq: _id } },
          update: { $inc: { n: b.n }, $set: { scope: b.scope, band: b.band } },
          upsert: true,
        },
      })),
  };
}

/** The histogram of `latest` from scratch, from its rows grouped by (vertical, score) (HISTOGRAM_GROUPS). */
export function histogramDocs(groups: { _id: { vertical: string | null; score: number }; n: number }[]): {
  buckets: BucketDoc[];
  bands: BandDoc[];
} {
  const buckets = new Map<string, BucketDoc>();
  const bands = new Map<string, BandDoc>();
  for (const g of groups) {
    for (const scope of scopesOf(g._id.vertical ?? null)) {
      const score = g._id.score;
      const bu = buckets.get(bucketId(scope, score)) ?? { _id: bucketId(scope, score), scope, band: bandOf(score), score, n: 0 };
      bu.n += g.n;
      buckets.set(bu._id, bu);
      const ba = bands.get(bandId(scope, bandOf(score))) ?? { _id: bandId(scope, bandOf(score)), scope, band: bandOf(score), n: 0 };
      ba.n += g.n;
      bands.set(ba._id, ba);
    }
  }
  return { buckets: [...buckets.values()], bands: [...bands.values()] };
}

export const HISTOGRAM_GROUPS: Document[] = [{ $group: { _id: { vertical: '$vertical', score: '$score' }, n: { $sum: 1 } } }];

// The counter document that says the histogram is kept (it is only where every write runs in a transaction).
export const HISTOGRAM_MARK = 'score_histogram';

export function bandsOfScope(scope: string): Filter<BandDoc> {
  return { scope: { $eq: scope } };
}

export function bucketsInBands(scope: string, bands: number[]): Filter<BucketDoc> {
  return { scope: { $eq: scope }, band: { $in: bands } };
}

export const BANDS_DESC: SortSpec = { band: -1 };
export const BUCKETS_DESC: SortSpec = { score: -1 };

/** Rank counts from a scope's bands and the buckets of the bands asked about. */
export function histogramCounts(bands: Pick<BandDoc, 'band' | 'n'>[], buckets: Pick<BucketDoc, 'band' | 'score' | 'n'>[]) {
  return {
    total: bands.reduce((sum, b) => sum + b.n, 0),
    /** Listed hosts strictly above `score`; its band's buckets must be among `buckets`. */
    above: (score: number): number => {
      const band = bandOf(score);
      return (
        bands.filter((b) => b.band > band).reduce((sum, b) => sum + b.n, 0) +
        buckets.filter((b) => b.band === band && b.score > score).reduce((sum, b) => sum + b.n, 0)
      );
    },
  };
}

/**
 * The score at position `offset` (0-based) of the rank order and how many hosts rank above it, found by walking
 * bands then one band's buckets from the top: a deep page then skips only within one score's ties.
 */
export async function scoreAtOffset(
  bandsDesc: Pick<BandDoc, 'band' | 'n'>[],
  bucketsOfBand: (band: number) => Promise<Pick<BucketDoc, 'score' | 'n'>[]>,
  offset: number,
): Promise<{ score: number; above: number } | null> {
  let before = 0;
  for (const b of bandsDesc) {
    if (before + b.n <= offset) {
      before += b.n;
      continue;
    }
    for (const bucket of (await bucketsOfBand(b.band)).sort((x, y) => y.score - x.score)) {
      if (before + bucket.n > offset) return { score: bucket.score, above: before };
      before += bucket.n;
    }
    return null; // bands and buckets disagree: the caller falls back to skipping
  }
  return null;
}

// The rank order from `score` down, within the same filters: a deep page starts in this score's ties.
export function fromScoreDown(filter: Filter<LatestDoc>, score: number): Filter<LatestDoc> {
  return { ...filter, score: { $lte: score } };
}

export function apiKeyToDoc(rec: ApiKeyRecord): ApiKeyDoc {
  return { _id: rec.keyHash, id: rec.id, owner: rec.owner, plan: rec.plan, createdAt: rec.createdAt, revokedAt: rec.revokedAt };
}

export function apiKeyByHash(keyHash: string): Filter<ApiKeyDoc> {
  return { _id: { $eq: keyHash } };
}

export function apiKeyById(id: string): Filter<ApiKeyDoc> {
  return { id: { $eq: id } };
}

export const API_KEY_SORT: SortSpec = { createdAt: 1, id: 1 };

// A second revoke keeps the first instant: that is when the key stopped working.
export function apiKeyRevoke(at: Date): Document[] {
  return [{ $set: { revokedAt: { $ifNull: ['$revokedAt', { $literal: at }] } } }];
}

export function usageId(key: string, period: string): string {
  return `${key}\u0000${period}`;
}

export function usageFilter(key: string, period: string): Filter<UsageDoc> {
  return { _id: { $eq: usageId(key, period) } };
}

// key and period are $set (not $setOnInsert) so that the same document works as a plain update too.
export function usageIncrement(key: string, period: string, by: number): UpdateFilter<UsageDoc> {
  return { $inc: { n: by }, $set: { key, period } };
}

export function usageSumPipeline(key: string, periods: string[]): Document[] {
  return [
    { $match: { _id: { $in: periods.map((p) => usageId(key, p)) } } },
    { $group: { _id: null, n: { $sum: '$n' } } },
  ];
}

export function usagePruneFilter(periodsBefore: string): Filter<UsageDoc> {
  return { period: { $lt: periodsBefore } };
}

/** The readiness probe's one document, in `health_probe`: /readyz on every instance writes the time of its probe. */
export interface HealthDoc {
  _id: string;
  at: Date;
}

export const HEALTH_PROBE_ID = 'readiness';

export function healthProbeFilter(): Filter<HealthDoc> {
  return { _id: { $eq: HEALTH_PROBE_ID } };
}

export function healthProbeWrite(at: Date): UpdateFilter<HealthDoc> {
  return { $set: { at } };
}
