// QueueRepo on the SQLite file of SqliteRepo. A claim is one IMMEDIATE transaction: it picks the item and leases it
// together with its host's turn (and the shared rate slot when asked), under the file's write lock, so two
// processes on one file never take one item or one host's turn twice.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { DatabaseUnavailableError } from '../../lib/db-failure.js';
import type { Leased } from '../monitoring-repo.js';
import type { ClaimOptions, GroupCounts, HostPace, NewWork, QueueRepo, WorkItem, WorkKind, WorkResult, WorkState } from '../queue-repo.js';

export const QUEUE_SCHEMA = `
CREATE TABLE IF NOT EXISTS work_items (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  grp TEXT NOT NULL,
  host TEXT NOT NULL,
  url TEXT NOT NULL,
  seq INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'queued',
  attempts INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER NOT NULL DEFAULT 0,
  lease_token TEXT,
  done_at INTEGER,
  result TEXT,
  UNIQUE (grp, url)
);
CREATE INDEX IF NOT EXISTS work_items_claim ON work_items(kind, host, seq) WHERE state = 'queued';
CREATE INDEX IF NOT EXISTS work_items_group ON work_items(grp, seq);
CREATE INDEX IF NOT EXISTS work_items_finished ON work_items(grp, done_at) WHERE state <> 'queued';
CREATE TABLE IF NOT EXISTS host_pace (
  host TEXT PRIMARY KEY,
  next_at INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER NOT NULL DEFAULT 0,
  lease_token TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS host_pace_due ON host_pace(next_at);
`;

interface ItemRow {
  id: string; kind: string; grp: string; host: string; url: string; seq: number; created_at: number; state: string;
  attempts: number; lease_until: number; lease_token: string | null; done_at: number | null; result: string | null;
}

const toItem = (r: ItemRow): WorkItem => ({
  id: r.id,
  kind: r.kind as WorkKind,
  group: r.grp,
  host: r.host,
  url: r.url,
  seq: r.seq,
  createdAt: new Date(r.created_at),
  attempts: r.attempts,
});

type ClaimParams = { kind: string; now: number; until: number; token: string };

export class SqliteQueue implements QueueRepo {
  private stmts: ReturnType<SqliteQueue['prepareAll']> | null = null;
  private tx: ReturnType<SqliteQueue['makeTransactions']> | null = null;

  constructor(private readonly db: Database.Database) {}

  /** Called by SqliteRepo.init, after the migrations made the tables. */
  init(): void {
    this.stmts = this.prepareAll();
    this.tx = this.makeTransactions();
  }

  private get q(): ReturnType<SqliteQueue['prepareAll']> {
    if (!this.db.open) throw new DatabaseUnavailableError('SqliteRepo: the store is closed');
    if (!this.stmts) throw new Error('SqliteQueue: init() has not been called');
    return this.stmts;
  }

  private get t(): ReturnType<SqliteQueue['makeTransactions']> {
    this.q; // eslint-disable-line @typescript-eslint/no-unused-expressions -- the same open/init checks
    return this.tx!;
  }

  private prepareAll() {
    const db = this.db;
    return {
      insert: db.prepare<[Record<string, unknown>]>(
        `INSERT OR IGNORE INTO work_items (id, kind, grp, host, url, seq, created_at) VALUES (@id, @kind, @grp, @host, @url, @seq, @created_at)`,
      ),
      addHost: db.prepare<[string]>('INSERT OR IGNORE INTO host_pace (host) VALUES (?)'),
      // The host due longest that has a claimable item of the kind; its lowest-seq item.
      politeHost: db
        .prepare<[ClaimParams], string>(
          `SELECT p.host FROM host_pace p
           WHERE p.next_at <= @now AND p.lease_until <= @now
             AND EXISTS (SELECT 1 FROM work_items w WHERE w.kind = @kind AND w.host = p.host AND w.state = 'queued' AND w.lease_until <= @now)
           ORDER BY p.next_at, p.host LIMIT 1`,
        )
        .pluck(),
      itemOfHost: db.prepare<[ClaimParams & { host: string }], ItemRow>(
        `UPDATE work_items SET lease_until = @until, lease_token = @token, attempts = attempts + 1
         WHERE rowid = (SELECT rowid FROM work_items WHERE kind = @kind AND host = @host AND state = 'queued' AND lease_until <= @now ORDER BY seq LIMIT 1)
         RETURNING *`,
      ),
      anyItem: db.prepare<[ClaimParams], ItemRow>(
        `UPDATE work_items SET lease_until = @until, lease_token = @token, attempts = attempts + 1
         WHERE rowid = (SELECT rowid FROM work_items WHERE kind = @kind AND state = 'queued' AND lease_until <= @now ORDER BY seq LIMIT 1)
         RETURNING *`,
      ),
      leaseHost: db.prepare<[{ host: string; until: number; token: string }]>('UPDATE host_pace SET lease_until = @until, lease_token = @token WHERE host = @host'),
      rateDue: db.prepare<[string, number], number>('SELECT 1 FROM host_pace WHERE host = ? AND next_at > ?').pluck(),
      takeRate: db.prepare<[{ key: string; next: number }]>(
        `INSERT INTO host_pace (host, next_at) VALUES (@key, @next) ON CONFLICT(host) DO UPDATE SET next_at = @next`,
      ),
      nextReady: db
        .prepare<[{ kind: string; now: number }], number>(
          `SELECT MIN(MAX(p.next_at, p.lease_until)) FROM host_pace p
           WHERE EXISTS (SELECT 1 FROM work_items w WHERE w.kind = @kind AND w.host = p.host AND w.state = 'queued')`,
        )
        .pluck(),
      rateAt: db.prepare<[string], number>('SELECT next_at FROM host_pace WHERE host = ?').pluck(),
      renewItem: db.prepare<[{ id: string; token: string; until: number }]>(
        `UPDATE work_items SET lease_until = @until WHERE id = @id AND lease_token = @token AND state = 'queued'`,
      ),
      renewHost: db.prepare<[{ host: string; token: string; until: number }]>('UPDATE host_pace SET lease_until = @until WHERE host = @host AND lease_token = @token'),
      finishItem: db.prepare<[{ id: string; token: string; state: string; result: string | null; at: number }]>(
        `UPDATE work_items SET state = @state, result = @result, done_at = @at, lease_until = 0, lease_token = NULL
         WHERE id = @id AND lease_token = @token AND state = 'queued'`,
      ),
      returnItem: db.prepare<[{ id: string; token: string }]>(
        `UPDATE work_items SET lease_until = 0, lease_token = NULL WHERE id = @id AND lease_token = @token AND state = 'queued'`,
      ),
      // The turn goes back with the next instant the host may be asked; a pause set meanwhile is never shortened.
      releaseHost: db.prepare<[{ host: string; token: string; next: number }]>(
        `UPDATE host_pace SET lease_until = 0, lease_token = NULL, next_at = MAX(next_at, @next) WHERE host = @host AND lease_token = @token`,
      ),
      counts: db.prepare<[{ grp: string; since: number }], GroupCounts>(
        `SELECT COALESCE(SUM(state = 'queued'), 0) AS queued, COALESCE(SUM(state = 'done'), 0) AS done,
           COALESCE(SUM(state = 'failed'), 0) AS failed, COALESCE(SUM(state <> 'queued' AND done_at >= @since), 0) AS finishedSince
         FROM work_items WHERE grp = @grp`,
      ),
      results: db.prepare<[string, number, number], Pick<ItemRow, 'seq' | 'url' | 'state' | 'result' | 'done_at'>>(
        'SELECT seq, url, state, result, done_at FROM work_items WHERE grp = ? AND seq > ? ORDER BY seq LIMIT ?',
      ),
      requeue: db.prepare<[string, number]>(
        `UPDATE work_items SET state = 'queued', attempts = 0, result = NULL, done_at = NULL
         WHERE grp = ? AND state <> 'queued' AND done_at <= ?`,
      ),
      pace: db.prepare<[string], { host: string; next_at: number; lease_until: number }>('SELECT host, next_at, lease_until FROM host_pace WHERE host = ?'),
    };
  }

  private makeTransactions() {
    return {
      enqueue: this.db.transaction((items: NewWork[]): number => {
        let added = 0;
        for (const w of items) {
          this.q.addHost.run(w.host);
          added += this.q.insert.run({ id: w.id, kind: w.kind, grp: w.group, host: w.host, url: w.url, seq: w.seq, created_at: w.createdAt.getTime() }).changes;
        }
        return added;
      }),
      claim: this.db.transaction((p: ClaimParams, opts: ClaimOptions): ItemRow | undefined => {
        const q = this.q;
        if (opts.rate && q.rateDue.get(opts.rate.key, p.now) !== undefined) return undefined;
        let row: ItemRow | undefined;
        if (opts.polite) {
          const host = q.politeHost.get(p);
          if (host === undefined) return undefined;
          row = q.itemOfHost.get({ ...p, host });
          if (row) q.leaseHost.run({ host, until: p.until, token: p.token });
        } else {
          row = q.anyItem.get(p);
        }
        if (row && opts.rate) q.takeRate.run({ key: opts.rate.key, next: p.now + opts.rate.intervalMs });
        return row;
      }),
      finish: this.db.transaction((claim: Leased<WorkItem>, state: WorkState | null, result: string | null, at: number, hostFreeAt: number): boolean => {
        const q = this.q;
        const moved = state === null
          ? q.returnItem.run({ id: claim.row.id, token: claim.leaseToken })
          : q.finishItem.run({ id: claim.row.id, token: claim.leaseToken, state, result, at });
        q.releaseHost.run({ host: claim.row.host, token: claim.leaseToken, next: hostFreeAt });
        return moved.changes > 0;
      }),
      renew: this.db.transaction((claim: Leased<WorkItem>, until: number): boolean => {
        const moved = this.q.renewItem.run({ id: claim.row.id, token: claim.leaseToken, until });
        this.q.renewHost.run({ host: claim.row.host, token: claim.leaseToken, until });
        return moved.changes > 0;
      }),
    };
  }

  async enqueue(items: NewWork[]): Promise<number> {
    return items.length === 0 ? 0 : this.t.enqueue.immediate(items);
  }

  async claim(kind: WorkKind, now: Date, leaseMs: number, opts: ClaimOptions): Promise<Leased<WorkItem> | null> {
    const token = randomUUID();
    const row = this.t.claim.immediate({ kind, now: now.getTime(), until: now.getTime() + leaseMs, token }, opts);
    return row ? { row: toItem(row), leaseToken: token } : null;
  }

  async nextReadyAt(kind: WorkKind, now: Date, rateKey?: string): Promise<Date | null> {
    const host = this.q.nextReady.get({ kind, now: now.getTime() });
    if (host === undefined || host === null) return null;
    const rate = rateKey === undefined ? 0 : (this.q.rateAt.get(rateKey) ?? 0);
    return new Date(Math.max(host, rate));
  }

  async renew(claim: Leased<WorkItem>, until: Date): Promise<boolean> {
    return this.t.renew(claim, until.getTime());
  }

  async finish(claim: Leased<WorkItem>, done: { state: 'done' | 'failed'; result: string | null; at: Date; hostFreeAt: Date }): Promise<boolean> {
    return this.t.finish(claim, done.state, done.result, done.at.getTime(), done.hostFreeAt.getTime());
  }

  async retryLater(claim: Leased<WorkItem>, hostFreeAt: Date): Promise<boolean> {
    return this.t.finish(claim, null, null, 0, hostFreeAt.getTime());
  }

  async counts(group: string, since: Date): Promise<GroupCounts> {
    return this.q.counts.get({ grp: group, since: since.getTime() })!;
  }

  async results(group: string, afterSeq: number, limit: number): Promise<WorkResult[]> {
    return this.q.results.all(group, afterSeq, Math.max(0, Math.floor(limit))).map((r) => ({
      seq: r.seq,
      url: r.url,
      state: r.state as WorkState,
      result: r.result,
      doneAt: r.done_at === null ? null : new Date(r.done_at),
    }));
  }

  async requeueFinished(group: string, before: Date): Promise<number> {
    return this.q.requeue.run(group, before.getTime()).changes;
  }

  async hostPace(host: string): Promise<HostPace | null> {
    const row = this.q.pace.get(host);
    return row ? { host: row.host, nextAt: new Date(row.next_at), leaseUntil: new Date(row.lease_until) } : null;
  }
}
