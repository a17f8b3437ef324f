// Step `start_checkout`: press the control named checkout (check out, proceed to checkout, zur Kasse, …) in the cart
// drawer or on the cart page. From here on the tab may write only the navigation this press starts and cart updates.
import { CHECKOUT_WORDS, NEVER_PRESS_WORDS } from '../../scan/journey/words.js';
import { markNamedControls } from './page-scripts.js';
import { NamedControlsAnswer } from '../page-data.js';
import { failed, passed, quoted, type JourneyState, type JourneyTab, type StepOutcome } from './tab.js';

const DRAWER = 'dialog[open], [role=dialog], [aria-modal=true], [class*=drawer], [id*=drawer], [class*=minicart], [class*=mini-cart], aside';

export async function startCheckout(tab: JourneyTab, state: JourneyState): Promise<StepOutcome> {
  const prefer = state.atCart === 'drawer' ? DRAWER : null;
  const [control] = await tab.ask(NamedControlsAnswer, [], markNamedControls, 'checkout', CHECKOUT_WORDS.source, NEVER_PRESS_WORDS.source, { prefer, max: 1 });
  if (!control) return failed(`The cart has no control named "Checkout" (or "Proceed to checkout", "Zur Kasse", "Passer la commande", …).`, 'no_checkout_control');
  tab.guard.phase = 'checkout';
  const before = tab.page.url();
  const trouble = await tab.press(state, '[data-sr-journey="checkout-0"]');
  const pressed = `${quoted(control.name)} (${control.tag === 'a' ? 'link' : 'button'})`;
  if (trouble && 'covered' in trouble) return failed(`${pressed} cannot be reached: ${trouble.covered}.`, 'covered');
  if (trouble) return failed(`${pressed} was not pressed: ${Object.values(trouble)[0]}.`, 'error');
  await tab.afterPress(before, tab.left() - 300);
  return passed(`Pressed ${pressed}.`);
}
