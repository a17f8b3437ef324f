// The buying journey: after the browser view has read the pages, one sampled product walked in the scan's own browser
// context (the same proxy, address rules and budgets) the way a browser agent does, step by step, until the checkout
// is reached or a step stops it. Each step gets a share of the journey's wall time; the guard refuses whatever would
// place an order or send personal data, and everything once the journey is over. Nothing here throws for anything a
// page does: the run says what happened.
import { performance } from 'node:perf_hooks';
import type { BrowserContext, Page } from 'playwright-core';
import type { JourneyRequest, JourneyRun } from '../../scan/fetching/render.js';
import { JOURNEY_STEPS, type JourneyAccessibility, type JourneyStep, type JourneyStepName } from '../../schemas/journey.js';
import { BROWSER_VIEW_CAPS } from '../../schemas/browser-view.js';
import { photograph } from '../screenshot.js';
import { withTimeout } from '../with-timeout.js';
import { addToCart } from './add-to-cart.js';
import { agentAxe } from './axe.js';
import { checkout } from './checkout.js';
import { chooseVariant } from './choose-variant.js';
import { dismissOverlay } from './dismiss-overlay.js';
import { guardJourney } from './guard.js';
import { openCart } from './open-cart.js';
import { openProduct } from './open-product.js';
import { search } from './search.js';
import { startCheckout } from './start-checkout.js';
import { failed, JourneyTab, seconds, type JourneyState, type StepOutcome } from './tab.js';

/**
 * The least time each step is kept: a step may use what the journey has left minus the floors of the steps after
 * it, so a slow page early on cannot leave the checkout no time at all. The search, which may fail without
 * stopping the journey, gets at most a quarter of the journey.
 */
const FLOORS: Record<JourneyStepName, number> = {
  search: 500,
  open_product: 1000,
  dismiss_overlay: 200,
  choose_variant: 200,
  add_to_cart: 1000,
  open_cart: 700,
  start_checkout: 700,
  checkout: 700,
};
const SEARCH_SHARE = 0.25;
/** Kept back from the journey's time for its picture, the checkout's accessibility read and closing the tab. */
const CLOSING_MS = 1500;
/** No step gets less: the quick ones (nothing covers, nothing to choose) need a few page reads. */
const MIN_STEP_MS = 300;
/** A step that overruns its time by this much is abandoned. */
const GRACE_MS = 500;

export async function walkJourney(context: BrowserContext, openTab: () => Promise<Page>, req: JourneyRequest, budgetMs: number, signal?: AbortSignal): Promise<JourneyRun> {
  const started = performance.now();
  const left = () => budgetMs - (performance.now() - started);
  const page = await openTab();
  page.on('dialog', (d) => void d.dismiss().catch(() => {}));
  const guard = await guardJourney(context, page);
  const tab = new JourneyTab(page, guard);
  const state: JourneyState = { req, name: req.product.name, controls: [], buy: null, dismissed: null, atCart: null, drawer: null };
  const accessibility: JourneyAccessibility[] = [];
  const found: { checkout: JourneyRun['checkout'] } = { checkout: null };
  const run: Record<JourneyStepName, () => Promise<StepOutcome>> = {
    search: () => search(tab, state),
    open_product: () => openProduct(tab, state, accessibility),
    dismiss_overlay: () => dismissOverlay(tab, state),
    choose_variant: () => chooseVariant(tab, state),
    add_to_cart: () => addToCart(tab, state),
    open_cart: () => openCart(tab, state),
    start_checkout: () => startCheckout(tab, state),
    checkout: () => checkout(tab, found),
  };

  const steps: JourneyStep[] = [];
  let blocker: JourneyRun['blocker'] = null;
  let last: JourneyStepName = 'search';
  for (const [i, step] of JOURNEY_STEPS.entries()) {
    if (blocker) {
      steps.push({ step, status: 'skipped', url: null, detail: 'Not reached.', ms: 0 });
      continue;
    }
    // When even the floors do not fit, the time left is split in their proportions.
    const kept = JOURNEY_STEPS.slice(i + 1).reduce((sum, s) => sum + FLOORS[s], CLOSING_MS);
    const share = Math.max(MIN_STEP_MS, Math.min(Math.max(left() - kept, (left() * FLOORS[step]) / (kept + FLOORS[step])), step === 'search' ? budgetMs * SEARCH_SHARE : Infinity));
    const stepStarted = performance.now();
    tab.begin(share);
    let outcome: StepOutcome;
    if (signal?.aborted) outcome = failed('The scan was cancelled.', 'error');
    else if (left() < MIN_STEP_MS) outcome = failed(`The journey's time ran out before this step (${seconds(budgetMs)} in all).`, 'timeout');
    else outcome = await withTimeout(run[step](), share + GRACE_MS).catch(() => failed(`The step did not finish within the ${seconds(share)} left to it.`, 'timeout'));
    // A step that may fail without ending the journey: a search that finds nothing.
    if (outcome.status === 'failed' && step !== 'search') blocker = outcome.blocker ?? 'error';
    if (outcome.status !== 'skipped') last = step;
    steps.push({ step, status: outcome.status, url: page.url().startsWith('http') ? page.url().slice(0, 2048) : null, detail: outcome.detail.slice(0, 600), ms: Math.round(performance.now() - stepStarted) });
  }
  // The journey is over: from here the tab sends nothing.
  guard.stop();
  const closing = Math.max(500, Math.min(CLOSING_MS, left()));
  const shot = (await photograph(page, closing / 2, BROWSER_VIEW_CAPS.journeyShotBytes)).dataUrl;
  if (found.checkout) {
    const axe = await agentAxe(page, 'checkout', closing / 2);
    if (axe) accessibility.push(axe);
  }
  await withTimeout(page.close({ runBeforeUnload: false }), 2000).catch(() => {});
  return {
    steps,
    blocker: found.checkout ? null : blocker,
    checkout: found.checkout,
    accessibility,
    screenshot: shot ? { step: last, dataUrl: shot } : null,
    refused: guard.refused,
    ms: performance.now() - started,
  };
}
