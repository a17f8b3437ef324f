// Monitors: a verified owner has a host re-scanned daily or weekly, at most 10 hosts an account. The due time
// lives in the store (next_run_at), so any instance may run it; a small random offset keeps many monitors created
// together from firing at the same moment.
import { randomInt, randomUUID } from 'node:crypto';
import { AppError } from '../lib/errors.js';
import { indexHost } from '../lib/hosts.js';
import type { Cadence, Monitor } from '../db/monitoring-repo.js';
import type { Repository } from '../db/repo.js';

export const MAX_MONITORS_PER_ACCOUNT = 10;
export const CADENCE_MS: Record<Cadence, number> = { daily: 86_400_000, weekly: 7 * 86_400_000 };
const FIRST_RUN_SPREAD_MS = 5 * 60_000;

export function cadenceOf(raw: unknown): Cadence {
  if (raw === 'daily' || raw === 'weekly') return raw;
  throw new AppError('INVALID_PARAMS', 'Choose how often to re-scan: daily or weekly.');
}

/** The next run after one that started at `from`: the period plus up to 1% of it, so runs drift apart. */
export function nextRunAfter(cadence: Cadence, from: Date): Date {
  const period = CADENCE_MS[cadence];
  return new Date(from.getTime() + period + randomInt(0, Math.max(1, Math.floor(period / 100))));
}

export async function addMonitor(
  deps: { db: Repository; now?: () => Date },
  accountId: string,
  input: { host: string; cadence: unknown; firstRunAt?: Date },
): Promise<Monitor> {
  const cadence = cadenceOf(input.cadence);
  const host = indexHost(String(input.host ?? ''));
  const claim = await deps.db.monitoring.getClaim(accountId, host);
  if (!claim?.verifiedAt) throw new AppError('INVALID_PARAMS', `Verify that you own ${host} before monitoring it.`);
  const now = (deps.now ?? (() => new Date()))();
  const monitor: Monitor = {
    id: `mon_${randomUUID().replace(/-/g, '')}`,
    accountId,
    host,
    origin: claim.origin,
    cadence,
    nextRunAt: input.firstRunAt ?? new Date(now.getTime() + randomInt(0, FIRST_RUN_SPREAD_MS)),
    createdAt: now,
    lastRunAt: null,
    lastOutcome: null,
    lastScanId: null,
  };
  const added = await deps.db.monitoring.addMonitor(monitor, MAX_MONITORS_PER_ACCOUNT);
  if (added === 'limit') throw new AppError('INVALID_PARAMS', `An account can monitor at most ${MAX_MONITORS_PER_ACCOUNT} hosts; remove one first.`);
  if (added === 'exists') throw new AppError('INVALID_PARAMS', `${host} is monitored already.`);
  return monitor;
}
