// Every document MongoRepo sends to the server, built by pure functions so their meaning can be checked with
// mingo (test/store/mongo-queries.test.ts) where no real server is available. Values that come from callers
// always sit under $eq/$in/$literal, so a string such as '{"$gt":""}' or '$field' is only ever data.
import type { Document, Filter, IndexDescription, UpdateFilter } from 'mongodb';
import type { ApiKeyRecord, ScanRecord, TopStoresOptions } from './repo.js';
import { HOST_PREFIX_WINDOW, prefixEnd } from './repo.js';

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
  report: string; // JSON text: the report comes back byte for byte, whatever keys or number types it holds
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

export const INDEXES: Record<'scans' | 'latest' | 'api_keys' | 'usage', IndexDescription[]> = {
  scans: [{ key: { host: 1, createdAt: -1 }, name: 'host_created' }],
  latest: [
    { key: { score: -1, _id: 1 }, name: 'score_host' },
    { key: { vertical: 1, score: -1, _id: 1 }, name: 'vertical_score_host' },
    { key: { score: -1, _id: 1 }, name: 'ready_score_host', partialFilterExpression: { agentReady: true } },
  ],
  api_keys: [{ key: { id: 1 }, name: 'id', unique: true }],
  usage: [{ key: { period: 1 }, name: 'period' }],
};

export const SCAN_COUNTER = 'scan_id';

export function counterFilter(name: string): Filter<CounterDoc> {
  return { _id: { $eq: name } };
}

export function counterIncrement(): UpdateFilter<CounterDoc> {
  return { $inc: { n: 1 } };
}

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
    report: JSON.stringify(scan.report) ?? 'null',
  };
}

export function scanById(id: number): Filter<ScanDoc> {
  return { _id: { $eq: id } };
}

// Newest first; the id breaks ties between scans stamped with the same instant.
export const NEWEST_SCAN_SORT: SortSpec = { createdAt: -1, _id: -1 };

export function scansOfHost(host: string): Filter<ScanDoc> {
  return { host: { $eq: host } };
}

export function scansOfHostWithVertical(host: string): Filter<ScanDoc> {
  return { host: { $eq: host }, vertical: { $ne: null } };
}

export function latestByHost(host: string): Filter<LatestDoc> {
  return { _id: { $eq: host } };
}

export function latestByHosts(hosts: string[]): Filter<LatestDoc> {
  // $in compares its elements as values; dropping non-strings keeps a stray object from reaching the server at all.
  return { _id: { $in: hosts.filter((h) => typeof h === 'string') } };
}

// Matches the host's row only when it is older than the scan (same instant: a lower scan id, the order a relist
// rebuilds in). With upsert, a miss on an existing (newer) row makes the insert collide on _id (E11000), which
// the caller ignores; a miss on no row inserts.
export function latestUpsertFilter(host: string, createdAt: Date, scanId: number): Filter<LatestDoc> {
  return {
    _id: { $eq: host },
    $or: [{ updatedAt: { $lt: createdAt } }, { updatedAt: { $eq: createdAt }, scanId: { $lte: scanId } }],
  };
}

// Pipeline update, so that a scan without a vertical keeps the one the host already has.
export function latestUpsertUpdate(scan: ScanRecord): Document[] {
  return [
    {
      $set: {
        scanId: { $literal: scan.id },
        vertical: scan.vertical === null ? { $ifNull: ['$vertical', null] } : { $literal: scan.vertical },
        score: { $literal: scan.score },
        grade: { $literal: scan.grade },
        capped: { $literal: scan.capped },
        agentReady: { $literal: scan.agentReady },
        updatedAt: { $literal: scan.createdAt },
      },
    },
  ];
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
