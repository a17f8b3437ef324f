// "Can an agent buy here?" (docs/checks.md §15): for a scan of a store's root, one sampled product walked to the
// checkout in the scan's own browser context after the browser view (render/journey/), and the store's own catalog
// asked about it (scan/journey/catalog.ts). One walk per store at a time, reused for 10 minutes by later scans of the
// same store. Reported beside the score and never counted in it.
import type { Fetcher } from '../outbound/fetch.js';
import type { Journey, JourneyProtocol } from '../schemas/journey.js';
import type { Artifacts } from './artifacts.js';
import type { JourneyRequest, RenderRun } from './fetching/render.js';
import { JOURNEY_REUSE_MS, reusable, type JourneyBoard } from './journey/board.js';
import { askCatalog, type PageProduct } from './journey/catalog.js';
import { journeyProduct, journeyRefusal } from './journey/plan.js';
import { journeyFromRun, noProductJourney, notRunJourney, reusedJourney, type JourneyFacts } from './journey/report.js';

export interface JourneyOptions {
  /** JOURNEY_TIMEOUT_MS: the walk's wall time after the render; 0 turns the journey off. */
  timeoutMs: number;
  /** A browser to walk in, or why there is none for this scan. */
  browser: true | string;
  /** The app's recent walks; without one every scan walks. */
  board?: JourneyBoard;
  /** The host's latest stored journey, walked perhaps by another instance. */
  stored?: () => Promise<Journey | null | undefined>;
  /** A fetcher for the catalog's three requests, under the scan's address rules. */
  catalogFetcher: () => Pick<Fetcher, 'fetch'>;
  /** How long this scan may wait for another scan's walk of the same store. */
  waitMs: number;
}

/** What the render is asked to walk, and how the journey is finished once the render is back. */
export interface JourneyPlan {
  /** For the render request; absent when there is nothing to walk in the browser. */
  request?: Omit<JourneyRequest, 'maxMs' | 'endsInMs'>;
  /** The journey from the render (null: the render did not run). */
  finish(run: RenderRun | null, label: string): Promise<Journey>;
  /** Lets go of the store's walk on the board when the scan ended without finishing it (an error): nothing to reuse. */
  abandon(): void;
}

const CLIENT = { name: 'store-readiness-scanner', version: '1.0.0' };

export async function planJourney(a: Artifacts, scanned: URL, opts: JourneyOptions): Promise<JourneyPlan> {
  const done = (journey: Journey | Promise<Journey>): JourneyPlan => ({ finish: async () => journey, abandon: () => undefined });
  const product = journeyProduct(a);
  const refusal = journeyRefusal(a, scanned, product?.url ?? null);
  if (refusal) return done(notRunJourney(refusal));
  if (opts.timeoutMs === 0) return done(notRunJourney('Not run: the buying journey is turned off on this instance.'));
  const store = scanned.origin;
  const running = opts.board?.recent(store);
  if (running) return done(waitFor(running, opts.waitMs));
  const stored = reusable(await opts.stored?.().catch(() => null), Date.now());
  if (stored) return done(reusedJourney(stored));

  const homeUrl = a.home.ok ? a.home.res.url : a.inputUrl;
  const facts: Omit<JourneyFacts, 'protocol'> = { product: product && { url: product.url, name: product.name }, homeUrl };
  const walkedAt = new Date();
  if (!product) return done(noProductJourney(facts, walkedAt));
  const protocol: Promise<JourneyProtocol | null> = product.name ? askCatalog(a, product as PageProduct, opts.catalogFetcher(), CLIENT).catch(() => null) : Promise.resolve(null);
  const noBrowser = opts.browser;
  if (noBrowser !== true) return done(protocol.then((p) => notRunJourney(noBrowser, { ...facts, protocol: p })));

  let settle: (j: Journey | null) => void = () => undefined;
  opts.board?.start(store, new Promise<Journey | null>((resolve) => (settle = resolve)));
  return {
    request: { homeUrl, product: { url: product.url, name: product.name } },
    async finish(run, label) {
      const p = await protocol;
      const journey = run?.journey
        ? journeyFromRun(run.journey, { ...facts, protocol: p }, label, walkedAt)
        : notRunJourney(run ? 'Not run: the render left no time for the journey, or a page it rendered hung.' : 'Not run: the browser could not be used for this scan.', { ...facts, protocol: p });
      settle(journey);
      return journey;
    },
    abandon: () => settle(null),
  };
}

/** Another scan's walk of the same store, reused when it ends within `ms`. */
async function waitFor(walk: Promise<Journey | null>, ms: number): Promise<Journey> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), Math.max(0, ms))));
  const journey = await Promise.race([walk.catch(() => null), late]).finally(() => clearTimeout(timer));
  return journey && journey.outcome !== 'not_run' ? reusedJourney(journey) : notRunJourney(`Not run: another scan of this store was walking it, and it did not end within this scan's time (a store is walked at most once every ${JOURNEY_REUSE_MS / 60_000} minutes).`);
}
