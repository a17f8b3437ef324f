// Composition of the background crawler (crawl/worker.ts): seeded root scans are the scan_store tool called through
// tools/invoke.ts, as the operator's own scans: no caller quota, in a scan bound of their own (SEED_CONCURRENCY), so
// they never take the places of interactive scans. main.ts starts it unless both of its pools are set to 0.
import type { AppParts } from '../tools/context.js';
import { toolContext } from '../tools/context.js';
import { invoke } from '../tools/invoke.js';
import { scanStore } from '../tools/scan-store.js';
import { createAppState } from '../tools/app-state.js';
import type { Caller } from '../tools/tool.js';
import { createCrawlWorker, type CrawlDeps, type CrawlWorker, type SeedScan } from '../crawl/worker.js';

export function seedScan(deps: Omit<AppParts, 'state' | 'renderer'>): SeedScan {
  const state = createAppState({ SCAN_CONCURRENCY: Math.max(1, deps.config.SEED_CONCURRENCY), SCAN_QUEUE: 0 });
  const caller: Caller = { kind: 'anonymous', keyId: null, ip: 'seed' };
  return async (url) => {
    try {
      const { value } = await invoke(scanStore, { url }, { context: () => toolContext({ ...deps, state }, { caller }) });
      return { scanId: (value as { scan_id: number }).scan_id };
    } catch (err) {
      return { error: (err as Error).message.slice(0, 300) };
    }
  };
}

export function createCrawl(deps: Omit<AppParts, 'state' | 'renderer'> & Partial<Pick<CrawlDeps, 'now' | 'overrides' | 'runSeedScan'>>): CrawlWorker {
  return createCrawlWorker({
    db: deps.db,
    config: deps.config,
    log: deps.log,
    metrics: deps.metrics,
    overrides: deps.overrides ?? (deps.scanOverrides as CrawlDeps['overrides']),
    now: deps.now,
    runSeedScan: deps.runSeedScan ?? seedScan(deps),
  });
}
