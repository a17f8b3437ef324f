// StoreRepo on MongoDB, for many stateless instances sharing one cluster. Deliberately thin: every filter,
// sort and update comes from mongo-queries.ts (unit-tested with mingo). As in SQLite, `latest` holds only
// listed hosts; a delisted host's row is removed and rebuilt from its newest scan on relist.
import { MongoClient, MongoServerError } from 'mongodb';
import type { Collection, Db } from 'mongodb';
import * as Q from './mongo-queries.js';
import { MongoMonitoring } from './mongo-monitoring.js';
import { scanOutboxField } from './mongo-monitoring-queries.js';
import type { ApiKeyDoc, CounterDoc, DelistedDoc, LatestDoc, ScanDoc, UsageDoc } from './mongo-queries.js';
import type {
  ApiKeyRecord,
  LatestEntry,
  RankRow,
  RankWindow,
  RankWindowOptions,
  ScanJsonRecord,
  ScanRecord,
  StoreRepo,
  TopStoresOptions,
} from './repo.js';

function isDuplicateKey(err: unknown): boolean {
  return err instanceof MongoServerError && err.code === 11000;
}

// Concurrent first upserts of one _id can both miss and both insert; the loser succeeds on a retry.
async function retryOnDuplicate<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return op();
  }
}

function toLatest(d: LatestDoc): LatestEntry {
  return {
    host: d._id,
    scanId: d.scanId,
    vertical: d.vertical ?? null,
    score: d.score,
    grade: d.grade,
    capped: d.capped,
    agentReady: d.agentReady,
    updatedAt: d.updatedAt,
  };
}

/** The scan's fields without its report, shared by both reads of a scan. */
function scanFields(d: ScanDoc): Omit<ScanRecord, 'report'> {
  return {
    id: d._id,
    host: d.host,
    vertical: d.vertical ?? null,
    score: d.score,
    grade: d.grade,
    capped: d.capped,
    agentReady: d.agentReady,
    createdAt: d.createdAt,
    ownerKeyId: d.ownerKeyId ?? null,
  };
}

function toScan(d: ScanDoc): ScanRecord {
  return { ...scanFields(d), report: JSON.parse(d.report) as unknown };
}

/** toScan with the report left as its stored JSON text, in UTF-8 bytes. */
function toScanJson(d: ScanDoc): ScanJsonRecord {
  return { ...scanFields(d), reportJson: Buffer.from(d.report, 'utf8') };
}

function toApiKey(d: ApiKeyDoc): ApiKeyRecord {
  return { id: d.id, keyHash: d._id, owner: d.owner, plan: d.plan, createdAt: d.createdAt, revokedAt: d.revokedAt ?? null };
}

function count(n: number | undefined, dflt: number): number {
  return n === undefined ? dflt : Math.max(0, Math.floor(n));
}

export class MongoRepo implements StoreRepo {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly scans: Collection<ScanDoc>;
  private readonly latest: Collection<LatestDoc>;
  private readonly delisted: Collection<DelistedDoc>;
  private readonly apiKeys: Collection<ApiKeyDoc>;
  private readonly usage: Collection<UsageDoc>;
  private readonly counters: Collection<CounterDoc>;
  readonly monitoring: MongoMonitoring;

  constructor(uri: string, dbName: string) {
    this.client = new MongoClient(uri, { serverSelectionTimeoutMS: 2500 });
    this.db = this.client.db(dbName);
    this.scans = this.db.collection<ScanDoc>('scans');
    this.latest = this.db.collection<LatestDoc>('latest');
    this.delisted = this.db.collection<DelistedDoc>('delisted');
    this.apiKeys = this.db.collection<ApiKeyDoc>('api_keys');
    this.usage = this.db.collection<UsageDoc>('usage');
    this.counters = this.db.collection<CounterDoc>('counters');
    this.monitoring = new MongoMonitoring(this.db, (host) => this.isDelisted(host));
  }

  async init(): Promise<void> {
    await this.client.connect();
    await Promise.all([
      this.scans.createIndexes(Q.INDEXES.scans),
      this.latest.createIndexes(Q.INDEXES.latest),
      this.apiKeys.createIndexes(Q.INDEXES.api_keys),
      this.usage.createIndexes(Q.INDEXES.usage),
      this.monitoring.init(),
    ]);
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async allocateScanId(): Promise<number> {
    const doc = await retryOnDuplicate(() =>
      this.counters.findOneAndUpdate(Q.counterFilter(Q.SCAN_COUNTER), Q.counterIncrement(), {
        upsert: true,
        returnDocument: 'after',
      }),
    );
    if (!doc) throw new Error('MongoRepo: scan_id counter upsert returned nothing');
    return doc.n;
  }

  private async upsertLatest(scan: ScanRecord): Promise<void> {
    try {
      await this.latest.updateOne(Q.latestUpsertFilter(scan.host, scan.createdAt, scan.id), Q.latestUpsertUpdate(scan), {
        upsert: true,
      });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // a newer scan holds the row
    }
  }

  async saveScan(scan: ScanRecord): Promise<void> {
    await this.scans.insertOne({ ...Q.scanToDoc(scan), ...scanOutboxField(scan.events) }); // events: same document write
    if (await this.isDelisted(scan.host)) return;
    await this.upsertLatest(scan);
    // No transaction spans both collections: a delist that slipped in between must still win.
    if (await this.isDelisted(scan.host)) await this.latest.deleteOne(Q.latestByHost(scan.host));
  }

  async getScan(id: number): Promise<ScanRecord | null>;
  async getScan(id: number, report: 'json'): Promise<ScanJsonRecord | null>;
  async getScan(id: number, report?: 'json'): Promise<ScanRecord | ScanJsonRecord | null> {
    const doc = await this.scans.findOne(Q.scanById(id));
    if (!doc) return null;
    return report === 'json' ? toScanJson(doc) : toScan(doc);
  }

  async latestByHost(host: string): Promise<LatestEntry | null> {
    const doc = await this.latest.findOne(Q.latestByHost(host));
    return doc ? toLatest(doc) : null;
  }

  async latestByHosts(hosts: string[]): Promise<Map<string, LatestEntry>> {
    const out = new Map<string, LatestEntry>();
    if (hosts.length === 0) return out;
    for (const doc of await this.latest.find(Q.latestByHosts(hosts)).toArray()) out.set(doc._id, toLatest(doc));
    return out;
  }

  async rankWindow(host: string, opts: RankWindowOptions = {}): Promise<RankWindow | null> {
    const v = opts.vertical ?? null;
    const asIf = opts.asIf;
    const [delisted, ownDoc] = await Promise.all([this.isDelisted(host), this.latest.findOne(Q.latestByHost(host))]);
    if (delisted) return null;
    const own = ownDoc && (v === null || ownDoc.vertical === v) ? toLatest(ownDoc) : null;
    if (!asIf && !own) return null;

    const s = asIf ? asIf.score : own!.score;
    // With asIf the host's stored row is replaced by a hypothetical one: discount the stored one from every count.
    const ownOut = asIf !== undefined && own !== null;
    const aboveCount = async (t: number): Promise<number> =>
      (await this.latest.countDocuments(Q.rankCountFilter(t, v))) -
      (ownOut && own.score > t ? 1 : 0) +
      (asIf && s > t ? 1 : 0);

    const nAbove = count(opts.above, 2);
    const nBelow = count(opts.below, 2);
    const up = Q.neighborsAbove(host, s, v);
    const down = Q.neighborsBelow(host, s, v);
    const [total, upDocs, downDocs] = await Promise.all([
      this.countScope(v),
      nAbove > 0 ? this.latest.find(up.filter).sort(up.sort).limit(nAbove).toArray() : [],
      nBelow > 0 ? this.latest.find(down.filter).sort(down.sort).limit(nBelow).toArray() : [],
    ]);

    const self: LatestEntry = asIf
      ? {
          ...(ownDoc
            ? toLatest(ownDoc)
            : { host, scanId: 0, capped: false, agentReady: false, updatedAt: new Date() }),
          vertical: v ?? ownDoc?.vertical ?? null,
          score: asIf.score,
          grade: asIf.grade,
        }
      : own!;
    const entries = [...upDocs.reverse().map(toLatest), self, ...downDocs.map(toLatest)];
    const scores = [...new Set(entries.map((e) => e.score))];
    const ranks = new Map(await Promise.all(scores.map(async (t) => [t, 1 + (await aboveCount(t))] as const)));
    const rows: RankRow[] = entries.map((e) => ({ ...e, rank: ranks.get(e.score)! }));
    return { host, rank: ranks.get(s)!, total: total - (ownOut ? 1 : 0) + (asIf ? 1 : 0), rows };
  }

  // Ranks are competition ranks within the listed entries that pass the same filters.
  async topStores(opts: TopStoresOptions): Promise<RankRow[]> {
    const limit = count(opts.limit, 0);
    const offset = count(opts.offset, 0);
    if (limit === 0) return [];
    const docs = await this.latest.find(Q.topStoresFilter(opts)).sort(Q.RANK_SORT).skip(offset).limit(limit).toArray();
    if (docs.length === 0) return [];
    const first = offset === 0 ? 1 : 1 + (await this.latest.countDocuments(Q.topStoresAboveFilter(opts, docs[0].score)));
    const out: RankRow[] = [];
    docs.forEach((d, i) => {
      const prev = out[i - 1];
      const rank = i === 0 ? first : d.score === prev.score ? prev.rank : offset + i + 1;
      out.push({ ...toLatest(d), rank });
    });
    return out;
  }

  // countDocuments({}) would walk every document; the collection's own count is exact on a replica set (it can
  // overcount only with orphaned documents mid-migration on a sharded cluster).
  private countScope(vertical: string | null): Promise<number> {
    return vertical === null ? this.latest.estimatedDocumentCount() : this.latest.countDocuments(Q.scopeFilter(vertical));
  }

  async countStores(vertical?: string | null): Promise<number> {
    return this.countScope(vertical ?? null);
  }

  async setDelisted(host: string, delisted: boolean): Promise<void> {
    if (delisted) {
      // Mark first, then remove: a concurrent saveScan re-checks the mark after its own upsert.
      await retryOnDuplicate(() =>
        this.delisted.updateOne(Q.delistedByHost(host), Q.delistedMark(new Date()), { upsert: true }),
      );
      await this.latest.deleteOne(Q.latestByHost(host));
      return;
    }
    const removed = await this.delisted.deleteOne(Q.delistedByHost(host));
    if (removed.deletedCount === 0) return;
    const newest = await this.scans.findOne(Q.scansOfHost(host), { sort: Q.NEWEST_SCAN_SORT });
    if (!newest) return;
    let vertical = newest.vertical;
    if (vertical === null) {
      const withVertical = await this.scans.findOne(Q.scansOfHostWithVertical(host), { sort: Q.NEWEST_SCAN_SORT });
      vertical = withVertical?.vertical ?? null;
    }
    await this.upsertLatest({ ...toScan(newest), vertical });
  }

  async isDelisted(host: string): Promise<boolean> {
    return (await this.delisted.findOne(Q.delistedByHost(host), { projection: { _id: 1 } })) !== null;
  }

  async putApiKey(rec: ApiKeyRecord): Promise<void> {
    await this.apiKeys.replaceOne(Q.apiKeyByHash(rec.keyHash), Q.apiKeyToDoc(rec), { upsert: true });
  }

  async findApiKey(keyHash: string): Promise<ApiKeyRecord | null> {
    const doc = await this.apiKeys.findOne(Q.apiKeyByHash(keyHash));
    return doc ? toApiKey(doc) : null;
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return (await this.apiKeys.find({}).sort(Q.API_KEY_SORT).toArray()).map(toApiKey);
  }

  async revokeApiKey(id: string, at: Date): Promise<boolean> {
    const res = await this.apiKeys.updateOne(Q.apiKeyById(id), Q.apiKeyRevoke(at));
    return res.matchedCount > 0;
  }

  async incrementUsage(key: string, period: string, by = 1): Promise<number> {
    const doc = await retryOnDuplicate(() =>
      this.usage.findOneAndUpdate(Q.usageFilter(key, period), Q.usageIncrement(key, period, by), {
        upsert: true,
        returnDocument: 'after',
      }),
    );
    if (!doc) throw new Error('MongoRepo: usage upsert returned nothing');
    return doc.n;
  }

  async getUsage(key: string, period: string): Promise<number> {
    return (await this.usage.findOne(Q.usageFilter(key, period)))?.n ?? 0;
  }

  async sumUsage(key: string, periods: string[]): Promise<number> {
    if (periods.length === 0) return 0;
    const [row] = await this.usage.aggregate<{ n: number }>(Q.usageSumPipeline(key, periods)).toArray();
    return row?.n ?? 0;
  }

  async pruneUsage(periodsBefore: string): Promise<void> {
    await this.usage.deleteMany(Q.usagePruneFilter(periodsBefore));
  }
}
