// Console sessions: the cookie holds 256 random bits; the store holds only their SHA-256, so a leaked table
// holds no usable session. 30 days sliding from the last use, 90 days at most from sign-in; a new id at every
// sign-in. The CSRF token of a session derives from its secret, so it needs no storage and dies with it.
import { createHash } from 'node:crypto';
import type { Repository } from '../db/repo.js';
import type { AccountRecord } from '../db/accounts-repo.js';
import { newSecret, sha256Hex, isSecretShaped } from './secrets.js';

const DAY = 24 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 30 * DAY;
export const SESSION_MAX_MS = 90 * DAY;
/** A session's sliding end moves at most this often, so browsing does not write on every page. */
const TOUCH_EVERY_MS = 60 * 60 * 1000;

export interface LiveSession {
  token: string; // the cookie value
  idHash: string;
  account: AccountRecord;
  expiresAt: Date;
}

export async function startSession(db: Repository, account: AccountRecord, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const token = newSecret();
  const absoluteExpiresAt = new Date(now.getTime() + SESSION_MAX_MS);
  const expiresAt = new Date(Math.min(now.getTime() + SESSION_IDLE_MS, absoluteExpiresAt.getTime()));
  await db.accounts.putSession({ idHash: sha256Hex(token), accountId: account.id, createdAt: now, lastSeenAt: now, expiresAt, absoluteExpiresAt });
  return { token, expiresAt };
}

/** The session of a cookie value, its end slid forward; null when unknown, expired or its account is gone. */
export async function resumeSession(db: Repository, token: unknown, now = new Date()): Promise<LiveSession | null> {
  if (!isSecretShaped(token)) return null;
  const idHash = sha256Hex(token);
  const session = await db.accounts.findSession(idHash, now);
  if (!session) return null;
  const account = await db.accounts.getAccount(session.accountId);
  if (!account) return null;
  let expiresAt = session.expiresAt;
  if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    expiresAt = new Date(Math.min(now.getTime() + SESSION_IDLE_MS, session.absoluteExpiresAt.getTime()));
    await db.accounts.touchSession(idHash, now, expiresAt);
  }
  return { token, idHash, account, expiresAt };
}

export async function endSession(db: Repository, session: Pick<LiveSession, 'idHash'>): Promise<void> {
  await db.accounts.deleteSession(session.idHash);
}

export async function endAllSessions(db: Repository, accountId: string): Promise<number> {
  return db.accounts.deleteAccountSessions(accountId);
}

/** The per-session CSRF token of every console form. */
export function csrfTokenOf(sessionToken: string): string {
  return createHash('sha256').update(`csrf\0${sessionToken}`).digest('base64url');
}
