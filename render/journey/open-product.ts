// Step `open_product`: open the sampled product page in the journey's tab, find its buy controls the way the browser
// view does (role, accessible name, enabled, what covers them), choose the one to press, and read the page with the
// agent accessibility rules.
import { ADD_TO_CART_WORDS, BUY_WORDS, NEVER_PRESS_WORDS } from '../../scan/journey/words.js';
import type { JourneyAccessibility } from '../../schemas/journey.js';
import { markBuyControls } from '../buy-controls.js';
import { inPage, readMarkedControls } from '../render-run.js';
import { BROWSER_VIEW_CAPS } from '../../schemas/browser-view.js';
import { withTimeout } from '../with-timeout.js';
import { agentAxe } from './axe.js';
import { productName } from './page-scripts.js';
import { NameAnswer, readMarkedBuyControls } from '../page-data.js';
import { failed, passed, quoted, type JourneyState, type JourneyTab, type StepOutcome } from './tab.js';

export async function openProduct(tab: JourneyTab, state: JourneyState, accessibility: JourneyAccessibility[]): Promise<StepOutcome> {
  const url = state.req.product.url;
  const opened = await tab.goto(url);
  if (!opened.ok) return failed(`The product page did not open: ${opened.why}.`, opened.blocker);
  if (opened.status !== null && opened.status >= 400) return failed(`The product page answered HTTP ${opened.status}.`, 'error');
  await tab.settle();
  state.name ??= await tab.ask(NameAnswer, null, productName);
  // Marked and read as the browser view marks and reads them, at most as many (its cap).
  const marked = await withTimeout(tab.page.evaluate(inPage(markBuyControls, BROWSER_VIEW_CAPS.buyControls)), tab.timeout(3000)).then(readMarkedBuyControls, () => []);
  state.controls = (await readMarkedControls(tab.page, marked, () => tab.left()).catch(() => [])).map(({ mark, control }) => ({ ...control, i: mark }));
  if (marked.length > 0 && state.controls.length === 0) return failed('The buy controls could not be read in the time left (the page kept the browser busy).', 'timeout');
  state.buy = chooseBuyControl(state.controls);
  const axe = await agentAxe(tab.page, 'open_product', tab.timeout(3000));
  if (axe) accessibility.push(axe);
  const seen = state.controls.map((c) => (c.name ? `${quoted(c.name)} (${c.role ?? 'no role'}${c.enabled ? '' : ', disabled'})` : `an unnamed ${c.role ?? 'control'}`));
  return passed(`Opened the product page${state.name ? ` of ${quoted(state.name)}` : ''}; buy controls: ${seen.length > 0 ? seen.join(', ') : 'none'}.`);
}

/** The control an agent presses: named and no payment button, an add-to-cart first, then a buy; else an unnamed one. */
function chooseBuyControl(controls: JourneyState['controls']): JourneyState['buy'] {
  const named = controls.filter((c) => c.name && !NEVER_PRESS_WORDS.test(c.name));
  return named.find((c) => ADD_TO_CART_WORDS.test(c.name)) ?? named.find((c) => BUY_WORDS.test(c.name)) ?? named[0] ?? controls.find((c) => !c.name) ?? null;
}
