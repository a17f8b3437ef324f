// The console's storage: accounts, sign-in tokens, sessions, the account side of Pro keys and the scans an
// account ran. A separate interface from Repository's core (reached as `db.accounts`), implemented by both
// adapters (sqlite/accounts.ts, mongo/accounts.ts). Every secret arrives here already hashed.

export interface AccountRecord {
  id: string; // random, public within the console (never a secret)
  email: string; // lower case
  createdAt: Date;
}

export interface SignInTokenRecord {
  tokenHash: string; // sha256 hex of the token mailed in the link
  email: string;
  /** Where to go after signing in: a same-site path checked before it was stored. */
  returnTo: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export interface SessionRecord {
  idHash: string; // sha256 hex of the cookie value
  accountId: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** Sliding end: last use plus the idle window, never past the absolute cap fixed at sign-in. */
  expiresAt: Date;
  absoluteExpiresAt: Date;
}

/** The account side of a Pro key (the key itself is an ApiKeyRecord of Repository). */
export interface AccountKeyRecord {
  keyId: string;
  accountId: string;
  name: string;
  lastUsedAt: Date | null;
}

/** An account's key as the keys page lists it: the account side joined with the key's own dates. */
export interface AccountKeyView extends AccountKeyRecord {
  createdAt: Date;
  revokedAt: Date | null;
}

/** One row of the console's scans page. */
export interface OwnedScan {
  id: number;
  host: string;
  score: number;
  grade: string;
  createdAt: Date;
  keyId: string | null; // the key that ran it; null for a scan started from the site while signed in
  /** The score of the scan of the same host just before this one (anyone's), or null for a first scan. */
  previousScore: number | null;
}

/** A scan that belongs to no one yet (no account, no key), as a browser that ran it before signing in lists it. */
export type UnownedScan = Pick<OwnedScan, 'id' | 'host' | 'score' | 'grade' | 'createdAt'>;

export interface OwnedScansQuery {
  host?: string;
  /** Keyset paging: only scans with a smaller id (the last id of the page before). */
  beforeId?: number;
  limit: number;
}

export interface AccountRepo {
  /** The account of this address, created on first use; one account per address even under races. */
  ensureAccount(email: string, now: Date, newId: string): Promise<AccountRecord>;
  getAccount(id: string): Promise<AccountRecord | null>;
  findAccountByEmail(email: string): Promise<AccountRecord | null>;
  /** Revokes the account's keys, ends its sessions, unlinks its scans (they stay public) and removes it. */
  deleteAccount(id: string, now: Date): Promise<void>;

  putSignInToken(rec: SignInTokenRecord): Promise<void>;
  /** The token if it exists, is unexpired and belongs to this address; it stays usable. */
  peekSignInToken(tokenHash: string, now: Date): Promise<SignInTokenRecord | null>;
  /** Atomically removes and returns the token when it is unexpired and bound to `email`; otherwise null, unchanged. */
  consumeSignInToken(tokenHash: string, email: string, now: Date): Promise<SignInTokenRecord | null>;

  putSession(rec: SessionRecord): Promise<void>;
  /** The live session (unexpired) or null. */
  findSession(idHash: string, now: Date): Promise<SessionRecord | null>;
  touchSession(idHash: string, lastSeenAt: Date, expiresAt: Date): Promise<void>;
  deleteSession(idHash: string): Promise<void>;
  deleteAccountSessions(accountId: string): Promise<number>;
  /** Drops expired sign-in tokens and sessions (MongoDB also does this with TTL indexes). */
  pruneExpired(now: Date): Promise<void>;

  putAccountKey(rec: AccountKeyRecord): Promise<void>;
  accountKeyOf(keyId: string): Promise<AccountKeyRecord | null>;
  /** Newest key first. */
  listAccountKeys(accountId: string): Promise<AccountKeyView[]>;
  markKeyUsed(keyId: string, at: Date): Promise<void>;

  /** Newest first, one indexed read whatever the number of scans. */
  scansOfAccount(accountId: string, q: OwnedScansQuery): Promise<OwnedScan[]>;
  /** Scans per key id of the account since an instant (key id null: scans from the site). */
  scanCountsByKey(accountId: string, since: Date): Promise<Map<string | null, number>>;
  /** Those of these scans that still exist and belong to no one (no account, no key), newest first. */
  unownedScans(scanIds: number[]): Promise<UnownedScan[]>;
  /**
   * Ties each of these scans to the account if it still belongs to no one, one atomic step per scan (a scan
   * another account or key already holds is left as it is); the number of scans tied.
   */
  attachScansToAccount(accountId: string, scanIds: number[]): Promise<number>;
}
