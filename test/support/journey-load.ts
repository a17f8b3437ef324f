// Ten buying journeys at once against the real service in its own process (RENDER_CONCURRENCY 2), each a scan of
// its own loopback store with a cart and a checkout, while /healthz and a stored report are read in a loop: the
// reads' p99 under load beside their idle p99, the journeys' times, and the service's and the browser's memory.
// test/faults/journey-load.browser.test.ts holds the reads to the bound the render-load test holds; npm run bench
// prints the figures.
import assert from 'node:assert/strict';
import { startChildServer } from './child-server.js';
import { browserLoad, type ReadFigures } from './load-figures.js';
import { startStoreFrom, type FixtureStore } from '../helpers/fixture-store.js';
import { buyableStore } from '../fixtures/stores.js';
import { newCanary, type Canary } from '../fixtures/shop.js';

export const JOURNEYS = 10;
const RENDER_CONCURRENCY = 2;

export interface JourneyLoadFigures extends ReadFigures {
  journeys: number;
  walked: number;
  reached: number;
  /** Orders, checkout submissions and stray values across every store: zero. */
  canaryHits: number;
  wallS: number;
  journeyMedianMs: number;
  journeyMaxMs: number;
  rssIdleMiB: number;
  rssPeakMiB: number;
  browserIdleMiB: number;
  browserPeakMiB: number;
}

interface Answer {
  status: number;
  journey?: { outcome: string; duration_ms: number };
}

export async function journeysUnderReads(after: (fn: () => unknown) => void): Promise<JourneyLoadFigures> {
  const canaries: Canary[] = [];
  const stores: FixtureStore[] = [];
  for (let i = 0; i < JOURNEYS + 1; i++) {
    const canary = newCanary();
    canaries.push(canary);
    stores.push(await startStoreFrom(buyableStore(canary)));
  }
  after(() => Promise.all(stores.map((s) => s.close())));
  const env = {
    SCAN_ALLOW_PRIVATE: '1',
    SCAN_CONCURRENCY: '4',
    SCAN_QUEUE: String(JOURNEYS),
    RENDER_CONCURRENCY: String(RENDER_CONCURRENCY),
    ANON_SCANS_PER_HOUR: '1000',
    ANON_READS_PER_MINUTE: '1000000',
    // Every scan is admitted at once and waits for one of two render places: the render's time counts from its
    // call, so the waits of five rounds of pages and journeys must fit in it.
    SCAN_TIMEOUT_MS: '300000',
    RENDER_TIMEOUT_MS: '120000',
  };
  const app = await startChildServer({ env });
  after(() => app.stop(10_000));

  // A stored report to read; this first scan also starts the browser (and walks its own store).
  const seeded = await fetch(`${app.url}/api/v1/scan?url=${encodeURIComponent(stores[JOURNEYS].url)}`);
  assert.equal(seeded.status, 200, await seeded.clone().text());
  const first = (await seeded.json()) as { scan_id: number };
  const reads = ['/healthz', `/api/v1/scan/${first.scan_id}.json`];

  const load = await browserLoad({ ...app, env }, reads, () =>
    Promise.all(
      stores.slice(0, JOURNEYS).map(async (s): Promise<Answer> => {
        const res = await fetch(`${app.url}/api/v1/scan?url=${encodeURIComponent(s.url)}`);
        const body = (await res.json()) as { journey?: Answer['journey'] };
        return { status: res.status, journey: body.journey };
      }),
    ),
    after,
  );
  const answers = load.result;

  assert.deepEqual(answers.map((a) => a.status), answers.map(() => 200), 'every scan completed');
  const times = answers.flatMap((a) => (a.journey && a.journey.outcome !== 'not_run' ? [a.journey.duration_ms] : [])).sort((x, y) => x - y);
  return {
    journeys: answers.length,
    walked: times.length,
    reached: answers.filter((a) => a.journey?.outcome === 'reached_checkout').length,
    canaryHits: canaries.reduce((sum, c) => sum + c.orders + c.checkoutSubmissions + c.stray.length, 0),
    wallS: +(load.wallMs / 1000).toFixed(1),
    journeyMedianMs: times[Math.floor(times.length / 2)] ?? 0,
    journeyMaxMs: times.at(-1) ?? 0,
    rssIdleMiB: Math.round(load.rssIdleMiB),
    rssPeakMiB: Math.round(load.rssPeakMiB),
    browserIdleMiB: Math.round(load.browserIdleMiB),
    browserPeakMiB: Math.round(load.browserPeakMiB),
    ...load.reads,
  };
}
