// The rolling 30-day Pro scan quota of an account (or of a key without one): daily usage buckets in the store,
// summed over 30 days, so it survives restarts and is shared by every instance (a memory window this long would
// never fire). The API, the console and the monitoring worker spend and read the same counter.
import { periodOf, type Repository } from '../db/repo.js';
import { quotaIdOf, type ProIdentity } from './identity.js';

const DAY = 24 * 60 * 60 * 1000;
const QUOTA_DAYS = 30;
export const QUOTA_WINDOW_SECONDS = (QUOTA_DAYS * DAY) / 1000;

/** Whose quota: an account's, shared by its keys and sessions, or a key's own when it has no account. */
export type QuotaHolder = Pick<ProIdentity, 'accountId' | 'keyId'>;

export interface QuotaState {
  key: string; // the usage counter's name
  period: string; // today's bucket, the one a scan spends
  used: number;
  resetSeconds: number; // until today's bucket closes, when the oldest day leaves the window
}

export interface RollingQuota {
  readonly quota: number;
  state(holder: QuotaHolder): Promise<QuotaState>;
  /** Spends one unit, or refuses and spends nothing when the quota is used up: the state it saw, and whether it spent. */
  spend(holder: QuotaHolder): Promise<{ spent: boolean; state: QuotaState }>;
}

export function rollingQuota(db: Repository, quota: number, now: () => number = Date.now): RollingQuota {
  const state = async (holder: QuotaHolder): Promise<QuotaState> => {
    const today = Math.floor(now() / DAY);
    // A bucket counts until 30 days after its day ends; its period is that instant.
    const periods = Array.from({ length: QUOTA_DAYS }, (_, i) => periodOf((today - i + 1 + QUOTA_DAYS) * DAY));
    const key = `pro-30d:${quotaIdOf(holder)}`;
    const used = await db.sumUsage(key, periods);
    return { key, period: periods[0], used, resetSeconds: Math.ceil(((today + 1) * DAY - now()) / 1000) };
  };
  return {
    quota,
    state,
    async spend(holder) {
      const seen = await state(holder);
      if (seen.used >= quota) return { spent: false, state: seen };
      await db.incrementUsage(seen.key, seen.period);
      return { spent: true, state: seen };
    },
  };
}

/**
 * Spends one unit of an account's rolling 30-day Pro quota for a scan started by the service on its behalf (a
 * scheduled monitor scan), the same counter its keys and sessions spend: false, and nothing spent, when used up.
 */
export async function spendProScan(db: Repository, quota: number, accountId: string, now: () => number = Date.now): Promise<boolean> {
  return (await rollingQuota(db, quota, now).spend({ accountId, keyId: null })).spent;
}
