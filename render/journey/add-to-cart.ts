// Step `add_to_cart`: press the buy control an agent identifies by role and accessible name, then prove the cart
// changed. Without a sign on the page, look at the cart itself before giving up, as an agent would.
import { failed, passed, quoted, type JourneyState, type JourneyTab, type StepOutcome } from './tab.js';
import { cartBefore, cartShown, cartWrite, openCartPage } from './cart.js';

export async function addToCart(tab: JourneyTab, state: JourneyState): Promise<StepOutcome> {
  const { controls, buy } = state;
  if (controls.length === 0) return failed('The rendered product page has no add-to-cart or buy control.', 'no_buy_control');
  if (!buy) return failed(`The only buy controls are express payment buttons (${controls.map((c) => quoted(c.name, 40)).join(', ')}), which the journey never presses.`, 'no_buy_control');
  if (!buy.name) {
    const n = controls.length;
    return failed(`The buy control${n > 1 ? 's have' : ' has'} no accessible name (${buy.role ?? 'not in the accessibility tree'}, an icon only): an agent acting through the accessibility tree cannot tell it from any other control.`, 'unnamed_control');
  }
  if (!buy.enabled) return failed(`${quoted(buy.name)} is disabled.`, 'variant_unavailable');
  const errors: string[] = [];
  const onError = (e: Error) => void (errors.length < 3 && errors.push(e.message.split('\n')[0].slice(0, 120)));
  tab.page.on('pageerror', onError);
  const pending: string[] = [];
  const onRequest = (r: { isNavigationRequest(): boolean; url(): string }) => void (r.isNavigationRequest() && pending.length < 3 && pending.push(r.url().slice(0, 200)));
  tab.page.on('request', onRequest);
  try {
    const before = await cartBefore(tab);
    const at = tab.page.url();
    const pressedName = `${quoted(buy.name)} (${buy.role ?? 'control'})`;
    const trouble = await tab.press(state, `[data-store-readiness-buy="${buy.i}"]`);
    if (trouble && 'covered' in trouble) return failed(`${pressedName} cannot be reached: ${trouble.covered}.`, 'covered');
    if (trouble) return failed(`${pressedName} was not pressed: ${Object.values(trouble)[0]}.`, 'error');
    // A form cart leaves the page at once; a script cart answers in place, a little later.
    const left = await tab.afterPress(at, 1000);
    const proof = (await tab.until(() => cartShown(tab, state, before), left ? 800 : 2000)) ?? cartWrite(tab, before);
    if (proof) return passed(`Pressed ${pressedName}: ${proof}.`);
    const stuck = pending.length > 0 && tab.page.url() === at ? ` It started loading ${pending[0]}, which did not open within ${Math.round(tab.left() / 100) / 10} s left.` : '';
    const cart = await openCartPage(tab, state);
    if (cart.listed) return passed(`Pressed ${pressedName}: nothing on the page said so, but the cart (opened ${cart.via}) lists the product.`);
    const script = errors[0] ? ` A script of the page failed: ${quoted(errors[0], 120)}.` : '';
    const seen = cart.why ? `the cart could not be looked at (${cart.why.replace(/\.$/, '')})` : `the cart (opened ${cart.via}) does not list it`;
    return failed(`Pressed ${pressedName}: no cart count rose, no drawer named the product and no cart request succeeded; ${seen}.${script}${stuck}`, 'cart_stayed_empty');
  } finally {
    tab.page.off('pageerror', onError);
    tab.page.off('request', onRequest);
  }
}
