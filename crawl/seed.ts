// The seeded index: store roots an operator lists (`cli seed FILE`), queued as root scans that every instance drains
// at SEED_RATE_PER_MINUTE across all of them (a shared rate in the store) with the per-host pace, scanned again
// every SEED_RESCAN_DAYS. Only the root of each store is queued: it is what sets its public score.
import type { Repository } from '../db/repo.js';
import type { NewWork } from '../db/queue-repo.js';
import { normaliseScanTarget } from '../outbound/url.js';
import { hostIdentity } from '../lib/hosts.js';

export const SEED_GROUP = 'seed';
export const SEED_RATE_KEY = 'rate:seed';

export interface SeedFileResult {
  queued: number;
  already: number;
  refused: { line: number; text: string; why: string }[];
}

/** One store root a line (blank lines and # comments skipped); each line is refused or queued on its own. */
export async function queueSeeds(db: Repository, text: string, opts: { allowPrivate: boolean; now: Date }): Promise<SeedFileResult> {
  const items: NewWork[] = [];
  const refused: SeedFileResult['refused'] = [];
  const seen = new Set<string>();
  const base = Math.floor(opts.now.getTime() / 1000) * 100_000;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') return;
    try {
      const target = normaliseScanTarget(line, { allowPrivate: opts.allowPrivate });
      const root = new URL('/', target);
      if (seen.has(root.href)) return;
      seen.add(root.href);
      items.push({ id: `seed:${root.href}`, kind: 'seed_scan', group: SEED_GROUP, host: hostIdentity(root), url: root.href, seq: base + items.length, createdAt: opts.now });
    } catch (err) {
      refused.push({ line: i + 1, text: line.slice(0, 200), why: (err as Error).message });
    }
  });
  const queued = await db.queue.enqueue(items);
  return { queued, already: items.length - queued, refused };
}

export interface SeedStatus {
  queued: number;
  done: number;
  failed: number;
  /** Seeded scans finished in the last hour, per minute. */
  perMinute: number;
}

export async function seedStatus(db: Repository, now: Date): Promise<SeedStatus> {
  const c = await db.queue.counts(SEED_GROUP, new Date(now.getTime() - 3_600_000));
  return { queued: c.queued, done: c.done, failed: c.failed, perMinute: Math.round((c.finishedSince / 60) * 10) / 10 };
}
