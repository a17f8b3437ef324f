// Repository on MongoDB, for many stateless instances sharing one deployment. Deliberately thin: every filter,
// sort and update comes from queries.ts (unit-tested with mingo). As in SQLite, `latest` holds only
// listed hosts; a delisted host's row is removed and rebuilt from its newest scan on relist.
//
// Rules every collection of the service follows here (new ones too: accounts, sessions, leases, outbox ...):
// - Writes that touch several documents go through `this.withTransaction(fn)`. On a replica set or sharded
//   cluster fn runs as one transaction (snapshot reads, majority commit, retried a few times on transient
//   errors); on a standalone it runs as the ordered writes it is, with session undefined, so fn must order them
//   so that the same call repeated after a failure half-way repairs what the failure left (see saveScan and
//   setDelisted). Pass `this.opts(session)` to every operation inside fn.
// - Two transactions that read a document and write another can both commit (snapshot isolation): make writers
//   that must exclude each other write one common document (see Q.latestTouch, Q.delistedHiddenScan).
// - Upserts filter on equality only (_id or a unique key), so the server retries a duplicate-key upsert of two
//   first writers; conditions go in a pipeline update ($cond), not in the filter (Q.latestUpsertUpdate).
// - Reads go to the primary (read-after-write, re-checks), whatever the URI asks; reads carry maxTimeMS and the
//   client has socket, pool and write-concern time limits, so a slow or lost server fails fast as a 503
//   (lib/db-failure.ts), never hangs. (The driver's timeoutMS option is ignored by this driver version.)
// - Rows that expire get a TTL index on their expiry Date ({ expireAfterSeconds: 0 }) in Q.INDEXES; readers
//   still check the expiry, since the TTL monitor removes rows only about once a minute.
// - Counts that pages ask for on every request are kept as counters in the same transaction as the rows
//   (the score histogram here), never counted by walking an index.
import { scanIdOf, sequenceOf } from '../../lib/scan-ids.js';
import { MongoClient, MongoError, MongoErrorLabel, MongoServerError } from 'mongodb';
import type { ClientSession, Collection, Db, MongoClientOptions, TransactionOptions } from 'mongodb';
import * as Q from './queries.js';
import { MongoMonitoring } from './monitoring.js';
import { scanOutboxField } from './monitoring-queries.js';
import type { ApiKeyDoc, BandDoc, BucketDoc, CounterDoc, DelistedDoc, HealthDoc, LatestDoc, ScanDoc, UsageDoc } from './queries.js';
import type {
  ApiKeyRecord,
  LatestEntry,
  RankRow,
  RankWindow,
  RankWindowOptions,
  ScanJsonRecord,
  ScanRecord,
  Repository,
  TopStoresOptions,
} from '../repo.js';
import { assertVertical, HOST_PREFIX_MAX } from '../repo.js';
import { MongoAccounts } from './accounts.js';
import { MongoAudits, MongoQueue } from './queue.js';
import { MongoSigningKeys, SIGNING_KEYS_COLLECTION } from './signing-keys.js';
import { toLatest, toScan, toScanJson } from './docs.js';
import type { MongoRunner } from './runner.js';
import { DatabaseUnavailableError } from '../../lib/db-failure.js';

/** Server-side limit of one read, and the client-side limits derived from it. */
export const STORE_TIMEOUT_MS = 5000;
/** How long the readiness probe may take: a deployment that neither takes nor refuses its write by then is not ready. */
export const READY_TIMEOUT_MS = 2000;
const TX_ATTEMPTS = 8;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TX_OPTIONS: TransactionOptions = {
  readPreference: 'primary',
  readConcern: { level: 'snapshot' },
  writeConcern: { w: 'majority', wtimeoutMS: STORE_TIMEOUT_MS },
  maxCommitTimeMS: STORE_TIMEOUT_MS,
};

/** Client options every MongoDB client of the service uses: primary reads, majority writes, bounded waits. */
export const MONGO_CLIENT_OPTIONS: MongoClientOptions = {
  serverSelectionTimeoutMS: 2500,
  waitQueueTimeoutMS: STORE_TIMEOUT_MS,
  socketTimeoutMS: 2 * STORE_TIMEOUT_MS,
  readPreference: 'primary',
  writeConcern: { w: 'majority', wtimeoutMS: STORE_TIMEOUT_MS },
  retryWrites: true,
  retryReads: true,
};

/** A replica set or a sharded cluster: the deployments with multi-document transactions. */
export async function supportsTransactions(db: Db): Promise<boolean> {
  const hello = await db.command({ hello: 1 });
  return typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
}

/**
 * Runs fn as one transaction where the deployment has them (`transactional`), retried on transient errors
 * (write conflicts, elections) a few times; on a standalone, runs fn once with session undefined (see the rules
 * at the top). fn may run more than once: it must keep no effects outside the store between attempts.
 */
export async function withTransaction<T>(
  client: MongoClient,
  transactional: boolean,
  fn: (session: ClientSession | undefined) => Promise<T>,
): Promise<T> {
  if (!transactional) return fn(undefined);
  const session = client.startSession();
  try {
    for (let attempt = 1; ; attempt++) {
      session.startTransaction(TX_OPTIONS);
      try {
        const out = await fn(session);
        await session.commitTransaction();
        return out;
      } catch (err) {
        if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
        const transient = err instanceof MongoError && err.hasErrorLabel(MongoErrorLabel.TransientTransactionError);
        if (!transient || attempt >= TX_ATTEMPTS) throw err;
        await pause(Math.random() * 10 * attempt);
      }
    }
  } finally {
    await session.endSession().catch(() => undefined); // best effort: the outcome is already decided
  }
}

/**
 * Options for one operation: its session, and outside a transaction the server-side time limit (a transaction
 * is bounded by maxCommitTimeMS, the server's transaction lifetime and the socket timeout instead).
 */
export function opOptions(session: ClientSession | undefined): { session?: ClientSession; maxTimeMS?: number } {
  return session ? { session } : { maxTimeMS: STORE_TIMEOUT_MS };
}

/**
 * Both reads at once outside a transaction; one after the other inside one, where the driver does not support
 * operations running in parallel on the session.
 */
export async function both<A, B>(session: ClientSession | undefined, a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> {
  if (!session) return Promise.all([a(), b()]);
  const ra = await a();
  return [ra, await b()];
}

/** Creates the collections a transaction writes to: creating one inside a transaction needs 4.4 and no sharding. */
export async function ensureCollections(db: Db, names: string[]): Promise<void> {
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const name of names.filter((n) => !existing.has(n))) {
    await db.createCollection(name).catch((err: unknown) => {
      if (!(err instanceof MongoServerError && err.code === 48)) throw err; // NamespaceExists: another instance won
    });
  }
}

function isDuplicateKey(err: unknown): boolean {
  return err instanceof MongoServerError && err.code === 11000;
}

// Outside a transaction, concurrent first upserts of one _id can both miss and both insert; the loser succeeds
// on a retry (the server retries most such upserts itself; this covers the rest).
async function retryOnDuplicate<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return op();
  }
}

function toApiKey(d: ApiKeyDoc): ApiKeyRecord {
  return { id: d.id, keyHash: d._id, owner: d.owner, plan: d.plan, createdAt: d.createdAt, revokedAt: d.revokedAt ?? null };
}

function count(n: number | undefined, dflt: number): number {
  return n === undefined ? dflt : Math.max(0, Math.floor(n));
}

/** Rank counts of one scope: listed hosts above a score, and in all. */
interface ScopeCounts {
  total: number;
  above: (score: number) => number;
}

export class MongoRepo implements Repository {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly scans: Collection<ScanDoc>;
  private readonly latest: Collection<LatestDoc>;
  private readonly delisted: Collection<DelistedDoc>;
  private readonly apiKeys: Collection<ApiKeyDoc>;
  private readonly usage: Collection<UsageDoc>;
  private readonly counters: Collection<CounterDoc>;
  readonly monitoring: MongoMonitoring;
  private readonly buckets: Collection<BucketDoc>;
  private readonly bands: Collection<BandDoc>;
  private readonly health: Collection<HealthDoc>;
  /** The readiness probe within its bound, shared by the /readyz calls that arrive meanwhile. */
  private probe: Promise<void> | undefined;
  /** A replica set or sharded cluster: multi-document transactions, and with them the score histogram. */
  private transactions = false;
  readonly accounts: MongoAccounts;
  readonly queue: MongoQueue;
  readonly audits: MongoAudits;
  readonly signingKeys: MongoSigningKeys;

  constructor(uri: string, dbName: string) {
    this.client = new MongoClient(uri, MONGO_CLIENT_OPTIONS);
    this.db = this.client.db(dbName);
    this.scans = this.db.collection<ScanDoc>('scans');
    this.latest = this.db.collection<LatestDoc>('latest');
    this.delisted = this.db.collection<DelistedDoc>('delisted');
    this.apiKeys = this.db.collection<ApiKeyDoc>('api_keys');
    this.usage = this.db.collection<UsageDoc>('usage');
    this.counters = this.db.collection<CounterDoc>('counters');
    const runner: MongoRunner = { tx: (fn) => this.withTransaction(fn), opts: (session) => this.opts(session) };
    this.monitoring = new MongoMonitoring(this.db, (host) => this.isDelisted(host), runner);
    this.buckets = this.db.collection<BucketDoc>('score_buckets');
    this.bands = this.db.collection<BandDoc>('score_bands');
    this.health = this.db.collection<HealthDoc>('health_probe');
    this.accounts = new MongoAccounts(this.db, runner);
    this.queue = new MongoQueue(this.db, runner);
    this.audits = new MongoAudits(this.db, runner);
    this.signingKeys = new MongoSigningKeys(this.db, runner);
  }

  async init(): Promise<void> {
    await this.client.connect();
    this.transactions = await supportsTransactions(this.db);
    await ensureCollections(this.db, ['scans', 'latest', 'delisted', 'counters', 'score_buckets', 'score_bands', SIGNING_KEYS_COLLECTION]);
    await Promise.all([
      this.scans.createIndexes(Q.INDEXES.scans),
      this.latest.createIndexes(Q.INDEXES.latest),
      this.apiKeys.createIndexes(Q.INDEXES.api_keys),
      this.usage.createIndexes(Q.INDEXES.usage),
      this.monitoring.init(),
      this.buckets.createIndexes(Q.INDEXES.score_buckets),
      this.bands.createIndexes(Q.INDEXES.score_bands),
      this.accounts.init(),
      this.queue.init(),
      this.audits.init(),
    ]);
    await this.dropObsoleteIndexes();
    await this.seedScanCounter();
    await this.prepareHistogram();
  }

  private async dropObsoleteIndexes(): Promise<void> {
    const collections = { scans: this.scans, latest: this.latest } as const;
    for (const [name, indexes] of Object.entries(Q.OBSOLETE_INDEXES)) {
      const collection = collections[name as keyof typeof collections];
      for (const index of indexes ?? []) {
        // Another instance may drop it first, or the collection may not exist yet.
        await collection.dropIndex(index).catch((err: unknown) => {
          if (!(err instanceof MongoServerError) || ![26, 27].includes(Number(err.code))) throw err;
        });
      }
    }
  }

  // Ids continue above the highest stored scan, as in SQLite, even when the counter was lost or scans imported.
  private async seedScanCounter(): Promise<void> {
    const highest = await this.scans.findOne({}, { sort: Q.HIGHEST_ID_SORT, projection: { _id: 1 }, maxTimeMS: STORE_TIMEOUT_MS });
    await retryOnDuplicate(() =>
      this.counters.updateOne(Q.counterFilter(Q.SCAN_COUNTER), Q.counterAtLeast(sequenceOf(highest?._id ?? 0)), { upsert: true }),
    );
  }

  // The histogram is kept only where every write runs in a transaction. Built once from `latest` when missing (a
  // first start, or a deployment that ran as a standalone meanwhile, which drops the mark: its writes skip it).
  private async prepareHistogram(): Promise<void> {
    if (!this.transactions) {
      await this.counters.deleteOne(Q.counterFilter(Q.HISTOGRAM_MARK));
      return;
    }
    await this.withTransaction(async (session) => {
      if (await this.counters.findOne(Q.counterFilter(Q.HISTOGRAM_MARK), this.opts(session))) return;
      const groups = await this.latest
        .aggregate<{ _id: { vertical: string | null; score: number }; n: number }>(Q.HISTOGRAM_GROUPS, this.opts(session))
        .toArray();
      const { buckets, bands } = Q.histogramDocs(groups);
      await this.buckets.deleteMany({}, this.opts(session));
      await this.bands.deleteMany({}, this.opts(session));
      if (buckets.length > 0) await this.buckets.insertMany(buckets, this.opts(session));
      if (bands.length > 0) await this.bands.insertMany(bands, this.opts(session));
      await this.counters.insertOne({ _id: Q.HISTOGRAM_MARK, n: 1 }, this.opts(session));
    });
  }

  private opts(session: ClientSession | undefined) {
    return opOptions(session);
  }

  private withTransaction<T>(fn: (session: ClientSession | undefined) => Promise<T>): Promise<T> {
    return withTransaction(this.client, this.transactions, fn);
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /**
   * Ready means readable and writable, as in SQLite: read and write the probe document on the primary with the
   * majority acknowledgement every write of the service asks for. A deployment that answers but takes no write (no
   * primary, no majority, out of space, a read-only user) is not ready. Bounded by READY_TIMEOUT_MS whatever the
   * driver would wait; calls that arrive while a probe runs share it, and one past its bound is left to the driver's
   * own time limits while the next call starts afresh.
   */
  async ping(): Promise<void> {
    this.probe ??= this.boundedProbe();
    await this.probe;
  }

  private boundedProbe(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new DatabaseUnavailableError(`MongoRepo: the readiness write got no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    });
    // race() also handles the write's late rejection, so a write past its bound never ends as an unhandled one.
    return Promise.race([this.writeProbe(), late]).finally(() => {
      clearTimeout(timer);
      this.probe = undefined;
    });
  }

  private async writeProbe(): Promise<void> {
    await retryOnDuplicate(() =>
      this.health.findOneAndUpdate(Q.healthProbeFilter(), Q.healthProbeWrite(new Date()), {
        upsert: true,
        maxTimeMS: READY_TIMEOUT_MS,
        writeConcern: { w: 'majority', wtimeoutMS: READY_TIMEOUT_MS },
      }),
    );
  }

  async allocateScanId(): Promise<number> {
    const doc = await retryOnDuplicate(() =>
      this.counters.findOneAndUpdate(Q.counterFilter(Q.SCAN_COUNTER), Q.counterIncrement(), {
        upsert: true,
        returnDocument: 'after',
      }),
    );
    if (!doc) throw new Error('MongoRepo: scan_id counter upsert returned nothing');
    return scanIdOf(doc.n);
  }

  // The same scan saved again (a retry after a failure half-way) is not a conflict.
  private async insertScan(scan: ScanRecord, session: ClientSession | undefined): Promise<void> {
    try {
      await this.scans.insertOne({ ...Q.scanToDoc(scan), ...scanOutboxField(scan.events) }, this.opts(session)); // events: same document
    } catch (err) {
      if (session || !isDuplicateKey(err)) throw err;
      const stored = await this.scans.findOne(Q.scanById(scan.id), { projection: { host: 1, createdAt: 1 }, maxTimeMS: STORE_TIMEOUT_MS });
      if (stored?.host !== scan.host || stored.createdAt.getTime() !== scan.createdAt.getTime()) throw err;
    }
  }

  /** Moves the host's row to `scan` when it is newer, and the histogram with it. */
  private async applyLatest(scan: ScanRecord, session: ClientSession | undefined): Promise<void> {
    const upsert = () =>
      this.latest.findOneAndUpdate(Q.latestByHost(scan.host), Q.latestUpsertUpdate(scan), {
        ...this.opts(session),
        upsert: true,
        returnDocument: 'before',
      });
    const prev = session ? await upsert() : await retryOnDuplicate(upsert);
    if (session) await this.moveCounts(prev, Q.latestAfter(prev, scan), session);
  }

  /** Deletes the host's row (and its count); the write first makes a concurrent save conflict (Q.latestTouch). */
  private async removeLatest(host: string, session: ClientSession | undefined): Promise<void> {
    if (!session) {
      await this.latest.deleteOne(Q.latestByHost(host), this.opts(session));
      return;
    }
    const prev = await this.latest.findOneAndUpdate(Q.latestByHost(host), Q.latestTouch(), {
      ...this.opts(session),
      upsert: true,
      returnDocument: 'before',
    });
    await this.latest.deleteOne(Q.latestByHost(host), this.opts(session));
    await this.moveCounts(prev, null, session);
  }

  private async moveCounts(prev: Q.Counted | null, next: Q.Counted | null, session: ClientSession): Promise<void> {
    if (prev && next && prev.score === next.score && prev.vertical === next.vertical) return;
    const { buckets, bands } = Q.countMoves(prev, next);
    if (buckets.length > 0) await this.buckets.bulkWrite(buckets, { session, ordered: true });
    if (bands.length > 0) await this.bands.bulkWrite(bands, { session, ordered: true });
  }

  /** Whether the host is delisted; in a transaction, a found mark is also written (Q.delistedHiddenScan). */
  private async markedDelisted(host: string, session: ClientSession | undefined): Promise<boolean> {
    if (!session) return this.isDelisted(host);
    const res = await this.delisted.updateOne(Q.delistedByHost(host), Q.delistedHiddenScan(), this.opts(session));
    return res.matchedCount > 0;
  }

  // Standalone order: scan, mark check, latest, mark re-check. A delist that slipped in between still wins; a
  // failure after the scan leaves latest on an older scan until the host's next save or relist.
  async saveScan(scan: ScanRecord): Promise<void> {
    await this.withTransaction(async (session) => {
      await this.insertScan(scan, session);
      if (scan.publicEntry === false) return; // stored, never the host's latest row
      if (await this.markedDelisted(scan.host, session)) return;
      await this.applyLatest(scan, session);
      if (!session && (await this.isDelisted(scan.host))) await this.removeLatest(scan.host, session);
    });
  }

  async getScan(id: number): Promise<ScanRecord | null>;
  async getScan(id: number, report: 'json'): Promise<ScanJsonRecord | null>;
  async getScan(id: number, report?: 'json'): Promise<ScanRecord | ScanJsonRecord | null> {
    const doc = await this.scans.findOne(Q.scanById(id), { maxTimeMS: STORE_TIMEOUT_MS });
    if (!doc) return null;
    return report === 'json' ? toScanJson(doc) : toScan(doc);
  }

  async latestByHost(host: string): Promise<LatestEntry | null> {
    const doc = await this.latest.findOne(Q.latestByHost(host), { maxTimeMS: STORE_TIMEOUT_MS });
    return doc ? toLatest(doc) : null;
  }

  async latestByHosts(hosts: string[]): Promise<Map<string, LatestEntry>> {
    const out = new Map<string, LatestEntry>();
    if (hosts.length === 0) return out;
    for (const doc of await this.latest.find(Q.latestByHosts(hosts), { maxTimeMS: STORE_TIMEOUT_MS }).toArray()) {
      out.set(doc._id, toLatest(doc));
    }
    return out;
  }

  /**
   * Counts for the given scores of one scope: from the histogram where it is kept (a scope's bands, ≤ 21
   * documents, and the buckets of the scores' bands); on a standalone, by walking the index above each score.
   */
  private async scopeCounts(vertical: string | null, scores: number[], session: ClientSession | undefined): Promise<ScopeCounts> {
    if (this.transactions) {
      const scope = Q.scopeOf(vertical);
      const [bands, buckets] = await both(
        session,
        () => this.bands.find(Q.bandsOfScope(scope), this.opts(session)).toArray(),
        async () =>
          scores.length > 0
            ? this.buckets.find(Q.bucketsInBands(scope, [...new Set(scores.map(Q.bandOf))]), this.opts(session)).toArray()
            : [],
      );
      return Q.histogramCounts(bands, buckets);
    }
    const [total, ...above] = await Promise.all([
      vertical === null
        ? this.latest.estimatedDocumentCount({ maxTimeMS: STORE_TIMEOUT_MS })
        : this.latest.countDocuments(Q.scopeFilter(vertical), { maxTimeMS: STORE_TIMEOUT_MS }),
      ...scores.map((t) => this.latest.countDocuments(Q.rankCountFilter(t, vertical), { maxTimeMS: STORE_TIMEOUT_MS })),
    ]);
    return { total, above: (t) => above[scores.indexOf(t)] };
  }

  // One snapshot where transactions exist, so that ranks, rows and totals agree under writes.
  async rankWindow(host: string, opts: RankWindowOptions = {}): Promise<RankWindow | null> {
    return this.withTransaction((session) => this.rankWindowIn(host, opts, session));
  }

  private async rankWindowIn(host: string, opts: RankWindowOptions, session: ClientSession | undefined): Promise<RankWindow | null> {
    const v = opts.vertical ?? null;
    const asIf = opts.asIf;
    const [delisted, ownDoc] = await both(
      session,
      () => this.delisted.findOne(Q.delistedByHost(host), { ...this.opts(session), projection: { _id: 1 } }),
      () => this.latest.findOne(Q.latestByHost(host), this.opts(session)),
    );
    if (delisted) return null;
    const own = ownDoc && (v === null || ownDoc.vertical === v) ? toLatest(ownDoc) : null;
    if (!asIf && !own) return null;

    const s = asIf ? asIf.score : own!.score;
    const nAbove = count(opts.above, 2);
    const nBelow = count(opts.below, 2);
    const up = Q.neighborsAbove(host, s, v);
    const down = Q.neighborsBelow(host, s, v);
    const [upDocs, downDocs] = await both(
      session,
      async () => (nAbove > 0 ? this.latest.find(up.filter, this.opts(session)).sort(up.sort).limit(nAbove).toArray() : []),
      async () => (nBelow > 0 ? this.latest.find(down.filter, this.opts(session)).sort(down.sort).limit(nBelow).toArray() : []),
    );

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
    const counts = await this.scopeCounts(v, scores, session);
    // With asIf the host's stored row is replaced by a hypothetical one: discount the stored one from every count.
    const ownOut = asIf !== undefined && own !== null;
    const rankOf = (t: number): number => 1 + counts.above(t) - (ownOut && own.score > t ? 1 : 0) + (asIf && s > t ? 1 : 0);
    const rows: RankRow[] = entries.map((e) => ({ ...e, rank: rankOf(e.score) }));
    const total = counts.total - (ownOut ? 1 : 0) + (asIf ? 1 : 0);
    // Without a snapshot (standalone) the counts are separate reads: a rank never exceeds the total shown.
    return { host, rank: rankOf(s), total: Math.max(total, ...rows.map((r) => r.rank)), rows };
  }

  // Ranks are competition ranks within the listed entries that pass the same filters.
  async topStores(opts: TopStoresOptions): Promise<RankRow[]> {
    const limit = count(opts.limit, 0);
    const offset = count(opts.offset, 0);
    if (limit === 0) return [];
    return this.withTransaction((session) => this.topStoresIn(opts, limit, offset, session));
  }

  private async topStoresIn(opts: TopStoresOptions, limit: number, offset: number, session: ClientSession | undefined): Promise<RankRow[]> {
    const filter = Q.topStoresFilter(opts);
    const unfiltered = opts.agentReadyOnly !== true && opts.since === undefined;
    let first = 1;
    let docs: LatestDoc[];
    // A deep page of the plain index (sitemaps): the histogram finds the score at `offset`; the page then skips
    // only within that score's ties instead of over every host above it.
    const seeking = this.transactions && unfiltered && offset > 0;
    const seek = seeking ? await this.scoreAtOffset(opts.vertical ?? null, offset, session) : null;
    if (seeking && !seek) return []; // the offset is past the last host
    if (seek) {
      docs = await this.latest
        .find(Q.fromScoreDown(filter, seek.score), this.opts(session))
        .sort(Q.RANK_SORT)
        .skip(offset - seek.above)
        .limit(limit)
        .toArray();
      first = 1 + seek.above;
    } else {
      docs = await this.latest.find(filter, this.opts(session)).sort(Q.RANK_SORT).skip(offset).limit(limit).toArray();
      if (docs.length === 0) return [];
      if (offset > 0) {
        first = 1 + (unfiltered
          ? (await this.scopeCounts(opts.vertical ?? null, [docs[0].score], session)).above(docs[0].score)
          : await this.latest.countDocuments(Q.topStoresAboveFilter(opts, docs[0].score), this.opts(session)));
      }
    }
    const out: RankRow[] = [];
    docs.forEach((d, i) => {
      const prev = out[i - 1];
      const rank = i === 0 ? first : d.score === prev.score ? prev.rank : offset + i + 1;
      out.push({ ...toLatest(d), rank });
    });
    return out;
  }

  private async scoreAtOffset(vertical: string | null, offset: number, session: ClientSession | undefined) {
    const scope = Q.scopeOf(vertical);
    const bands = await this.bands.find(Q.bandsOfScope(scope), this.opts(session)).sort(Q.BANDS_DESC).toArray();
    return Q.scoreAtOffset(
      bands,
      (band) => this.buckets.find(Q.bucketsInBands(scope, [band]), this.opts(session)).sort(Q.BUCKETS_DESC).toArray(),
      offset,
    );
  }

  async hostsByPrefix(prefix: string, limit = HOST_PREFIX_MAX): Promise<string[]> {
    const n = Math.min(HOST_PREFIX_MAX, Math.max(0, Math.floor(limit)));
    if (n === 0) return [];
    const docs = await this.latest.aggregate<{ _id: string }>(Q.hostsByPrefixPipeline(prefix, n)).toArray();
    return docs.map((d) => d._id);
  }

  async countStores(vertical?: string | null): Promise<number> {
    return (await this.scopeCounts(vertical ?? null, [], undefined)).total;
  }

  // Delist: mark, then remove the row. Relist: remove the mark, then rebuild the row from the newest scan; a relist
  // finding no mark still rebuilds a missing row, so repeating either call repairs one cut short half-way.
  async setDelisted(host: string, delisted: boolean): Promise<void> {
    await this.withTransaction(async (session) => {
      if (delisted) {
        const mark = () => this.delisted.updateOne(Q.delistedByHost(host), Q.delistedMark(new Date()), { ...this.opts(session), upsert: true });
        await (session ? mark() : retryOnDuplicate(mark));
        await this.removeLatest(host, session);
        return;
      }
      const removed = await this.delisted.deleteOne(Q.delistedByHost(host), this.opts(session));
      if (removed.deletedCount === 0 && (await this.latest.findOne(Q.latestByHost(host), { ...this.opts(session), projection: { _id: 1 } }))) return;
      const newest = await this.scans.findOne(Q.scansOfHost(host), { ...this.opts(session), sort: Q.NEWEST_SCAN_SORT });
      if (!newest) return;
      let vertical = newest.vertical;
      if (vertical === null) {
        const withVertical = await this.scans.findOne(Q.scansOfHostWithVertical(host), { ...this.opts(session), sort: Q.NEWEST_SCAN_SORT });
        vertical = withVertical?.vertical ?? null;
      }
      await this.applyLatest({ ...toScan(newest), vertical }, session);
    });
  }

  // No upsert: `latest` holds listed hosts only, so an unknown or delisted host matches nothing. The write to the
  // row makes a delist or save running at the same time conflict with this transaction.
  async setVertical(host: string, vertical: string): Promise<boolean> {
    assertVertical(vertical);
    return this.withTransaction(async (session) => {
      const prev = await this.latest.findOneAndUpdate(Q.latestByHost(host), Q.latestSetVertical(vertical), {
        ...this.opts(session),
        returnDocument: 'before',
      });
      if (!prev) return false;
      // The scan a relist rebuilds the row from carries the vertical too, so a delist and relist keep it.
      await this.scans.findOneAndUpdate(Q.scansOfHost(host), { $set: { vertical } }, { ...this.opts(session), sort: Q.NEWEST_SCAN_SORT });
      if (session) await this.moveCounts(prev, { score: prev.score, vertical }, session);
      return true;
    });
  }

  async isDelisted(host: string): Promise<boolean> {
    return (await this.delisted.findOne(Q.delistedByHost(host), { projection: { _id: 1 }, maxTimeMS: STORE_TIMEOUT_MS })) !== null;
  }

  async putApiKey(rec: ApiKeyRecord): Promise<void> {
    await this.apiKeys.replaceOne(Q.apiKeyByHash(rec.keyHash), Q.apiKeyToDoc(rec), { upsert: true });
  }

  async findApiKey(keyHash: string): Promise<ApiKeyRecord | null> {
    const doc = await this.apiKeys.findOne(Q.apiKeyByHash(keyHash), { maxTimeMS: STORE_TIMEOUT_MS });
    return doc ? toApiKey(doc) : null;
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return (await this.apiKeys.find({}, { maxTimeMS: STORE_TIMEOUT_MS }).sort(Q.API_KEY_SORT).toArray()).map(toApiKey);
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
    return (await this.usage.findOne(Q.usageFilter(key, period), { maxTimeMS: STORE_TIMEOUT_MS }))?.n ?? 0;
  }

  async sumUsage(key: string, periods: string[]): Promise<number> {
    if (periods.length === 0) return 0;
    const [row] = await this.usage.aggregate<{ n: number }>(Q.usageSumPipeline(key, periods), { maxTimeMS: STORE_TIMEOUT_MS }).toArray();
    return row?.n ?? 0;
  }

  async pruneUsage(periodsBefore: string): Promise<void> {
    await this.usage.deleteMany(Q.usagePruneFilter(periodsBefore));
  }
}
