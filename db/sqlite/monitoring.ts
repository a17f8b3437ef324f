// MonitoringRepo on the SQLite file of SqliteRepo. Claims are one `UPDATE … WHERE id = (SELECT …) RETURNING *`:
// SQLite runs a write statement under the file's write lock, so two processes on one file never claim one row.
// Rows that expire (finished deliveries, old attempts) are deleted on write, SQLite having no TTL.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { DatabaseUnavailableError } from '../../lib/db-failure.js';
import {
  ATTEMPTS_KEPT_PER_ENDPOINT,
  DELIVERIES_IN_FLIGHT_PER_ACCOUNT,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryNext,
  type Leased,
  type Monitor,
  type MonitoringRepo,
  type NewDelivery,
  type OwnershipClaim,
  type ScanEventRow,
  type ScanSummary,
  type VerificationMethod,
  type WebhookEndpoint,
} from '../monitoring-repo.js';
import { SCAN_COLS, toScanSummary, type ScanColumns } from './rows.js';

export const MONITORING_SCHEMA = `
CREATE TABLE IF NOT EXISTS ownership_claims (
  account_id TEXT NOT NULL,
  host TEXT NOT NULL,
  origin TEXT NOT NULL,
  token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  verified_at INTEGER,
  method TEXT,
  checked_at INTEGER,
  PRIMARY KEY (account_id, host)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ownership_claims_host ON ownership_claims(host, verified_at);
CREATE TABLE IF NOT EXISTS monitors (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  host TEXT NOT NULL,
  origin TEXT NOT NULL,
  cadence TEXT NOT NULL,
  next_run_at INTEGER NOT NULL,
  lease_until INTEGER NOT NULL DEFAULT 0,
  lease_token TEXT,
  created_at INTEGER NOT NULL,
  last_run_at INTEGER,
  last_outcome TEXT,
  last_scan_id INTEGER,
  UNIQUE (account_id, host)
);
CREATE INDEX IF NOT EXISTS monitors_due ON monitors(next_run_at);
CREATE TABLE IF NOT EXISTS webhook_endpoints (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  secret_enc TEXT NOT NULL,
  previous_secret_enc TEXT,
  previous_secret_until INTEGER,
  created_at INTEGER NOT NULL,
  disabled_at INTEGER,
  disabled_reason TEXT,
  failing_since INTEGER
);
CREATE INDEX IF NOT EXISTS webhook_endpoints_account ON webhook_endpoints(account_id, created_at);
CREATE TABLE IF NOT EXISTS scan_events (
  scan_id INTEGER PRIMARY KEY,
  host TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  lease_until INTEGER NOT NULL DEFAULT 0,
  lease_token TEXT
);
CREATE INDEX IF NOT EXISTS scan_events_lease ON scan_events(lease_until, scan_id);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id TEXT PRIMARY KEY,
  dedupe_key TEXT NOT NULL UNIQUE,
  endpoint_id TEXT NOT NULL,
  message_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  payload TEXT NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL DEFAULT 'pending',
  lease_until INTEGER NOT NULL DEFAULT 0,
  lease_token TEXT
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_finished ON webhook_deliveries(endpoint_id, created_at) WHERE state <> 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_in_flight ON webhook_deliveries(lease_until, endpoint_id) WHERE state = 'pending';
CREATE TABLE IF NOT EXISTS webhook_attempts (
  seq INTEGER PRIMARY KEY,
  endpoint_id TEXT NOT NULL,
  delivery_id TEXT NOT NULL,
  message_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  status INTEGER,
  outcome TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_attempts_endpoint ON webhook_attempts(endpoint_id, seq DESC);
`;

/** Finished deliveries are kept this long (their attempts stay in webhook_attempts, newest 100 per endpoint). */
const FINISHED_DELIVERY_TTL_MS = 30 * 86_400_000;

interface ClaimRow { account_id: string; host: string; origin: string; token: string; created_at: number; verified_at: number | null; method: string | null; checked_at?: number | null }
interface MonitorRow {
  id: string; account_id: string; host: string; origin: string; cadence: string; next_run_at: number; lease_until: number;
  lease_token: string | null; created_at: number; last_run_at: number | null; last_outcome: string | null; last_scan_id: number | null;
}
interface EndpointRow {
  id: string; account_id: string; url: string; events: string; secret_enc: string; previous_secret_enc: string | null;
  previous_secret_until: number | null; created_at: number; disabled_at: number | null; disabled_reason: string | null; failing_since: number | null;
}
interface ScanEventDbRow { scan_id: number; host: string; created_at: number; lease_token: string }
interface DeliveryRow {
  id: string; dedupe_key: string; endpoint_id: string; message_id: string; event_type: string; payload: string;
  next_attempt_at: number; created_at: number; attempts: number; state: string; lease_token: string | null;
}
interface AttemptRow {
  endpoint_id: string; delivery_id: string; message_id: string; event_type: string; attempt: number; status: number | null;
  outcome: string; duration_ms: number; at: number;
}

const date = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));
const ms = (d: Date | null): number | null => (d === null ? null : d.getTime());

const toClaim = (r: ClaimRow): OwnershipClaim => ({
  accountId: r.account_id,
  host: r.host,
  origin: r.origin,
  token: r.token,
  createdAt: new Date(r.created_at),
  verifiedAt: date(r.verified_at),
  method: r.method as VerificationMethod | null,
});

const toMonitor = (r: MonitorRow): Monitor => ({
  id: r.id,
  accountId: r.account_id,
  host: r.host,
  origin: r.origin,
  cadence: r.cadence as Monitor['cadence'],
  nextRunAt: new Date(r.next_run_at),
  createdAt: new Date(r.created_at),
  lastRunAt: date(r.last_run_at),
  lastOutcome: r.last_outcome,
  lastScanId: r.last_scan_id,
});

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  accountId: r.account_id,
  url: r.url,
  events: JSON.parse(r.events) as string[],
  secretEnc: r.secret_enc,
  previousSecretEnc: r.previous_secret_enc,
  previousSecretUntil: date(r.previous_secret_until),
  createdAt: new Date(r.created_at),
  disabledAt: date(r.disabled_at),
  disabledReason: r.disabled_reason,
  failingSince: date(r.failing_since),
});

const endpointRow = (e: WebhookEndpoint): EndpointRow => ({
  id: e.id,
  account_id: e.accountId,
  url: e.url,
  events: JSON.stringify(e.events),
  secret_enc: e.secretEnc,
  previous_secret_enc: e.previousSecretEnc,
  previous_secret_until: ms(e.previousSecretUntil),
  created_at: e.createdAt.getTime(),
  disabled_at: ms(e.disabledAt),
  disabled_reason: e.disabledReason,
  failing_since: ms(e.failingSince),
});

const toDelivery = (r: DeliveryRow): Delivery => ({
  id: r.id,
  dedupeKey: r.dedupe_key,
  endpointId: r.endpoint_id,
  messageId: r.message_id,
  eventType: r.event_type,
  payload: r.payload,
  nextAttemptAt: new Date(r.next_attempt_at),
  createdAt: new Date(r.created_at),
  attempts: r.attempts,
  state: r.state as Delivery['state'],
});

const deliveryParams = (d: NewDelivery) => ({
  id: d.id,
  dedupe_key: d.dedupeKey,
  endpoint_id: d.endpointId,
  message_id: d.messageId,
  event_type: d.eventType,
  payload: d.payload,
  next_attempt_at: d.nextAttemptAt.getTime(),
  created_at: d.createdAt.getTime(),
});

const toAttempt = (r: AttemptRow): DeliveryAttempt => ({
  endpointId: r.endpoint_id,
  deliveryId: r.delivery_id,
  messageId: r.message_id,
  eventType: r.event_type,
  attempt: r.attempt,
  status: r.status,
  outcome: r.outcome,
  durationMs: r.duration_ms,
  at: new Date(r.at),
});

export class SqliteMonitoring implements MonitoringRepo {
  private stmts: ReturnType<SqliteMonitoring['prepareAll']> | null = null;
  private tx: ReturnType<SqliteMonitoring['makeTransactions']> | null = null;

  constructor(private readonly db: Database.Database) {}

  /** Called by SqliteRepo.init, after its own schema. */
  init(): void {
    this.db.exec(MONITORING_SCHEMA);
    // Stores made before claims were re-checked on a schedule lack the column of the last check.
    const claimColumns = this.db.prepare<[], { name: string }>('PRAGMA table_info(ownership_claims)').all();
    if (!claimColumns.some((c) => c.name === 'checked_at')) this.db.exec('ALTER TABLE ownership_claims ADD COLUMN checked_at INTEGER');
    this.stmts = this.prepareAll();
    this.tx = this.makeTransactions();
  }

  private makeTransactions() {
    return {
      addMonitor: this.db.transaction(this.addMonitorTx),
      removeAccount: this.db.transaction((accountId: string) => {
        for (const table of ['ownership_claims', 'monitors', 'webhook_endpoints']) {
          this.db.prepare(`DELETE FROM ${table} WHERE account_id = ?`).run(accountId);
        }
      }),
      complete: this.db.transaction(this.completeTx),
      record: this.db.transaction(this.recordTx),
    };
  }

  private get t(): ReturnType<SqliteMonitoring['makeTransactions']> {
    if (!this.db.open) throw new DatabaseUnavailableError('SqliteRepo: the store is closed');
    if (!this.tx) throw new Error('SqliteMonitoring: init() has not been called');
    return this.tx;
  }

  private get q(): ReturnType<SqliteMonitoring['prepareAll']> {
    if (!this.db.open) throw new DatabaseUnavailableError('SqliteRepo: the store is closed'); // 503, as in SqliteRepo
    if (!this.stmts) throw new Error('SqliteMonitoring: init() has not been called');
    return this.stmts;
  }

  /** Queues a saved scan's events; runs inside SqliteRepo's save transaction. */
  enqueueScanEvent(scanId: number, host: string, createdAt: number): void {
    this.q.enqueueEvent.run(scanId, host, createdAt);
  }

  private prepareAll() {
    const db = this.db;
    const claimWhere = (table: string, due: string, order: string) =>
      `UPDATE ${table} SET lease_until = @until, lease_token = @token
       WHERE rowid = (SELECT rowid FROM ${table} WHERE ${due} AND lease_until <= @now ORDER BY ${order} LIMIT 1)
         AND ${due} AND lease_until <= @now
       RETURNING *`;
    return {
      history: db.prepare<[string, number], ScanColumns>(
        `SELECT ${SCAN_COLS} FROM scans
         WHERE host = ? AND public_entry = 1 AND NOT EXISTS (SELECT 1 FROM delisted d WHERE d.host = scans.host)
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      ),
      previous: db
        .prepare<{ host: string; id: number }, number>(
          `SELECT s.id FROM scans s, scans cur WHERE cur.id = @id AND s.host = @host AND s.public_entry = 1
             AND (s.created_at < cur.created_at OR (s.created_at = cur.created_at AND s.id < cur.id))
           ORDER BY s.created_at DESC, s.id DESC LIMIT 1`,
        )
        .pluck(),
      insertClaim: db.prepare<[ClaimRow]>(
        `INSERT OR IGNORE INTO ownership_claims (account_id, host, origin, token, created_at, verified_at, method)
         VALUES (@account_id, @host, @origin, @token, @created_at, @verified_at, @method)`,
      ),
      getClaim: db.prepare<[string, string], ClaimRow>('SELECT * FROM ownership_claims WHERE account_id = ? AND host = ?'),
      listClaims: db.prepare<[string], ClaimRow>('SELECT * FROM ownership_claims WHERE account_id = ? ORDER BY created_at, host'),
      verify: db.prepare<{ at: number; method: string; account: string; host: string }>(
        `UPDATE ownership_claims SET verified_at = COALESCE(verified_at, @at), method = COALESCE(method, @method), checked_at = @at
         WHERE account_id = @account AND host = @host`,
      ),
      claimRecheck: db.prepare<{ now: number; before: number }, ClaimRow>(
        `UPDATE ownership_claims SET checked_at = @now
         WHERE (account_id, host) = (SELECT account_id, host FROM ownership_claims
             WHERE verified_at IS NOT NULL AND COALESCE(checked_at, verified_at) <= @before
             ORDER BY COALESCE(checked_at, verified_at), account_id, host LIMIT 1)
           AND verified_at IS NOT NULL AND COALESCE(checked_at, verified_at) <= @before
         RETURNING *`,
      ),
      unverify: db.prepare<[string, string]>('UPDATE ownership_claims SET verified_at = NULL, method = NULL WHERE account_id = ? AND host = ?'),
      verifiedClaims: db.prepare<[string], ClaimRow>(
        'SELECT * FROM ownership_claims WHERE host = ? AND verified_at IS NOT NULL ORDER BY verified_at, account_id',
      ),
      countMonitors: db.prepare<[string], number>('SELECT COUNT(*) FROM monitors WHERE account_id = ?').pluck(),
      hasMonitor: db.prepare<[string, string], number>('SELECT 1 FROM monitors WHERE account_id = ? AND host = ?').pluck(),
      insertMonitor: db.prepare<[MonitorRow]>(
        `INSERT INTO monitors (id, account_id, host, origin, cadence, next_run_at, lease_until, lease_token, created_at,
           last_run_at, last_outcome, last_scan_id)
         VALUES (@id, @account_id, @host, @origin, @cadence, @next_run_at, 0, NULL, @created_at, @last_run_at,
           @last_outcome, @last_scan_id)`,
      ),
      listMonitors: db.prepare<[string], MonitorRow>('SELECT * FROM monitors WHERE account_id = ? ORDER BY created_at, host'),
      removeMonitor: db.prepare<[string, string]>('DELETE FROM monitors WHERE account_id = ? AND id = ?'),
      claimMonitor: db.prepare<[{ now: number; until: number; token: string }], MonitorRow>(
        claimWhere('monitors', 'next_run_at <= @now', 'next_run_at'),
      ),
      finishMonitor: db.prepare<[{ id: string; token: string; next: number; at: number; outcome: string; scan: number | null }]>(
        `UPDATE monitors SET next_run_at = @next, last_run_at = @at, last_outcome = @outcome,
           last_scan_id = COALESCE(@scan, last_scan_id), lease_until = 0, lease_token = NULL
         WHERE id = @id AND lease_token = @token`,
      ),
      insertEndpoint: db.prepare<[EndpointRow]>(
        `INSERT INTO webhook_endpoints (id, account_id, url, events, secret_enc, previous_secret_enc, previous_secret_until,
           created_at, disabled_at, disabled_reason, failing_since)
         VALUES (@id, @account_id, @url, @events, @secret_enc, @previous_secret_enc, @previous_secret_until, @created_at,
           @disabled_at, @disabled_reason, @failing_since)`,
      ),
      updateEndpoint: db.prepare<[EndpointRow]>(
        `UPDATE webhook_endpoints SET events = @events, secret_enc = @secret_enc, previous_secret_enc = @previous_secret_enc,
           previous_secret_until = @previous_secret_until, disabled_at = @disabled_at, disabled_reason = @disabled_reason,
           failing_since = @failing_since
         WHERE id = @id`,
      ),
      getEndpoint: db.prepare<[string], EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = ?'),
      listEndpoints: db.prepare<[string], EndpointRow>('SELECT * FROM webhook_endpoints WHERE account_id = ? ORDER BY created_at, id'),
      removeEndpoint: db.prepare<[string, string]>('DELETE FROM webhook_endpoints WHERE account_id = ? AND id = ?'),
      endpointsForHost: db.prepare<[string], EndpointRow>(
        `SELECT e.* FROM webhook_endpoints e
         WHERE e.disabled_at IS NULL AND e.account_id IN
           (SELECT account_id FROM ownership_claims WHERE host = ? AND verified_at IS NOT NULL)
         ORDER BY e.created_at, e.id`,
      ),
      enqueueEvent: db.prepare<[number, string, number]>(
        'INSERT OR IGNORE INTO scan_events (scan_id, host, created_at) VALUES (?, ?, ?)',
      ),
      claimEvent: db.prepare<[{ now: number; until: number; token: string }], ScanEventDbRow>(
        claimWhere('scan_events', '1 = 1', 'lease_until, scan_id'),
      ),
      deleteEvent: db.prepare<[number, string]>('DELETE FROM scan_events WHERE scan_id = ? AND lease_token = ?'),
      insertDelivery: db.prepare<[ReturnType<typeof deliveryParams>]>(
        `INSERT OR IGNORE INTO webhook_deliveries (id, dedupe_key, endpoint_id, message_id, event_type, payload,
           next_attempt_at, created_at)
         VALUES (@id, @dedupe_key, @endpoint_id, @message_id, @event_type, @payload, @next_attempt_at, @created_at)`,
      ),
      getDelivery: db.prepare<[string], DeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = ?'),
      // The fair claim: among due deliveries whose endpoint has none in flight and whose account is under its
      // in-flight cap, the account with the fewest in flight first, then the one due the longest.
      claimDelivery: db.prepare<[{ now: number; until: number; token: string; perAccount: number }], DeliveryRow>(
        `WITH in_flight AS (
           SELECT d.endpoint_id, e.account_id FROM webhook_deliveries d LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
           WHERE d.state = 'pending' AND d.lease_until > @now),
         per_account AS (SELECT account_id, COUNT(*) AS n FROM in_flight WHERE account_id IS NOT NULL GROUP BY account_id)
         UPDATE webhook_deliveries SET lease_until = @until, lease_token = @token
         WHERE rowid = (
           SELECT d.rowid FROM webhook_deliveries d
             LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
             LEFT JOIN per_account a ON a.account_id = e.account_id
           WHERE d.state = 'pending' AND d.next_attempt_at <= @now AND d.lease_until <= @now
             AND d.endpoint_id NOT IN (SELECT endpoint_id FROM in_flight)
             AND COALESCE(a.n, 0) < @perAccount
           ORDER BY COALESCE(a.n, 0), d.next_attempt_at, d.id LIMIT 1)
           AND state = 'pending' AND next_attempt_at <= @now AND lease_until <= @now
         RETURNING *`,
      ),
      postponeDelivery: db.prepare<[{ id: string; token: string; next: number }]>(
        `UPDATE webhook_deliveries SET next_attempt_at = @next, lease_until = 0, lease_token = NULL
         WHERE id = @id AND lease_token = @token AND state = 'pending'`,
      ),
      moveDelivery: db.prepare<[{ id: string; token: string; state: string; next: number }]>(
        `UPDATE webhook_deliveries SET attempts = attempts + 1, state = @state, next_attempt_at = @next,
           lease_until = 0, lease_token = NULL
         WHERE id = @id AND lease_token = @token`,
      ),
      pruneDeliveries: db.prepare<[string, number]>(
        "DELETE FROM webhook_deliveries WHERE endpoint_id = ? AND state <> 'pending' AND created_at < ?",
      ),
      insertAttempt: db.prepare<[AttemptRow]>(
        `INSERT INTO webhook_attempts (endpoint_id, delivery_id, message_id, event_type, attempt, status, outcome,
           duration_ms, at)
         VALUES (@endpoint_id, @delivery_id, @message_id, @event_type, @attempt, @status, @outcome, @duration_ms, @at)`,
      ),
      pruneAttempts: db.prepare<[string, string, number]>(
        `DELETE FROM webhook_attempts WHERE endpoint_id = ? AND seq <=
           (SELECT seq FROM webhook_attempts WHERE endpoint_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
      ),
      listAttempts: db.prepare<[string, number], AttemptRow>(
        'SELECT * FROM webhook_attempts WHERE endpoint_id = ? ORDER BY seq DESC LIMIT ?',
      ),
    };
  }

  async scanHistory(host: string, limit: number): Promise<ScanSummary[]> {
    return this.q.history.all(host, Math.max(0, Math.floor(limit))).map(toScanSummary);
  }

  async previousScanId(host: string, scanId: number): Promise<number | null> {
    return this.q.previous.get({ host, id: scanId }) ?? null;
  }

  async putClaim(claim: OwnershipClaim): Promise<OwnershipClaim> {
    this.q.insertClaim.run({
      account_id: claim.accountId,
      host: claim.host,
      origin: claim.origin,
      token: claim.token,
      created_at: claim.createdAt.getTime(),
      verified_at: ms(claim.verifiedAt),
      method: claim.method,
    });
    return toClaim(this.q.getClaim.get(claim.accountId, claim.host)!);
  }

  async getClaim(accountId: string, host: string): Promise<OwnershipClaim | null> {
    const row = this.q.getClaim.get(accountId, host);
    return row ? toClaim(row) : null;
  }

  async listClaims(accountId: string): Promise<OwnershipClaim[]> {
    return this.q.listClaims.all(accountId).map(toClaim);
  }

  async markVerified(accountId: string, host: string, at: Date, method: VerificationMethod): Promise<void> {
    this.q.verify.run({ at: at.getTime(), method, account: accountId, host });
  }

  async claimDueRecheck(now: Date, checkedBefore: Date): Promise<OwnershipClaim | null> {
    const row = this.q.claimRecheck.get({ now: now.getTime(), before: checkedBefore.getTime() });
    return row ? toClaim(row) : null;
  }

  async clearVerified(accountId: string, host: string): Promise<void> {
    this.q.unverify.run(accountId, host);
  }

  async verifiedClaims(host: string): Promise<OwnershipClaim[]> {
    return this.q.verifiedClaims.all(host).map(toClaim);
  }

  private readonly addMonitorTx = (m: Monitor, max: number): 'added' | 'limit' | 'exists' => {
    const q = this.q;
    if (q.hasMonitor.get(m.accountId, m.host) !== undefined) return 'exists';
    if ((q.countMonitors.get(m.accountId) ?? 0) >= max) return 'limit';
    q.insertMonitor.run({
      id: m.id,
      account_id: m.accountId,
      host: m.host,
      origin: m.origin,
      cadence: m.cadence,
      next_run_at: m.nextRunAt.getTime(),
      lease_until: 0,
      lease_token: null,
      created_at: m.createdAt.getTime(),
      last_run_at: ms(m.lastRunAt),
      last_outcome: m.lastOutcome,
      last_scan_id: m.lastScanId,
    });
    return 'added';
  };

  async addMonitor(monitor: Monitor, max: number): Promise<'added' | 'limit' | 'exists'> {
    // IMMEDIATE: the count and the insert hold the write lock together, so two instances cannot both pass the cap.
    return this.t.addMonitor.immediate(monitor, max);
  }

  async listMonitors(accountId: string): Promise<Monitor[]> {
    return this.q.listMonitors.all(accountId).map(toMonitor);
  }

  async removeMonitor(accountId: string, id: string): Promise<boolean> {
    return this.q.removeMonitor.run(accountId, id).changes > 0;
  }

  async claimDueMonitor(now: Date, leaseMs: number): Promise<Leased<Monitor> | null> {
    const token = randomUUID();
    const row = this.q.claimMonitor.get({ now: now.getTime(), until: now.getTime() + leaseMs, token });
    return row ? { row: toMonitor(row), leaseToken: token } : null;
  }

  async finishMonitorRun(
    claim: Leased<Monitor>,
    done: { nextRunAt: Date; at: Date; outcome: string; scanId: number | null },
  ): Promise<boolean> {
    const res = this.q.finishMonitor.run({
      id: claim.row.id,
      token: claim.leaseToken,
      next: done.nextRunAt.getTime(),
      at: done.at.getTime(),
      outcome: done.outcome,
      scan: done.scanId,
    });
    return res.changes > 0;
  }

  async addEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    this.q.insertEndpoint.run(endpointRow(endpoint));
  }

  async getEndpoint(id: string): Promise<WebhookEndpoint | null> {
    const row = this.q.getEndpoint.get(id);
    return row ? toEndpoint(row) : null;
  }

  async listEndpoints(accountId: string): Promise<WebhookEndpoint[]> {
    return this.q.listEndpoints.all(accountId).map(toEndpoint);
  }

  async updateEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    this.q.updateEndpoint.run(endpointRow(endpoint));
  }

  async removeEndpoint(accountId: string, id: string): Promise<boolean> {
    return this.q.removeEndpoint.run(accountId, id).changes > 0;
  }

  async endpointsForHost(host: string): Promise<WebhookEndpoint[]> {
    return this.q.endpointsForHost.all(host).map(toEndpoint);
  }

  async claimScanEvent(now: Date, leaseMs: number): Promise<Leased<ScanEventRow> | null> {
    const token = randomUUID();
    const row = this.q.claimEvent.get({ now: now.getTime(), until: now.getTime() + leaseMs, token });
    return row ? { row: { scanId: row.scan_id, host: row.host, createdAt: new Date(row.created_at) }, leaseToken: token } : null;
  }

  private readonly completeTx = (claim: Leased<ScanEventRow>, deliveries: NewDelivery[]): boolean => {
    if (this.q.deleteEvent.run(claim.row.scanId, claim.leaseToken).changes === 0) return false;
    for (const d of deliveries) this.q.insertDelivery.run(deliveryParams(d));
    return true;
  };

  async completeScanEvent(claim: Leased<ScanEventRow>, deliveries: NewDelivery[]): Promise<boolean> {
    return this.t.complete(claim, deliveries);
  }

  async addDelivery(delivery: NewDelivery): Promise<void> {
    this.q.insertDelivery.run(deliveryParams(delivery));
  }

  async getDelivery(id: string): Promise<Delivery | null> {
    const row = this.q.getDelivery.get(id);
    return row ? toDelivery(row) : null;
  }

  async oldestPendingDelivery(): Promise<Date | null> {
    if (!this.db.open) throw new DatabaseUnavailableError('SqliteRepo: the store is closed');
    const row = this.db.prepare<[], { at: number | null }>("SELECT MIN(created_at) AS at FROM webhook_deliveries WHERE state = 'pending'").get();
    return row?.at == null ? null : new Date(row.at);
  }

  async claimDueDelivery(now: Date, leaseMs: number): Promise<Leased<Delivery> | null> {
    const token = randomUUID();
    const row = this.q.claimDelivery.get({ now: now.getTime(), until: now.getTime() + leaseMs, token, perAccount: DELIVERIES_IN_FLIGHT_PER_ACCOUNT });
    return row ? { row: toDelivery(row), leaseToken: token } : null;
  }

  async postponeDelivery(claim: Leased<Delivery>, until: Date): Promise<boolean> {
    return this.q.postponeDelivery.run({ id: claim.row.id, token: claim.leaseToken, next: until.getTime() }).changes > 0;
  }

  private readonly recordTx = (claim: Leased<Delivery>, a: DeliveryAttempt, next: DeliveryNext): boolean => {
    const q = this.q;
    const moved = q.moveDelivery.run({
      id: claim.row.id,
      token: claim.leaseToken,
      state: next.state,
      next: next.state === 'pending' ? next.nextAttemptAt.getTime() : claim.row.nextAttemptAt.getTime(),
    });
    if (moved.changes === 0) return false;
    q.insertAttempt.run({
      endpoint_id: a.endpointId,
      delivery_id: a.deliveryId,
      message_id: a.messageId,
      event_type: a.eventType,
      attempt: a.attempt,
      status: a.status,
      outcome: a.outcome,
      duration_ms: Math.round(a.durationMs),
      at: a.at.getTime(),
    });
    q.pruneAttempts.run(a.endpointId, a.endpointId, ATTEMPTS_KEPT_PER_ENDPOINT);
    if (next.state !== 'pending') q.pruneDeliveries.run(a.endpointId, a.at.getTime() - FINISHED_DELIVERY_TTL_MS);
    return true;
  };

  async recordAttempt(claim: Leased<Delivery>, attempt: DeliveryAttempt, next: DeliveryNext): Promise<boolean> {
    return this.t.record(claim, attempt, next);
  }

  async removeAccount(accountId: string): Promise<void> {
    this.t.removeAccount(accountId);
  }

  async listAttempts(endpointId: string, limit: number): Promise<DeliveryAttempt[]> {
    return this.q.listAttempts.all(endpointId, Math.max(0, Math.floor(limit))).map(toAttempt);
  }
}
