// AuditRepo on the SQLite file of SqliteRepo: one row per deep audit. The cap on audits in progress is checked
// and the row written under one write lock (IMMEDIATE), so two instances cannot both pass it.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { DatabaseUnavailableError } from '../../lib/db-failure.js';
import type { AuditRecord, AuditRepo, AuditStatus } from '../audit-repo.js';
import type { Leased } from '../monitoring-repo.js';

export const AUDIT_SCHEMA = `
CREATE TABLE IF NOT EXISTS audits (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  host TEXT NOT NULL,
  url TEXT NOT NULL,
  max_pages INTEGER NOT NULL,
  status TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  discovered INTEGER,
  planned INTEGER,
  delay_ms INTEGER NOT NULL,
  finished_at INTEGER,
  error TEXT,
  result TEXT,
  lease_until INTEGER NOT NULL DEFAULT 0,
  lease_token TEXT
);
CREATE INDEX IF NOT EXISTS audits_account ON audits(account_id, created_at DESC);
CREATE INDEX IF NOT EXISTS audits_host ON audits(account_id, host, created_at DESC);
CREATE INDEX IF NOT EXISTS audits_in_progress ON audits(created_at) WHERE status IN ('queued', 'running');
`;

interface AuditRow {
  id: string; account_id: string; host: string; url: string; max_pages: number; status: string; created_at: number;
  discovered: number | null; planned: number | null; delay_ms: number; finished_at: number | null; error: string | null; result: string | null;
}

type CreateOutcome = Awaited<ReturnType<AuditRepo['createAudit']>>;

const toAudit = (r: AuditRow): AuditRecord => ({
  id: r.id,
  accountId: r.account_id,
  host: r.host,
  url: r.url,
  maxPages: r.max_pages,
  status: r.status as AuditStatus,
  createdAt: new Date(r.created_at),
  discovered: r.discovered,
  planned: r.planned,
  delayMs: r.delay_ms,
  finishedAt: r.finished_at === null ? null : new Date(r.finished_at),
  error: r.error,
  result: r.result,
});

export class SqliteAudits implements AuditRepo {
  private stmts: ReturnType<SqliteAudits['prepareAll']> | null = null;
  private createTx: Database.Transaction<(a: AuditRecord, max: number) => CreateOutcome> | null = null;

  constructor(private readonly db: Database.Database) {}

  init(): void {
    this.stmts = this.prepareAll();
    this.createTx = this.db.transaction((a: AuditRecord, max: number): CreateOutcome => {
      const q = this.q;
      const running = q.runningOfHost.get(a.accountId, a.host);
      if (running !== undefined) return { created: false as const, running };
      if ((q.inProgress.get(a.accountId) ?? 0) >= max) return { created: false as const, limit: true as const };
      q.insert.run({
        id: a.id, account_id: a.accountId, host: a.host, url: a.url, max_pages: a.maxPages, status: a.status, created_at: a.createdAt.getTime(),
        discovered: a.discovered, planned: a.planned, delay_ms: a.delayMs, finished_at: null, error: null, result: null,
      });
      return { created: true as const };
    });
  }

  private get q(): ReturnType<SqliteAudits['prepareAll']> {
    if (!this.db.open) throw new DatabaseUnavailableError('SqliteRepo: the store is closed');
    if (!this.stmts) throw new Error('SqliteAudits: init() has not been called');
    return this.stmts;
  }

  private prepareAll() {
    const db = this.db;
    const active = "status IN ('queued', 'running')";
    return {
      insert: db.prepare<[AuditRow]>(
        `INSERT INTO audits (id, account_id, host, url, max_pages, status, created_at, discovered, planned, delay_ms, finished_at, error, result)
         VALUES (@id, @account_id, @host, @url, @max_pages, @status, @created_at, @discovered, @planned, @delay_ms, @finished_at, @error, @result)`,
      ),
      runningOfHost: db.prepare<[string, string], string>(`SELECT id FROM audits WHERE account_id = ? AND host = ? AND ${active} LIMIT 1`).pluck(),
      inProgress: db.prepare<[string], number>(`SELECT COUNT(*) FROM audits WHERE account_id = ? AND ${active}`).pluck(),
      get: db.prepare<[string], AuditRow>('SELECT * FROM audits WHERE id = ?'),
      list: db.prepare<[string, number], AuditRow>('SELECT * FROM audits WHERE account_id = ? ORDER BY created_at DESC, id LIMIT ?'),
      previous: db.prepare<[string, string, number], AuditRow>(
        "SELECT * FROM audits WHERE account_id = ? AND host = ? AND status = 'done' AND created_at < ? ORDER BY created_at DESC LIMIT 1",
      ),
      planned: db.prepare<[{ id: string; discovered: number; planned: number; delay: number }]>(
        "UPDATE audits SET status = 'running', discovered = @discovered, planned = @planned, delay_ms = @delay WHERE id = @id AND status = 'queued'",
      ),
      inProgressAll: db.prepare<[number], AuditRow>(`SELECT * FROM audits WHERE ${active} ORDER BY created_at LIMIT ?`),
      claimFinish: db.prepare<[{ id: string; now: number; until: number; token: string }], AuditRow>(
        `UPDATE audits SET lease_until = @until, lease_token = @token WHERE id = @id AND status = 'running' AND lease_until <= @now RETURNING *`,
      ),
      end: db.prepare<[{ id: string; token: string | null; status: string; at: number; result: string | null; error: string | null }]>(
        `UPDATE audits SET status = @status, finished_at = @at, result = @result, error = @error, lease_until = 0, lease_token = NULL
         WHERE id = @id AND ((@token IS NULL AND status = 'queued') OR (lease_token = @token AND status = 'running'))`,
      ),
    };
  }

  async createAudit(audit: AuditRecord, maxInProgress: number): Promise<CreateOutcome> {
    this.q; // eslint-disable-line @typescript-eslint/no-unused-expressions -- the open/init checks before the transaction
    return this.createTx!.immediate(audit, maxInProgress);
  }

  async getAudit(id: string): Promise<AuditRecord | null> {
    const row = this.q.get.get(id);
    return row ? toAudit(row) : null;
  }

  async listAudits(accountId: string, limit: number): Promise<AuditRecord[]> {
    return this.q.list.all(accountId, Math.max(0, Math.floor(limit))).map(toAudit);
  }

  async previousAudit(accountId: string, host: string, before: Date): Promise<AuditRecord | null> {
    const row = this.q.previous.get(accountId, host, before.getTime());
    return row ? toAudit(row) : null;
  }

  async markPlanned(id: string, plan: { discovered: number; planned: number; delayMs: number }): Promise<boolean> {
    return this.q.planned.run({ id, discovered: plan.discovered, planned: plan.planned, delay: plan.delayMs }).changes > 0;
  }

  async auditsInProgress(limit: number): Promise<AuditRecord[]> {
    return this.q.inProgressAll.all(Math.max(0, Math.floor(limit))).map(toAudit);
  }

  async claimFinish(id: string, now: Date, leaseMs: number): Promise<Leased<AuditRecord> | null> {
    const token = randomUUID();
    const row = this.q.claimFinish.get({ id, now: now.getTime(), until: now.getTime() + leaseMs, token });
    return row ? { row: toAudit(row), leaseToken: token } : null;
  }

  async endAudit(
    claim: { row: AuditRecord; leaseToken: string | null },
    end: { status: 'done' | 'failed'; at: Date; result: string | null; error: string | null },
  ): Promise<boolean> {
    return this.q.end.run({ id: claim.row.id, token: claim.leaseToken, status: end.status, at: end.at.getTime(), result: end.result, error: end.error }).changes > 0;
  }
}
