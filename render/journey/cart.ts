// Seeing the cart as an agent does: the signs that pressing the buy control changed it (a cart count that rose, a
// drawer or dialog naming the item, a cart page listing it, a cart endpoint answering), and opening the cart by its
// link or at the store's cart path.
import { BUY_WORDS, CART_PATH, CART_WORDS } from '../../scan/journey/words.js';
import type { JourneyBlocker } from '../../schemas/journey.js';
import { cartCount, layerNaming, markNamedControls, pageNames } from './page-scripts.js';
import { CartCountAnswer, FlagAnswer, LayerAnswer, NamedControlsAnswer } from '../page-data.js';
import { quoted, type JourneyState, type JourneyTab } from './tab.js';

/** The cart count before a press, and how many cart writes had been answered. */
export interface CartBefore {
  count: number | null;
  writes: number;
}

export async function cartBefore(tab: JourneyTab): Promise<CartBefore> {
  return { count: await tab.ask(CartCountAnswer, null, cartCount, CART_WORDS.source), writes: tab.guard.cartWrites.length };
}

/**
 * How the page shows the product went into the cart since `before` — the cart page listing it, a drawer naming it,
 * the cart count risen — or null. A cart write answered is the weaker sign: see `cartWrite`.
 */
export async function cartShown(tab: JourneyTab, state: JourneyState, before: CartBefore): Promise<string | null> {
  if (CART_PATH.test(new URL(tab.page.url()).pathname) && (await listsProduct(tab, state))) {
    state.atCart = 'page';
    return 'the cart page it opened lists the product';
  }
  const layer = state.name ? await tab.ask(LayerAnswer, null, layerNaming, state.name) : null;
  if (layer) {
    state.atCart = 'drawer';
    state.drawer = layer;
    return `${layer} opened, naming the product`;
  }
  const count = await tab.ask(CartCountAnswer, null, cartCount, CART_WORDS.source);
  if (count !== null && count > (before.count ?? 0)) return `the cart count rose${before.count !== null ? ` from ${before.count}` : ''} to ${count}`;
  return null;
}

/** A cart endpoint that answered a write since `before`, as a sign the cart changed, or null. */
export function cartWrite(tab: JourneyTab, before: CartBefore): string | null {
  const write = tab.guard.cartWrites.slice(before.writes)[0];
  return write ? `the cart answered (${write})` : null;
}

/** Does the page in the tab name the product? */
export function listsProduct(tab: JourneyTab, state: JourneyState): Promise<boolean> {
  return state.name ? tab.ask(FlagAnswer, false, pageNames, state.name) : Promise.resolve(false);
}

/**
 * Opens the cart: its link (a link named cart, bag or basket), else the store's /cart. Whether it lists the product,
 * how it was reached, and why it could not be opened.
 */
export async function openCartPage(tab: JourneyTab, state: JourneyState): Promise<{ listed: boolean; via: string; why?: string; blocker?: JourneyBlocker }> {
  const failuresBefore = tab.guard.navigationFailures.length;
  const links = await tab.ask(NamedControlsAnswer, [], markNamedControls, 'cart', CART_WORDS.source, BUY_WORDS.source, { links: true, max: 1 });
  let via: string;
  if (links[0]) {
    via = `by its link ${quoted(links[0].name, 40)}`;
    const before = tab.page.url();
    const trouble = await tab.press(state, '[data-sr-journey="cart-0"]');
    if (trouble) return { listed: false, via, why: `The cart link could not be pressed: ${Object.values(trouble)[0]}.`, blocker: 'error' };
    await tab.afterPress(before, 3000);
  } else {
    const cart = new URL('/cart', state.req.homeUrl).href;
    via = `at ${cart}`;
    const opened = await tab.goto(cart);
    if (!opened.ok) return { listed: false, via, why: `The cart did not open: ${opened.why}.`, blocker: opened.blocker };
    await tab.settle();
  }
  const failure = tab.guard.navigationFailures.slice(failuresBefore).find((f) => /REDIRECT/.test(f)) ?? (tab.page.url().startsWith('chrome-error:') ? 'the page could not be opened' : null);
  if (failure) return { listed: false, via, why: `The cart did not open: ${/TOO_MANY_REDIRECTS/.test(failure) ? 'it redirected in a loop (too many redirects)' : failure}.`, blocker: 'error' };
  const listed = await listsProduct(tab, state);
  if (listed) state.atCart = 'page';
  return { listed, via };
}
