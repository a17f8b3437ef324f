// The journey as the report carries it (schemas/journey.ts): what the browser did, the catalog's answer, where the
// checkout is, parsed once more against the public schema before it enters a report.
import type { JourneyRun } from '../fetching/render.js';
import { siteOf } from '../fetching/mcp-probe.js';
import { JOURNEY_STEPS, Journey, type JourneyProtocol } from '../../schemas/journey.js';

export interface JourneyFacts {
  product: Journey['product'];
  protocol: JourneyProtocol | null;
  homeUrl: string;
}

export function notRunJourney(note: string, facts: Partial<JourneyFacts> = {}): Journey {
  return {
    outcome: 'not_run',
    blocker: null,
    note,
    product: facts.product ?? null,
    steps: JOURNEY_STEPS.map((step) => ({ step, status: 'skipped', url: null, detail: 'Not run.', ms: 0 })),
    checkout: null,
    protocol: facts.protocol ?? null,
    accessibility: [],
    screenshot: null,
    requests_refused: 0,
    walked_at: null,
    counted_in_score: false,
    duration_ms: 0,
  };
}

/** A store with no product page to walk: stopped before the first step that needs one. */
export function noProductJourney(facts: Partial<JourneyFacts>, walkedAt: Date): Journey {
  const journey = notRunJourney('No product page was found in the raw HTML or the sitemap, so there was nothing to walk to the checkout.', facts);
  journey.steps = journey.steps.map((s) => (s.step === 'open_product' ? { ...s, status: 'failed', detail: 'No product page was found on the home page or in the sitemap.' } : { ...s, detail: 'Not reached.' }));
  return { ...journey, outcome: 'stopped', blocker: 'no_product', walked_at: walkedAt.toISOString() };
}

export function journeyFromRun(run: JourneyRun, facts: JourneyFacts, label: string, walkedAt: Date): Journey {
  const checkout = run.checkout && {
    url: run.checkout.url,
    host: new URL(run.checkout.url).host,
    same_site: siteOf(run.checkout.url) === siteOf(facts.homeUrl),
    guest: run.checkout.guest,
    signals: run.checkout.signals,
  };
  const journey: Journey = {
    outcome: checkout ? 'reached_checkout' : 'stopped',
    blocker: checkout ? null : (run.blocker ?? 'error'),
    note: `Walked in ${label} the way a browser agent does, through the scanner's address rules; it typed nothing but the product's name and stopped at the checkout. Reported beside the score, not counted in it.`,
    product: facts.product,
    steps: run.steps,
    checkout,
    protocol: facts.protocol,
    accessibility: run.accessibility,
    screenshot: run.screenshot ? { step: run.screenshot.step, data_url: run.screenshot.dataUrl } : null,
    requests_refused: run.refused,
    walked_at: walkedAt.toISOString(),
    counted_in_score: false,
    duration_ms: Math.max(0, Math.round(run.ms)),
  };
  const parsed = Journey.safeParse(journey);
  return parsed.success ? parsed.data : notRunJourney('The journey ran, but what the browser handed back could not be read.', facts);
}

/** A journey walked for an earlier scan of the same store, as this scan reports it. */
export function reusedJourney(journey: Journey): Journey {
  return { ...journey, note: `Walked at ${journey.walked_at} for an earlier scan of this store and reused: a store is walked to its checkout at most once every 10 minutes.` };
}
