// npm run bench -- journey: what the buying journey costs on the complete loopback store with its cart. A render of
// its three pages (the browser view alone) is the baseline, measured in the same run, in turns with a render that
// also walks to the checkout: the median of each, their ratio, the walk's own time and the browser memory it adds.
// Then ten journeys at once through the real service while reads are timed (test/support/journey-load.ts).
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createChromiumRenderer } from '../../render/chromium.js';
import type { RenderRequest, RenderRun } from '../../scan/fetching/render.js';
import { CATALOGUE, buyableStore } from '../fixtures/stores.js';
import { newCanary } from '../fixtures/shop.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { descendantsRssMiB } from '../support/load-figures.js';
import { journeysUnderReads } from '../support/journey-load.js';
import type { Timing } from './timings.js';

const CHROMIUM = '/usr/bin/chromium';
const ROUNDS = Number(process.env.BENCH_JOURNEY_ROUNDS ?? 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function journeyTimings(): Promise<{ section: { baseline: number; rows: Timing[] }; lines: string[] } | null> {
  if (!existsSync(CHROMIUM)) return null;
  const renderer = createChromiumRenderer({ executablePath: CHROMIUM, concurrency: 1 })!;
  const canary = newCanary();
  const store = await startStoreFrom(buyableStore(canary));
  const cleanups: (() => unknown)[] = [() => store.close(), () => renderer.close()];
  try {
    const product = CATALOGUE[0];
    const productUrl = `${store.url}products/${product.slug}`;
    const plain: RenderRequest = {
      pages: [{ url: store.url, kind: 'home' }, ...CATALOGUE.slice(0, 2).map((p) => ({ url: `${store.url}products/${p.slug}`, kind: 'product' as const }))],
      rules: { allowPrivate: true, allowedPorts: 'any' },
      baseUrl: 'http://localhost:3000',
      deadlineMs: 15_000,
      screenshotUrl: productUrl,
    };
    const walking: RenderRequest = { ...plain, journey: { homeUrl: store.url, product: { url: productUrl, name: product.name }, maxMs: 15_000, endsInMs: 30_000 } };
    // The browser's memory while a render runs, sampled every 50 ms below this process (its Chromium only).
    const timed = async (req: RenderRequest): Promise<{ ms: number; peakMiB: number; run: RenderRun }> => {
      let peak = descendantsRssMiB(process.pid);
      const sampler = setInterval(() => void (peak = Math.max(peak, descendantsRssMiB(process.pid))), 50);
      const t0 = performance.now();
      const run = await renderer.render(req).finally(() => clearInterval(sampler));
      return { ms: performance.now() - t0, peakMiB: peak, run };
    };
    await timed(walking); // starts the browser and warms both paths
    const base: { ms: number; peakMiB: number }[] = [];
    const walks: { ms: number; peakMiB: number; walkMs: number; reached: boolean }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      base.push(await timed(plain));
      const w = await timed(walking);
      walks.push({ ...w, walkMs: w.run.journey?.ms ?? 0, reached: w.run.journey?.checkout !== null && w.run.journey?.checkout !== undefined });
    }
    const baseline = median(base.map((b) => b.ms));
    const withJourney = median(walks.map((w) => w.ms));
    const walkOnly = median(walks.map((w) => w.walkMs));
    const rows: Timing[] = [
      { name: `a render that also walks to the checkout (${walks.filter((w) => w.reached).length} of ${ROUNDS} reached it)`, ms: withJourney, ratio: withJourney / baseline, target: 'within JOURNEY_TIMEOUT_MS (15 s) after the render' },
      { name: 'the walk alone (journey.duration_ms)', ms: walkOnly, ratio: walkOnly / baseline, target: 'reaches the checkout of the complete store' },
    ];
    const plainPeak = median(base.map((b) => b.peakMiB));
    const walkPeak = median(walks.map((w) => w.peakMiB));
    const lines = [
      `  browser memory, median peak of ${ROUNDS}: ${Math.round(plainPeak)} MiB rendering the pages, ${Math.round(walkPeak)} MiB rendering and walking: the journey adds ${Math.round(walkPeak - plainPeak)} MiB`,
      `  the canary store: ${canary.orders} orders, ${canary.checkoutSubmissions} checkout submissions, ${canary.stray.length} values typed other than the product name`,
    ];
    const load = await journeysUnderReads((fn) => void cleanups.push(fn));
    lines.push(
      `  10 journeys at once (RENDER_CONCURRENCY 2): ${load.walked} walked, ${load.reached} reached the checkout in ${load.wallS} s; journey median ${load.journeyMedianMs} ms, max ${load.journeyMaxMs} ms`,
      `  reads meanwhile: p99 ${load.p99LoadedMs} ms beside ${load.p99IdleMs} ms idle (${(load.p99LoadedMs / load.p99IdleMs).toFixed(1)}×; target ≤ 10×, the render-load bound); service RSS ${load.rssIdleMiB} → ${load.rssPeakMiB} MiB, browser ${load.browserIdleMiB} → ${load.browserPeakMiB} MiB`,
    );
    return { section: { baseline, rows }, lines };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}
