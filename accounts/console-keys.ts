// Pro keys of a console account: at most MAX_ACTIVE_KEYS active at once, named by their owner, revoked by
// their owner only. The key itself is made and checked by keys.ts; this file holds the account side.
import { periodOf, type ApiKeyRecord, type Repository } from '../db/repo.js';
import type { AccountRecord } from '../db/accounts-repo.js';
import { AppError } from '../lib/errors.js';
import { createApiKey } from './keys.js';

export const MAX_ACTIVE_KEYS = 10;
const DAY = 24 * 60 * 60 * 1000;

export interface AccountKey {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  scansLast30Days: number;
}

/** A key name as typed, trimmed to one line of at most 60 characters; empty becomes "Key <date>". */
export function keyName(value: unknown, now: Date): string {
  const name = typeof value === 'string' ? value.replace(/[\u0000-\u001f\u007f]/g, ' ').trim().slice(0, 60) : '';
  return name || `Key ${now.toISOString().slice(0, 10)}`;
}

export async function accountKeys(db: Repository, accountId: string, now = new Date()): Promise<AccountKey[]> {
  const [keys, counts] = await Promise.all([
    db.accounts.listAccountKeys(accountId),
    db.accounts.scanCountsByKey(accountId, new Date(now.getTime() - 30 * DAY)),
  ]);
  return keys.map((k) => ({
    id: k.keyId,
    name: k.name,
    createdAt: k.createdAt,
    lastUsedAt: k.lastUsedAt,
    revokedAt: k.revokedAt,
    scansLast30Days: counts.get(k.keyId) ?? 0,
  }));
}

/** A new key of the account, shown once to the caller. Refused past MAX_ACTIVE_KEYS active keys. */
export async function createAccountKey(
  db: Repository,
  account: AccountRecord,
  name: string,
  now = new Date(),
): Promise<{ key: string; record: ApiKeyRecord }> {
  return oneCreationAtATime(db, account.id, now, async () => {
    const active = (await db.accounts.listAccountKeys(account.id)).filter((k) => !k.revokedAt).length;
    if (active >= MAX_ACTIVE_KEYS) {
      throw new AppError('INVALID_PARAMS', `An account can hold at most ${MAX_ACTIVE_KEYS} active keys. Revoke one you no longer use, then create the new one.`);
    }
    const created = await createApiKey(db, account.email, now);
    await db.accounts.putAccountKey({ keyId: created.record.id, accountId: account.id, name, lastUsedAt: null });
    return created;
  });
}

const LOCK_WINDOW_MS = 60_000;
const lockPeriod = (windowStart: number): string => periodOf(windowStart + LOCK_WINDOW_MS);

/**
 * Runs one key creation of an account at a time, across instances, so that two creations sent at once cannot
 * both pass the count of active keys: the holder is a shared usage counter of the current minute, released at the
 * end. A second creation meanwhile is refused (nothing made), as is one in the first minute after a holder that
 * never released (a crashed process): its lock lapses with its minute. The minute before is checked too, so a
 * creation started just before a minute turns still holds the one after.
 */
async function oneCreationAtATime<T>(db: Repository, accountId: string, now: Date, run: () => Promise<T>): Promise<T> {
  const name = `key-create:${accountId}`;
  const windowStart = Math.floor(now.getTime() / LOCK_WINDOW_MS) * LOCK_WINDOW_MS;
  const period = lockPeriod(windowStart);
  const holders = await db.incrementUsage(name, period);
  try {
    if (holders > 1 || (await db.getUsage(name, lockPeriod(windowStart - LOCK_WINDOW_MS))) > 0) {
      throw new AppError('INVALID_PARAMS', 'Another key is being created for this account right now. Try again in a moment.');
    }
    return await run();
  } finally {
    await db.incrementUsage(name, period, -1);
  }
}

/**
 * True the first time a create-key form (its random request id) is sent, false on a resend (a reload of the
 * page that showed the key re-posts the form): a resend must not make a second key. Kept an hour, on the
 * shared usage counters.
 */
export async function firstSendOfForm(db: Repository, accountId: string, requestId: string, now = new Date()): Promise<boolean> {
  const HOUR = 60 * 60 * 1000;
  const period = periodOf((Math.floor(now.getTime() / HOUR) + 2) * HOUR);
  return (await db.incrementUsage(`key-form:${accountId}:${requestId}`, period)) === 1;
}

/** Revokes one of the account's own keys; false when the key is not the account's (or does not exist). */
export async function revokeAccountKey(db: Repository, accountId: string, keyId: string, now = new Date()): Promise<boolean> {
  const link = await db.accounts.accountKeyOf(keyId);
  if (!link || link.accountId !== accountId) return false;
  return db.revokeApiKey(keyId, now);
}
