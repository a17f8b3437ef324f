// AccountRepo on the embedded SQLite file, sharing SqliteRepo's connection. Expired rows are filtered on read
// and removed by pruneExpired (SQLite has no TTL). The scans page is one statement on scans_owner_id; the
// previous score of each row is a seek on scans_host_id.
import type Database from 'better-sqlite3';
import type {
  AccountKeyRecord,
  AccountKeyView,
  AccountRecord,
  AccountRepo,
  OwnedScan,
  OwnedScansQuery,
  SessionRecord,
  SignInTokenRecord,
  UnownedScan,
} from '../accounts-repo.js';
import { SCAN_COLS, scanFields, type ScanColumns } from './rows.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sign_in_tokens (
  token_hash TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  return_to TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sign_in_tokens_expires ON sign_in_tokens(expires_at);
CREATE TABLE IF NOT EXISTS sessions (
  id_hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  absolute_expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account_id);
CREATE INDEX IF NOT EXISTS sessions_expires ON sessions(expires_at);
CREATE TABLE IF NOT EXISTS account_keys (
  key_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  name TEXT NOT NULL,
  last_used_at INTEGER
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS account_keys_account ON account_keys(account_id);
CREATE INDEX IF NOT EXISTS scans_owner_id ON scans(owner_account_id, id DESC) WHERE owner_account_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS scans_owner_host_id ON scans(owner_account_id, host, id DESC) WHERE owner_account_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS scans_host_id ON scans(host, id DESC);
`;

/** Adds the scans' owner column to a file made before accounts existed; run before SqliteRepo prepares statements. */
export function migrateAccountSchema(db: Database.Database): void {
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(scans)').all();
  if (!columns.some((c) => c.name === 'owner_account_id')) db.exec('ALTER TABLE scans ADD COLUMN owner_account_id TEXT');
  db.exec(SCHEMA);
}

interface AccountRow { id: string; email: string; created_at: number }
interface TokenRow { token_hash: string; email: string; return_to: string | null; created_at: number; expires_at: number }
interface SessionRow {
  id_hash: string;
  account_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  absolute_expires_at: number;
}
interface AccountKeyRow { key_id: string; account_id: string; name: string; last_used_at: number | null }
/** A scan of the console's page: the scan's columns and the score of its host's scan before it. */
type OwnedRow = ScanColumns & { previous_score: number | null };

const toAccount = (r: AccountRow): AccountRecord => ({ id: r.id, email: r.email, createdAt: new Date(r.created_at) });
const toToken = (r: TokenRow): SignInTokenRecord => ({
  tokenHash: r.token_hash,
  email: r.email,
  returnTo: r.return_to,
  createdAt: new Date(r.created_at),
  expiresAt: new Date(r.expires_at),
});
const toSession = (r: SessionRow): SessionRecord => ({
  idHash: r.id_hash,
  accountId: r.account_id,
  createdAt: new Date(r.created_at),
  lastSeenAt: new Date(r.last_seen_at),
  expiresAt: new Date(r.expires_at),
  absoluteExpiresAt: new Date(r.absolute_expires_at),
});
const toAccountKey = (r: AccountKeyRow): AccountKeyRecord => ({
  keyId: r.key_id,
  accountId: r.account_id,
  name: r.name,
  lastUsedAt: r.last_used_at === null ? null : new Date(r.last_used_at),
});
const toOwned = (r: OwnedRow): OwnedScan => {
  const { id, host, score, grade, createdAt, ownerKeyId } = scanFields(r);
  return { id, host, score, grade, createdAt, keyId: ownerKeyId, previousScore: r.previous_score };
};

const OWNED_COLS = `${SCAN_COLS.split(', ').map((c) => `s.${c}`).join(', ')},
  (SELECT p.score FROM scans AS p WHERE p.host = s.host AND p.id < s.id ORDER BY p.id DESC LIMIT 1) AS previous_score`;

export class SqliteAccounts implements AccountRepo {
  private readonly q;
  private readonly deleteTx;

  constructor(private readonly db: Database.Database) {
    const q = {
      insertAccount: db.prepare<[string, string, number]>('INSERT OR IGNORE INTO accounts (id, email, created_at) VALUES (?, ?, ?)'),
      accountById: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE id = ?'),
      accountByEmail: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE email = ?'),
      revokeKeys: db.prepare<[number, string]>(
        'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id IN (SELECT key_id FROM account_keys WHERE account_id = ?)',
      ),
      unlinkScans: db.prepare<[string]>('UPDATE scans SET owner_account_id = NULL, owner_key_id = NULL WHERE owner_account_id = ?'),
      deleteAccountKeys: db.prepare<[string]>('DELETE FROM account_keys WHERE account_id = ?'),
      deleteTokensOf: db.prepare<[string]>('DELETE FROM sign_in_tokens WHERE email = ?'),
      deleteAccount: db.prepare<[string]>('DELETE FROM accounts WHERE id = ?'),
      putToken: db.prepare<[TokenRow]>(
        `INSERT INTO sign_in_tokens (token_hash, email, return_to, created_at, expires_at)
         VALUES (@token_hash, @email, @return_to, @created_at, @expires_at)`,
      ),
      peekToken: db.prepare<[string, number], TokenRow>('SELECT * FROM sign_in_tokens WHERE token_hash = ? AND expires_at > ?'),
      consumeToken: db.prepare<[string, string, number], TokenRow>(
        'DELETE FROM sign_in_tokens WHERE token_hash = ? AND email = ? AND expires_at > ? RETURNING *',
      ),
      putSession: db.prepare<[SessionRow]>(
        `INSERT INTO sessions (id_hash, account_id, created_at, last_seen_at, expires_at, absolute_expires_at)
         VALUES (@id_hash, @account_id, @created_at, @last_seen_at, @expires_at, @absolute_expires_at)`,
      ),
      findSession: db.prepare<[string, number], SessionRow>('SELECT * FROM sessions WHERE id_hash = ? AND expires_at > ?'),
      touchSession: db.prepare<[number, number, string]>('UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE id_hash = ?'),
      deleteSession: db.prepare<[string]>('DELETE FROM sessions WHERE id_hash = ?'),
      deleteSessionsOf: db.prepare<[string]>('DELETE FROM sessions WHERE account_id = ?'),
      pruneTokens: db.prepare<[number]>('DELETE FROM sign_in_tokens WHERE expires_at <= ?'),
      pruneSessions: db.prepare<[number]>('DELETE FROM sessions WHERE expires_at <= ?'),
      putAccountKey: db.prepare<[AccountKeyRow]>(
        `INSERT INTO account_keys (key_id, account_id, name, last_used_at) VALUES (@key_id, @account_id, @name, @last_used_at)
         ON CONFLICT(key_id) DO UPDATE SET account_id = excluded.account_id, name = excluded.name, last_used_at = excluded.last_used_at`,
      ),
      accountKey: db.prepare<[string], AccountKeyRow>('SELECT * FROM account_keys WHERE key_id = ?'),
      accountKeys: db.prepare<[string], AccountKeyRow & { created_at: number; revoked_at: number | null }>(
        `SELECT k.*, a.created_at, a.revoked_at FROM account_keys AS k JOIN api_keys AS a ON a.id = k.key_id
         WHERE k.account_id = ? ORDER BY a.created_at DESC, k.key_id`,
      ),
      markUsed: db.prepare<[number, string]>('UPDATE account_keys SET last_used_at = ? WHERE key_id = ?'),
      owned: db.prepare<[{ a: string; before: number; n: number }], OwnedRow>(
        `SELECT ${OWNED_COLS} FROM scans AS s INDEXED BY scans_owner_id
         WHERE s.owner_account_id = @a AND s.id < @before ORDER BY s.id DESC LIMIT @n`,
      ),
      ownedByHost: db.prepare<[{ a: string; h: string; before: number; n: number }], OwnedRow>(
        `SELECT ${OWNED_COLS} FROM scans AS s INDEXED BY scans_owner_host_id
         WHERE s.owner_account_id = @a AND s.host = @h AND s.id < @before ORDER BY s.id DESC LIMIT @n`,
      ),
      // The ids travel as one JSON array, so any number of them is one statement.
      unowned: db.prepare<[string], Omit<OwnedRow, 'owner_key_id' | 'previous_score'>>(
        `SELECT id, host, score, grade, created_at FROM scans
         WHERE id IN (SELECT value FROM json_each(?)) AND owner_account_id IS NULL AND owner_key_id IS NULL ORDER BY id DESC`,
      ),
      attach: db.prepare<[string, string]>(
        `UPDATE scans SET owner_account_id = ?
         WHERE id IN (SELECT value FROM json_each(?)) AND owner_account_id IS NULL AND owner_key_id IS NULL`,
      ),
      countsByKey: db.prepare<[string, number], { owner_key_id: string | null; n: number }>(
        `SELECT owner_key_id, COUNT(*) AS n FROM scans INDEXED BY scans_owner_id
         WHERE owner_account_id = ? AND created_at >= ? GROUP BY owner_key_id`,
      ),
    };
    this.q = q;
    this.deleteTx = db.transaction((id: string, now: number) => {
      const account = q.accountById.get(id);
      if (!account) return;
      q.revokeKeys.run(now, id);
      q.deleteSessionsOf.run(id);
      q.unlinkScans.run(id);
      q.deleteAccountKeys.run(id);
      q.deleteTokensOf.run(account.email);
      q.deleteAccount.run(id);
    });
  }

  async ensureAccount(email: string, now: Date, newId: string): Promise<AccountRecord> {
    this.q.insertAccount.run(newId, email, now.getTime());
    return toAccount(this.q.accountByEmail.get(email)!);
  }

  async getAccount(id: string): Promise<AccountRecord | null> {
    const row = this.q.accountById.get(id);
    return row ? toAccount(row) : null;
  }

  async findAccountByEmail(email: string): Promise<AccountRecord | null> {
    const row = this.q.accountByEmail.get(email);
    return row ? toAccount(row) : null;
  }

  async deleteAccount(id: string, now: Date): Promise<void> {
    this.deleteTx(id, now.getTime());
  }

  async putSignInToken(rec: SignInTokenRecord): Promise<void> {
    this.q.putToken.run({
      token_hash: rec.tokenHash,
      email: rec.email,
      return_to: rec.returnTo,
      created_at: rec.createdAt.getTime(),
      expires_at: rec.expiresAt.getTime(),
    });
  }

  async peekSignInToken(tokenHash: string, now: Date): Promise<SignInTokenRecord | null> {
    const row = this.q.peekToken.get(tokenHash, now.getTime());
    return row ? toToken(row) : null;
  }

  async consumeSignInToken(tokenHash: string, email: string, now: Date): Promise<SignInTokenRecord | null> {
    const row = this.q.consumeToken.get(tokenHash, email, now.getTime());
    return row ? toToken(row) : null;
  }

  async putSession(rec: SessionRecord): Promise<void> {
    this.q.putSession.run({
      id_hash: rec.idHash,
      account_id: rec.accountId,
      created_at: rec.createdAt.getTime(),
      last_seen_at: rec.lastSeenAt.getTime(),
      expires_at: rec.expiresAt.getTime(),
      absolute_expires_at: rec.absoluteExpiresAt.getTime(),
    });
  }

  async findSession(idHash: string, now: Date): Promise<SessionRecord | null> {
    const row = this.q.findSession.get(idHash, now.getTime());
    return row ? toSession(row) : null;
  }

  async touchSession(idHash: string, lastSeenAt: Date, expiresAt: Date): Promise<void> {
    this.q.touchSession.run(lastSeenAt.getTime(), expiresAt.getTime(), idHash);
  }

  async deleteSession(idHash: string): Promise<void> {
    this.q.deleteSession.run(idHash);
  }

  async deleteAccountSessions(accountId: string): Promise<number> {
    return this.q.deleteSessionsOf.run(accountId).changes;
  }

  async pruneExpired(now: Date): Promise<void> {
    this.q.pruneTokens.run(now.getTime());
    this.q.pruneSessions.run(now.getTime());
  }

  async putAccountKey(rec: AccountKeyRecord): Promise<void> {
    this.q.putAccountKey.run({
      key_id: rec.keyId,
      account_id: rec.accountId,
      name: rec.name,
      last_used_at: rec.lastUsedAt ? rec.lastUsedAt.getTime() : null,
    });
  }

  async accountKeyOf(keyId: string): Promise<AccountKeyRecord | null> {
    const row = this.q.accountKey.get(keyId);
    return row ? toAccountKey(row) : null;
  }

  async listAccountKeys(accountId: string): Promise<AccountKeyView[]> {
    return this.q.accountKeys.all(accountId).map((r) => ({
      ...toAccountKey(r),
      createdAt: new Date(r.created_at),
      revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at),
    }));
  }

  async markKeyUsed(keyId: string, at: Date): Promise<void> {
    this.q.markUsed.run(at.getTime(), keyId);
  }

  async scansOfAccount(accountId: string, query: OwnedScansQuery): Promise<OwnedScan[]> {
    const before = query.beforeId ?? Number.MAX_SAFE_INTEGER;
    const n = Math.max(0, Math.floor(query.limit));
    const rows = query.host
      ? this.q.ownedByHost.all({ a: accountId, h: query.host, before, n })
      : this.q.owned.all({ a: accountId, before, n });
    return rows.map(toOwned);
  }

  async scanCountsByKey(accountId: string, since: Date): Promise<Map<string | null, number>> {
    return new Map(this.q.countsByKey.all(accountId, since.getTime()).map((r) => [r.owner_key_id, r.n]));
  }

  async unownedScans(scanIds: number[]): Promise<UnownedScan[]> {
    return this.q.unowned.all(JSON.stringify(scanIds.filter(isScanId))).map((r) => ({
      id: r.id,
      host: r.host,
      score: r.score,
      grade: r.grade,
      createdAt: new Date(r.created_at),
    }));
  }

  async attachScansToAccount(accountId: string, scanIds: number[]): Promise<number> {
    return this.q.attach.run(accountId, JSON.stringify(scanIds.filter(isScanId))).changes;
  }
}

const isScanId = (id: unknown): id is number => Number.isSafeInteger(id) && (id as number) > 0;
