// Embedded Repository on better-sqlite3: one WAL file in DATA_DIR (or ':memory:'), zero set-up.
// `latest` holds only listed hosts (a delisted host's row is removed and rebuilt from its scans on relist), so
// every read is a plain index query. A two-level score histogram, kept exact in the same transactions, turns
// rank counts from O(hosts above) (57 ms for a bottom host at 1M rows) into sums over a few dozen rows.
import { scanIdOf } from '../../lib/scan-ids.js';
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDataDir } from '../../lib/data-dir.js';
import { DatabaseUnavailableError } from '../../lib/db-failure.js';
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
import { assertVertical, HOST_PREFIX_MAX, HOST_PREFIX_WINDOW, prefixEnd } from '../repo.js';
import type { AccountRepo } from '../accounts-repo.js';
import type { SigningKeyRepo } from '../signing-keys-repo.js';
import { SqliteAccounts, migrateAccountSchema } from './accounts.js';
import { MONITORING_SCHEMA, SqliteMonitoring } from './monitoring.js';
import { SIGNING_KEYS_SCHEMA, SqliteSigningKeys } from './signing-keys.js';
import { migrate, type Migration, type MigrationResult } from './migrations.js';
import { QUEUE_SCHEMA, SqliteQueue } from './queue.js';
import { AUDIT_SCHEMA, SqliteAudits } from './audits.js';
import {
  LATEST_COLS,
  latestRowOf,
  SCAN_COLS,
  scanRowOf,
  toLatest,
  toScan,
  toScanJson,
  tupleToLatest,
  type LatestRow,
  type LatestTuple,
  type ScanJsonRow,
  type ScanRow,
} from './rows.js';

/** Host completion: the host range in host order (the primary key), cut at the window, then ranked. */
export const HOSTS_BY_PREFIX_SQL = `SELECT host FROM (SELECT host, score FROM latest WHERE host >= ? AND host < ? ORDER BY host LIMIT ?)
  ORDER BY score DESC, host LIMIT ?`;

interface ApiKeyRow {
  id: string;
  key_hash: string;
  owner: string;
  plan: string;
  created_at: number;
  revoked_at: number | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS scans (
  id INTEGER PRIMARY KEY,
  host TEXT NOT NULL,
  vertical TEXT,
  score REAL NOT NULL,
  grade TEXT NOT NULL,
  capped INTEGER NOT NULL,
  agent_ready INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  owner_key_id TEXT,
  report TEXT NOT NULL,
  public_entry INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS scans_host_created ON scans(host, created_at DESC);
CREATE TABLE IF NOT EXISTS latest (
  host TEXT PRIMARY KEY,
  scan_id INTEGER NOT NULL,
  vertical TEXT,
  score REAL NOT NULL,
  grade TEXT NOT NULL,
  capped INTEGER NOT NULL,
  agent_ready INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS latest_score_host ON latest(score DESC, host);
CREATE INDEX IF NOT EXISTS latest_vertical_score ON latest(vertical, score DESC, host);
CREATE INDEX IF NOT EXISTS latest_ready_score ON latest(score DESC, host) WHERE agent_ready = 1;
-- scope '*' is the whole index, 'v:<vertical>' one vertical. Bands group scores by BAND_WIDTH so that a count
-- above s is (bands above s's band) + (scores above s within its band).
CREATE TABLE IF NOT EXISTS score_buckets (
  scope TEXT NOT NULL,
  score REAL NOT NULL,
  band INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (scope, score)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS score_bands (
  scope TEXT NOT NULL,
  band INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (scope, band)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS delisted (host TEXT PRIMARY KEY, at INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT NOT NULL,
  key_hash TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  plan TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS api_keys_id ON api_keys(id);
CREATE TABLE IF NOT EXISTS usage (
  key TEXT NOT NULL,
  period TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (key, period)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS usage_period ON usage(period);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
INSERT OR IGNORE INTO counters (name, n) VALUES ('scan_id', (SELECT CASE WHEN MAX(id) >= 16777216 THEN MAX(id) / 16777216 ELSE COALESCE(MAX(id), 0) END FROM scans)); -- the sequence of the highest id (lib/scan-ids.ts)
`;

const BUSY_TIMEOUT_MS = 250;

/** The store file cannot be used as it is (damaged, not a database): start-up stops, naming it. */
export class StoreFileError extends Error {
  constructor(
    readonly file: string,
    why: string,
  ) {
    super(`${file} is not a usable store (${why}): restore it from a backup (npm run cli -- backup makes one), or move it away to start empty.`);
    this.name = 'StoreFileError';
  }
}

/** The 1.2 tables, made if missing; files made before a column existed get it, with the default that describes their rows. */
function ensureTables(db: Database.Database): void {
  db.exec(SCHEMA);
  const cols = new Set(db.prepare<[], { name: string }>('PRAGMA table_info(scans)').all().map((c) => c.name));
  if (!cols.has('public_entry')) db.exec('ALTER TABLE scans ADD COLUMN public_entry INTEGER NOT NULL DEFAULT 1');
  migrateAccountSchema(db);
  db.exec(MONITORING_SCHEMA);
}

/** The schema's versions, in order (db/sqlite/migrations.ts). Append; never change a released step. */
export const SQLITE_MIGRATIONS: readonly Migration[] = [
  { version: 1, does: 'the 1.2 tables, with the columns older files lack', up: ensureTables },
  {
    version: 2,
    does: 'the readiness probe table',
    // Readiness writes a row here and removes it in the same commit: a store that cannot grow is not ready.
    up: (db) => db.exec('CREATE TABLE IF NOT EXISTS health_probe (id INTEGER PRIMARY KEY, pad BLOB NOT NULL)'),
  },
  { version: 3, does: 'the work queue, host pace and deep audit tables', up: (db) => db.exec(QUEUE_SCHEMA + AUDIT_SCHEMA) },
  { version: 4, does: "the scanner's signing keys", up: (db) => db.exec(SIGNING_KEYS_SCHEMA) },
];
const BAND_WIDTH = 5;
const bandOf = (score: number): number => Math.floor(score / BAND_WIDTH);
const scopesOf = (vertical: string | null): string[] => (vertical === null ? ['*'] : ['*', `v:${vertical}`]);
const scopeKey = (vertical: string | null): string => (vertical === null ? '*' : `v:${vertical}`);

function toApiKey(r: ApiKeyRow): ApiKeyRecord {
  return {
    id: r.id,
    keyHash: r.key_hash,
    owner: r.owner,
    plan: r.plan,
    createdAt: new Date(r.created_at),
    revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at),
  };
}

function count(n: number | undefined, dflt: number): number {
  return n === undefined ? dflt : Math.max(0, Math.floor(n));
}

// Competition ranks for rows already in (score desc, host asc) order, given the rank of the first row.
function assignRanks(rows: LatestEntry[], firstRank: number, offset: number): RankRow[] {
  const out: RankRow[] = [];
  rows.forEach((row, i) => {
    const prev = out[i - 1];
    const rank = i === 0 ? firstRank : row.score === prev.score ? prev.rank : offset + i + 1;
    out.push({ ...row, rank });
  });
  return out;
}

type Stmt<P extends unknown[], R = unknown> = Database.Statement<P, R>;
type NeighborParams = { v: string | null; s: number; h: string; n: number };

// The four neighbour seeks, each an O(log n) index range: ties with the host first, then strictly
// higher/lower scores. A single `score > s OR (score = s AND host < h)` query would walk whole tie groups.
interface NeighborStmts {
  aboveTie: Stmt<[NeighborParams], LatestRow>;
  aboveHigher: Stmt<[NeighborParams], LatestRow>;
  belowTie: Stmt<[NeighborParams], LatestRow>;
  belowLower: Stmt<[NeighborParams], LatestRow>;
}

type Params = Record<string, unknown>;
interface TopStmts {
  page: Stmt<[Params], LatestRow>;
  above: Stmt<[Params], number>;
}

interface Bucket {
  above: (v: string | null, s: number) => number;
  total: (v: string | null) => number;
  between: (v: string | null, lo: number, hi: number) => number; // entries with lo < score <= hi
}

export class SqliteRepo implements Repository {
  private readonly db: Database.Database;
  private stmts: ReturnType<SqliteRepo['prepareAll']> | null = null;
  private tx: ReturnType<SqliteRepo['makeTransactions']> | null = null;
  private readonly pingStmt: Database.Statement<[], unknown>;
  private probeStmt!: Database.Statement<[number], unknown>;
  private readonly topCache = new Map<string, TopStmts>();
  private accountsRepo: SqliteAccounts | null = null;
  private signingKeysRepo: SqliteSigningKeys | null = null;

  get accounts(): AccountRepo {
    this.assertOpen();
    if (!this.accountsRepo) throw new Error('SqliteRepo: init() has not been called');
    return this.accountsRepo;
  }
  readonly monitoring: SqliteMonitoring;
  readonly queue: SqliteQueue;
  readonly audits: SqliteAudits;

  get signingKeys(): SigningKeyRepo {
    this.assertOpen();
    if (!this.signingKeysRepo) throw new Error('SqliteRepo: init() has not been called');
    return this.signingKeysRepo;
  }

  /** What init() found and did to the schema (for the start-up log line). */
  migration: MigrationResult | null = null;

  constructor(private readonly filePath: string) {
    if (filePath !== ':memory:' && !filePath.startsWith('file:')) {
      makeDataDir(dirname(filePath));
      // The file holds e-mail addresses and key hashes: owner-only from the start (SQLite gives its -wal and -shm
      // files the same mode).
      if (!existsSync(filePath)) closeSync(openSync(filePath, 'wx', 0o600));
    }
    this.db = new Database(filePath);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    // better-sqlite3 waits for a lock synchronously, freezing the event loop: keep the wait short and let a
    // store that stays busy answer 503 instead.
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    this.pingStmt = this.db.prepare('SELECT 1');
    this.monitoring = new SqliteMonitoring(this.db);
    this.queue = new SqliteQueue(this.db);
    this.audits = new SqliteAudits(this.db);
  }

  async init(): Promise<void> {
    if (this.stmts) return;
    // A damaged file stops start-up here, naming itself, rather than answering 503 "retry" for ever.
    const check = this.db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new StoreFileError(this.filePath, `quick_check says: ${String(check).slice(0, 200)}`);
    this.migration = migrate(this.db, this.filePath, SQLITE_MIGRATIONS);
    // Tables and indexes written as "if not exists" are made on every start too, so one added that way reaches a
    // file already at the newest version.
    ensureTables(this.db);
    this.accountsRepo = new SqliteAccounts(this.db);
    this.signingKeysRepo = new SqliteSigningKeys(this.db);
    this.monitoring.init();
    this.queue.init();
    this.audits.init();
    this.stmts = this.prepareAll();
    this.tx = this.makeTransactions();
    this.probeStmt = this.db.prepare<[number], unknown>('INSERT INTO health_probe (pad) VALUES (zeroblob(?))');
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  /**
   * Ready means readable and writable: take the write lock (waiting at most 100 ms, the call blocks the loop) and
   * commit a write (removed in the same commit) larger than the free pages inside the file, up to 64 pages: a
   * store that cannot grow is not ready while the scans that would save there fail; a file with room inside is.
   */
  async ping(): Promise<void> {
    this.assertOpen();
    this.pingStmt.get();
    this.db.pragma('busy_timeout = 100');
    try {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const free = this.db.pragma('freelist_count', { simple: true }) as number;
        const pageSize = this.db.pragma('page_size', { simple: true }) as number;
        this.probeStmt.run(Math.min(free + 2, 64) * pageSize);
        this.db.exec('DELETE FROM health_probe');
        this.db.exec('COMMIT');
      } catch (err) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw err;
      }
    } finally {
      this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }

  // A closed connection is a store the service cannot use (503), not a bug: better-sqlite3 says so with a TypeError.
  private assertOpen(): void {
    if (!this.db.open) throw new DatabaseUnavailableError('SqliteRepo: the store is closed');
  }

  private get q(): ReturnType<SqliteRepo['prepareAll']> {
    this.assertOpen();
    if (!this.stmts) throw new Error('SqliteRepo: init() has not been called');
    return this.stmts;
  }

  private get t(): ReturnType<SqliteRepo['makeTransactions']> {
    this.assertOpen();
    if (!this.tx) throw new Error('SqliteRepo: init() has not been called');
    return this.tx;
  }

  private makeTransactions() {
    return {
      save: this.db.transaction(this.saveTx),
      window: this.db.transaction(this.windowTx),
      top: this.db.transaction(this.topTx),
      delist: this.db.transaction(this.delistTx),
      vertical: this.db.transaction(this.verticalTx),
    };
  }

  private prepareAll() {
    const db = this.db;
    const neighbors = (scoped: boolean): NeighborStmts => {
      const where = scoped ? 'vertical = @v AND ' : '';
      const sel = (cond: string, order: string) =>
        db.prepare<[NeighborParams], LatestRow>(
          `SELECT ${LATEST_COLS} FROM latest WHERE ${where}${cond} ORDER BY ${order} LIMIT @n`,
        );
      return {
        aboveTie: sel('score = @s AND host < @h', 'host DESC'),
        aboveHigher: sel('score > @s AND host <> @h', 'score ASC, host DESC'),
        belowTie: sel('score = @s AND host > @h', 'host ASC'),
        belowLower: sel('score < @s AND host <> @h', 'score DESC, host ASC'),
      };
    };
    const sum = <P extends unknown[]>(sql: string) => db.prepare<P, number>(sql).pluck();
    const bandsAbove = sum<[string, number]>('SELECT COALESCE(SUM(n), 0) FROM score_bands WHERE scope = ? AND band > ?');
    // Every score of band b is below (b + 1) * BAND_WIDTH, so that bound only shortens the walk; `band = ?` decides.
    const inBandAbove = sum<[string, number, number, number]>(
      'SELECT COALESCE(SUM(n), 0) FROM score_buckets WHERE scope = ? AND score > ? AND score < ? AND band = ?',
    );
    const total = sum<[string]>('SELECT COALESCE(SUM(n), 0) FROM score_bands WHERE scope = ?');
    const between = sum<[string, number, number]>(
      'SELECT COALESCE(SUM(n), 0) FROM score_buckets WHERE scope = ? AND score > ? AND score <= ?',
    );
    const bucket: Bucket = {
      above: (v, s) => {
        const scope = scopeKey(v);
        const b = bandOf(s);
        return (bandsAbove.get(scope, b) ?? 0) + (inBandAbove.get(scope, s, (b + 1) * BAND_WIDTH, b) ?? 0);
      },
      total: (v) => total.get(scopeKey(v)) ?? 0,
      between: (v, lo, hi) => between.get(scopeKey(v), lo, hi) ?? 0,
    };
    return {
      nextScanId: db.prepare<[], number>("UPDATE counters SET n = n + 1 WHERE name = 'scan_id' RETURNING n").pluck(),
      insertScan: db.prepare<[ScanRow]>(
        `INSERT INTO scans (id, host, vertical, score, grade, capped, agent_ready, created_at, owner_key_id, owner_account_id, report, public_entry)
         VALUES (@id, @host, @vertical, @score, @grade, @capped, @agent_ready, @created_at, @owner_key_id, @owner_account_id, @report, @public_entry)`,
      ),
      getScan: db.prepare<[number], ScanRow>('SELECT * FROM scans WHERE id = ?'),
      // The report as a BLOB: its stored UTF-8 bytes as they are, without a decode into a string.
      getScanJson: db.prepare<[number], ScanJsonRow>(
        `SELECT ${SCAN_COLS}, CAST(report AS BLOB) AS report FROM scans WHERE id = ?`,
      ),
      newestScan: db.prepare<[string], ScanRow>(
        'SELECT * FROM scans WHERE host = ? AND public_entry = 1 ORDER BY created_at DESC, id DESC LIMIT 1',
      ),
      newestVertical: db
        .prepare<[string], string>(
          'SELECT vertical FROM scans WHERE host = ? AND public_entry = 1 AND vertical IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT 1',
        )
        .pluck(),
      upsertLatest: db.prepare<[LatestRow]>(
        `INSERT INTO latest (${LATEST_COLS})
         VALUES (@host, @scan_id, @vertical, @score, @grade, @capped, @agent_ready, @updated_at)
         ON CONFLICT(host) DO UPDATE SET scan_id = excluded.scan_id, vertical = excluded.vertical,
           score = excluded.score, grade = excluded.grade, capped = excluded.capped,
           agent_ready = excluded.agent_ready, updated_at = excluded.updated_at`,
      ),
      deleteLatest: db.prepare<[string]>('DELETE FROM latest WHERE host = ?'),
      setLatestVertical: db.prepare<[string, string]>('UPDATE latest SET vertical = ? WHERE host = ?'),
      // The scan a relist rebuilds the row from carries the vertical too, so a delist and relist keep it.
      setNewestScanVertical: db.prepare<[string, string]>(
        `UPDATE scans SET vertical = ? WHERE id = (
           SELECT id FROM scans WHERE host = ? AND public_entry = 1 ORDER BY created_at DESC, id DESC LIMIT 1)`,
      ),
      latestByHost: db.prepare<[string], LatestRow>(`SELECT ${LATEST_COLS} FROM latest WHERE host = ?`),
      // json_each keeps this one statement whatever the number of hosts. Rows come as arrays (LATEST_COLS order):
      // up to 100 rows a call, and an array per row costs much less than an object with named keys.
      hostsByPrefix: db.prepare<[string, string, number, number], string>(HOSTS_BY_PREFIX_SQL).pluck(),
      latestByHosts: db
        .prepare<[string], LatestTuple>(`SELECT ${LATEST_COLS} FROM latest WHERE host IN (SELECT value FROM json_each(?))`)
        .raw(true),
      bucketAdd: db.prepare<[string, number, number, number]>(
        `INSERT INTO score_buckets (scope, score, band, n) VALUES (?, ?, ?, ?)
         ON CONFLICT(scope, score) DO UPDATE SET n = n + excluded.n`,
      ),
      bucketDrop: db.prepare<[string, number]>('DELETE FROM score_buckets WHERE scope = ? AND score = ? AND n <= 0'),
      bandAdd: db.prepare<[string, number, number]>(
        `INSERT INTO score_bands (scope, band, n) VALUES (?, ?, ?)
         ON CONFLICT(scope, band) DO UPDATE SET n = n + excluded.n`,
      ),
      bandDrop: db.prepare<[string, number]>('DELETE FROM score_bands WHERE scope = ? AND band = ? AND n <= 0'),
      bucket,
      neighborsAll: neighbors(false),
      neighborsVertical: neighbors(true),
      isDelisted: db.prepare<[string], number>('SELECT 1 FROM delisted WHERE host = ?').pluck(),
      addDelisted: db.prepare<[string, number]>('INSERT OR IGNORE INTO delisted (host, at) VALUES (?, ?)'),
      removeDelisted: db.prepare<[string]>('DELETE FROM delisted WHERE host = ?'),
      putKey: db.prepare<[ApiKeyRow]>(
        `INSERT INTO api_keys (id, key_hash, owner, plan, created_at, revoked_at)
         VALUES (@id, @key_hash, @owner, @plan, @created_at, @revoked_at)
         ON CONFLICT(key_hash) DO UPDATE SET id = excluded.id, owner = excluded.owner, plan = excluded.plan,
           created_at = excluded.created_at, revoked_at = excluded.revoked_at`,
      ),
      findKey: db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = ?'),
      listKeys: db.prepare<[], ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at, id'),
      // A second revoke keeps the first instant: that is when the key stopped working.
      revokeKey: db.prepare<[number, string]>('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?'),
      incUsage: db
        .prepare<[string, string, number], number>(
          `INSERT INTO usage (key, period, n) VALUES (?, ?, ?)
           ON CONFLICT(key, period) DO UPDATE SET n = n + excluded.n RETURNING n`,
        )
        .pluck(),
      getUsage: db.prepare<[string, string], number>('SELECT n FROM usage WHERE key = ? AND period = ?').pluck(),
      sumUsage: db
        .prepare<[string, string], number>(
          'SELECT COALESCE(SUM(n), 0) FROM usage WHERE key = ? AND period IN (SELECT value FROM json_each(?))',
        )
        .pluck(),
      pruneUsage: db.prepare<[string]>('DELETE FROM usage WHERE period < ?'),
    };
  }

  async allocateScanId(): Promise<number> {
    const sequence = this.q.nextScanId.get();
    if (sequence === undefined) throw new Error('SqliteRepo: scan_id counter missing');
    return scanIdOf(sequence);
  }

  private bucketAdd(score: number, vertical: string | null, delta: 1 | -1): void {
    const q = this.q;
    const band = bandOf(score);
    for (const scope of scopesOf(vertical)) {
      q.bucketAdd.run(scope, score, band, delta);
      q.bandAdd.run(scope, band, delta);
      if (delta < 0) {
        q.bucketDrop.run(scope, score);
        q.bandDrop.run(scope, band);
      }
    }
  }

  // Writes `next` as the host's latest row, keeping both histograms exact.
  private writeLatest(prev: LatestRow | undefined, next: LatestRow): void {
    this.q.upsertLatest.run(next);
    if (prev && prev.score === next.score && prev.vertical === next.vertical) return;
    if (prev) this.bucketAdd(prev.score, prev.vertical, -1);
    this.bucketAdd(next.score, next.vertical, 1);
  }

  private readonly saveTx = (row: ScanRow, events: boolean): void => {
    const q = this.q;
    q.insertScan.run(row);
    if (events) this.monitoring.enqueueScanEvent(row.id, row.host, row.created_at);
    if (row.public_entry === 0 || q.isDelisted.get(row.host) !== undefined) return;
    const prev = q.latestByHost.get(row.host);
    // Newest wins; scans of one instant are ordered by id, the order a relist rebuilds them in.
    if (prev && (row.created_at < prev.updated_at || (row.created_at === prev.updated_at && row.id < prev.scan_id))) return;
    this.writeLatest(prev, latestRowOf(row, row.vertical ?? prev?.vertical ?? null));
  };

  async saveScan(scan: ScanRecord): Promise<void> {
    this.t.save(scanRowOf(scan), scan.events === true);
  }

  async getScan(id: number): Promise<ScanRecord | null>;
  async getScan(id: number, report: 'json'): Promise<ScanJsonRecord | null>;
  async getScan(id: number, report?: 'json'): Promise<ScanRecord | ScanJsonRecord | null> {
    if (report === 'json') {
      const row = this.q.getScanJson.get(id);
      return row ? toScanJson(row) : null;
    }
    const row = this.q.getScan.get(id);
    return row ? toScan(row) : null;
  }

  async latestByHost(host: string): Promise<LatestEntry | null> {
    const row = this.q.latestByHost.get(host);
    return row ? toLatest(row) : null;
  }

  async latestByHosts(hosts: string[]): Promise<Map<string, LatestEntry>> {
    const out = new Map<string, LatestEntry>();
    if (hosts.length === 0) return out;
    for (const row of this.q.latestByHosts.all(JSON.stringify(hosts))) out.set(row[0], tupleToLatest(row));
    return out;
  }

  async hostsByPrefix(prefix: string, limit = HOST_PREFIX_MAX): Promise<string[]> {
    const n = Math.min(HOST_PREFIX_MAX, Math.max(0, Math.floor(limit)));
    if (n === 0) return [];
    return this.q.hostsByPrefix.all(prefix, prefixEnd(prefix), HOST_PREFIX_WINDOW, n);
  }

  private readonly windowTx = (host: string, opts: RankWindowOptions): RankWindow | null => {
    const q = this.q;
    const v = opts.vertical ?? null;
    if (q.isDelisted.get(host) !== undefined) return null;
    const ownRow = q.latestByHost.get(host);
    const own = ownRow && (v === null || ownRow.vertical === v) ? toLatest(ownRow) : null;
    const asIf = opts.asIf;
    if (!asIf && !own) return null;

    const s = asIf ? asIf.score : own!.score;
    // Neighbours' counts derive from the host's with sums over the buckets between the two scores, which hold
    // only rows of the window itself (plus, with asIf, the host's own stored row).
    const base = q.bucket.above(v, s);
    const stored = (t: number): number =>
      t === s ? base : t > s ? base - q.bucket.between(v, s, t) : base + q.bucket.between(v, t, s);
    // With asIf the host's stored row is replaced by a hypothetical one: discount the stored one from every count.
    const ownOut = asIf !== undefined && own !== null;
    const above = (t: number): number => stored(t) - (ownOut && own.score > t ? 1 : 0) + (asIf && s > t ? 1 : 0);
    const total = q.bucket.total(v) - (ownOut ? 1 : 0) + (asIf ? 1 : 0);

    const nAbove = count(opts.above, 2);
    const nBelow = count(opts.below, 2);
    const st = v === null ? q.neighborsAll : q.neighborsVertical;
    const p = { v, s, h: host, n: nAbove };
    let up = nAbove > 0 ? st.aboveTie.all(p) : [];
    if (up.length < nAbove) up = up.concat(st.aboveHigher.all(p)).slice(0, nAbove);
    p.n = nBelow;
    let down = nBelow > 0 ? st.belowTie.all(p) : [];
    if (down.length < nBelow) down = down.concat(st.belowLower.all(p)).slice(0, nBelow);

    const self: LatestEntry = asIf
      ? {
          ...(ownRow
            ? toLatest(ownRow)
            : { host, scanId: 0, capped: false, agentReady: false, updatedAt: new Date() }),
          vertical: v ?? ownRow?.vertical ?? null,
          score: asIf.score,
          grade: asIf.grade,
        }
      : own!;
    const rankOf = new Map<number, number>();
    const rankFor = (t: number): number => {
      let r = rankOf.get(t);
      if (r === undefined) rankOf.set(t, (r = 1 + above(t)));
      return r;
    };
    const rows: RankRow[] = [
      ...up.reverse().map(toLatest),
      self,
      ...down.map(toLatest),
    ].map((e) => ({ ...e, rank: rankFor(e.score) }));
    return { host, rank: rankFor(s), total, rows };
  };

  async rankWindow(host: string, opts: RankWindowOptions = {}): Promise<RankWindow | null> {
    // One read transaction: every count and seek sees the same snapshot.
    return this.t.window(host, opts);
  }

  private topStmts(opts: TopStoresOptions) {
    const scoped = opts.vertical != null;
    const ready = opts.agentReadyOnly === true;
    const since = opts.since !== undefined;
    const key = `${+scoped}${+ready}${+since}`;
    let st = this.topCache.get(key);
    if (!st) {
      const conds = [
        ...(scoped ? ['vertical = @v'] : []),
        ...(ready ? ['agent_ready = 1'] : []),
        ...(since ? ['updated_at >= @since'] : []),
      ];
      const where = (extra: string[]) => (conds.length + extra.length ? `WHERE ${[...conds, ...extra].join(' AND ')}` : '');
      st = {
        // The offset is walked on the (covering) index alone; only the page's rows are then read in full.
        // CROSS JOIN pins the page as the outer loop: with a bound LIMIT the planner would rather scan all of l.
        page: this.db.prepare<[Params], LatestRow>(
          `SELECT ${LATEST_COLS.split(', ').map((c) => `l.${c}`).join(', ')}
           FROM (SELECT host FROM latest ${where([])} ORDER BY score DESC, host ASC LIMIT @limit OFFSET @offset) AS p
           CROSS JOIN latest AS l ON l.host = p.host
           ORDER BY l.score DESC, l.host ASC`,
        ),
        above: this.db
          .prepare<[Params], number>(`SELECT COUNT(*) FROM latest ${where(['score > @s'])}`)
          .pluck(),
      };
      this.topCache.set(key, st);
    }
    return st;
  }

  private readonly topTx = (opts: TopStoresOptions, limit: number, offset: number): RankRow[] => {
    const st = this.topStmts(opts);
    const params: Params = { limit, offset };
    if (opts.vertical != null) params.v = opts.vertical;
    if (opts.since !== undefined) params.since = opts.since.getTime();
    const rows = st.page.all(params).map(toLatest);
    if (rows.length === 0) return [];
    let first = 1;
    if (offset > 0) {
      const s = rows[0].score;
      // Without row filters the histogram answers in O(buckets); filtered counts walk only the rows above.
      const filtered = opts.agentReadyOnly === true || opts.since !== undefined;
      first = 1 + (filtered ? (st.above.get({ ...params, s }) ?? 0) : this.q.bucket.above(opts.vertical ?? null, s));
    }
    return assignRanks(rows, first, offset);
  };

  // Ranks are competition ranks within the listed entries that pass the same filters.
  async topStores(opts: TopStoresOptions): Promise<RankRow[]> {
    const limit = count(opts.limit, 0);
    if (limit === 0) return [];
    return this.t.top(opts, limit, count(opts.offset, 0));
  }

  async countStores(vertical?: string | null): Promise<number> {
    return this.q.bucket.total(vertical ?? null);
  }

  private readonly delistTx = (host: string, delisted: boolean): void => {
    const q = this.q;
    if (delisted) {
      q.addDelisted.run(host, Date.now());
      const prev = q.latestByHost.get(host);
      if (prev) {
        q.deleteLatest.run(host);
        this.bucketAdd(prev.score, prev.vertical, -1);
      }
      return;
    }
    if (q.removeDelisted.run(host).changes === 0) return;
    const scan = q.newestScan.get(host);
    if (!scan) return;
    this.writeLatest(q.latestByHost.get(host), latestRowOf(scan, scan.vertical ?? q.newestVertical.get(host) ?? null));
  };

  async setDelisted(host: string, delisted: boolean): Promise<void> {
    this.t.delist(host, delisted);
  }

  // `latest` holds listed hosts only: no row means unknown or delisted.
  private readonly verticalTx = (host: string, vertical: string): boolean => {
    const q = this.q;
    const prev = q.latestByHost.get(host);
    if (!prev) return false;
    if (prev.vertical === vertical) return true;
    q.setLatestVertical.run(vertical, host);
    q.setNewestScanVertical.run(vertical, host);
    this.bucketAdd(prev.score, prev.vertical, -1);
    this.bucketAdd(prev.score, vertical, 1);
    return true;
  };

  async setVertical(host: string, vertical: string): Promise<boolean> {
    assertVertical(vertical);
    return this.t.vertical(host, vertical);
  }

  async isDelisted(host: string): Promise<boolean> {
    return this.q.isDelisted.get(host) !== undefined;
  }

  async putApiKey(rec: ApiKeyRecord): Promise<void> {
    this.q.putKey.run({
      id: rec.id,
      key_hash: rec.keyHash,
      owner: rec.owner,
      plan: rec.plan,
      created_at: rec.createdAt.getTime(),
      revoked_at: rec.revokedAt ? rec.revokedAt.getTime() : null,
    });
  }

  async findApiKey(keyHash: string): Promise<ApiKeyRecord | null> {
    const row = this.q.findKey.get(keyHash);
    return row ? toApiKey(row) : null;
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return this.q.listKeys.all().map(toApiKey);
  }

  async revokeApiKey(id: string, at: Date): Promise<boolean> {
    return this.q.revokeKey.run(at.getTime(), id).changes > 0;
  }

  async incrementUsage(key: string, period: string, by = 1): Promise<number> {
    const n = this.q.incUsage.get(key, period, by);
    if (n === undefined) throw new Error('SqliteRepo: usage upsert returned nothing');
    return n;
  }

  async getUsage(key: string, period: string): Promise<number> {
    return this.q.getUsage.get(key, period) ?? 0;
  }

  async sumUsage(key: string, periods: string[]): Promise<number> {
    if (periods.length === 0) return 0;
    return this.q.sumUsage.get(key, JSON.stringify(periods)) ?? 0;
  }

  async pruneUsage(periodsBefore: string): Promise<void> {
    this.q.pruneUsage.run(periodsBefore);
  }
}
