// Step `open_cart`: reach the cart (the page the buy control opened, the drawer it opened, the cart link or the
// store's cart path) and see the product listed.
import { openCartPage } from './cart.js';
import { failed, passed, type JourneyState, type JourneyTab, type StepOutcome } from './tab.js';

export async function openCart(tab: JourneyTab, state: JourneyState): Promise<StepOutcome> {
  if (state.atCart === 'page') return passed('On the cart page, which lists the product.');
  if (state.atCart === 'drawer') return passed(`The cart drawer ${state.drawer ?? ''} lists the product.`);
  const cart = await openCartPage(tab, state);
  if (cart.why) return failed(cart.why, cart.blocker ?? 'error');
  return cart.listed ? passed(`Opened the cart ${cart.via}: it lists the product.`) : failed(`Opened the cart ${cart.via}: it does not list the product.`, 'cart_stayed_empty');
}
