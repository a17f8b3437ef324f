// The Pro identity is one thing whatever carries it: a Bearer key or a signed-in console session resolves,
// here and only here, to the same account and so to the same quotas. Keys made before accounts existed (or
// by `keys create` without an account) stand for themselves.
import type { Repository } from '../db/repo.js';
import { verifyApiKey } from './keys.js';
import { resumeSession, type LiveSession } from './sessions.js';

export interface ProIdentity {
  accountId: string | null;
  keyId: string | null; // the key used; null when a session carries the identity
  via: 'key' | 'session';
  session?: LiveSession;
}

/** The counters' name for an identity: one account shares its quotas across its keys and its sessions. */
export const quotaIdOf = (identity: Pick<ProIdentity, 'accountId' | 'keyId'>): string =>
  identity.accountId ? `acct:${identity.accountId}` : `key:${identity.keyId}`;

/** "Last used" moves at most once a minute per key, so heavy API use does not write on every call. */
const LAST_USED_EVERY_MS = 60_000;

export async function resolveProIdentity(
  db: Repository,
  credentials: { bearer: string } | { sessionToken: string },
  now = new Date(),
): Promise<ProIdentity | null> {
  if ('bearer' in credentials) {
    const record = await verifyApiKey(db, credentials.bearer);
    if (!record) return null;
    const link = await db.accounts.accountKeyOf(record.id);
    if (link && (!link.lastUsedAt || now.getTime() - link.lastUsedAt.getTime() >= LAST_USED_EVERY_MS)) {
      await db.accounts.markKeyUsed(record.id, now);
    }
    return { accountId: link?.accountId ?? null, keyId: record.id, via: 'key' };
  }
  const session = await resumeSession(db, credentials.sessionToken, now);
  return session ? { accountId: session.account.id, keyId: null, via: 'session', session } : null;
}
