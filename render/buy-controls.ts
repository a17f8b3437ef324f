// A page function that finds what a shopper would press to buy. It runs inside the
// rendered page (serialised by playwright-core, so each is self-contained and uses nothing from this module), and
// every value they return is written by the page: untrusted, bounded by the caller.

// The page's globals, loosely typed: these functions run in the browser, and the project compiles without the DOM
// library (its types would clash with Node's).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare function getComputedStyle(el: any): { position: string; visibility: string; display: string; opacity: string };
type Element = any;

/** Why a control was taken for a buy control, strongest first. */
export type BuyControlReason = 'words' | 'hint' | 'cart_form' | 'icon' | 'near_price';
export const BUY_CONTROL_REASONS = ['words', 'hint', 'cart_form', 'icon', 'near_price'] as const satisfies readonly BuyControlReason[];

export interface MarkedBuyControls {
  /** One reason per marked control, in mark order: control i carries data-store-readiness-buy="i". */
  reasons: BuyControlReason[];
}

/**
 * Finds the visible buy controls of the page and marks each with data-store-readiness-buy="i" (at most `max`), so a
 * caller can ask the accessibility tree about it or press it. A control is recognised by its words ("Add to cart",
 * "Buy now" in the usual languages, also in aria-label, title or value), by a cart-like id, class, name or action, by
 * its place (the submit button of a form that posts to a cart, a button beside the product's price) or as an icon
 * button whose class or image says cart, bag or basket. Controls in the header or navigation (the mini-cart) and
 * controls that say wish list, share, compare, quantity or close are never taken.
 */
export function markBuyControls(max: number): MarkedBuyControls {
  const buyWords = /add(ing)? to (cart|bag|basket|trolley)|buy (it )?now|\bbuy\b|in den warenkorb|jetzt kaufen|ajouter au panier|añadir al carrito|aggiungi al carrello|in winkelwagen/i;
  const buyHints = /add[-_ ]?to[-_ ]?(cart|bag|basket)|addtocart|buy[-_ ]?now|cart[-_]?add|add[-_]?cart|product-form__submit/i;
  const cartWord = /(^|[^a-z])(cart|bag|basket|trolley|warenkorb|panier|carrito|carrello|winkelwagen)([^a-z]|$)/i;
  const cartAction = /cart|basket|bag|checkout/i;
  const notBuying = /wish|favou?rite|heart|share|compare|quantity|qty|minus|plus|increment|decrement|zoom|close|dismiss|remove|delete|search|menu/i;
  const priceHint = /price/i;
  const priceText = /(^|\s)([$€£¥₹]|USD|EUR|GBP)\s?\d|\d([.,]\d{2})?\s?([$€£¥₹]|USD|EUR|GBP|kr|zł)(\s|$)/;
  const visible = (el: Element) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none' && style.opacity !== '0';
  };
  const attrs = (el: Element, names: string[]) => names.map((n) => el.getAttribute(n) ?? '').join(' ');
  const isButton = (el: Element) => el.tagName !== 'A';
  // The product's price: an element marked as one, or a short text that is one.
  const prices: Element[] = [];
  for (const el of Array.from(document.querySelectorAll('[itemprop=price], [class*=price], [id*=price], p, span, div, strong') as ArrayLike<Element>).slice(0, 4000)) {
    const text = (el.textContent ?? '').trim();
    if (text.length === 0 || text.length > 40) continue;
    if ((priceHint.test(attrs(el, ['class', 'id', 'itemprop'])) || priceText.test(text)) && visible(el)) prices.push(el);
    if (prices.length >= 10) break;
  }
  const nearPrice = (el: Element) => {
    for (let up = el.parentElement, depth = 0; up && up !== document.body && depth < 3; up = up.parentElement, depth++) {
      if (prices.some((p) => up.contains(p))) return true;
    }
    return false;
  };
  const reasonOf = (el: Element): BuyControlReason | null => {
    const words = `${el.textContent ?? ''} ${attrs(el, ['aria-label', 'title'])} ${el.value ?? ''}`.slice(0, 300);
    const hints = `${el.id} ${attrs(el, ['class', 'name', 'data-action'])}`.slice(0, 300);
    const images = Array.from(el.querySelectorAll('img, svg, use, i, span') as ArrayLike<Element>)
      .slice(0, 5)
      .map((i) => attrs(i, ['src', 'alt', 'class', 'href', 'xlink:href', 'data-icon']))
      .join(' ')
      .slice(0, 300);
    if (notBuying.test(`${words} ${hints}`)) return null;
    if (buyWords.test(words)) return 'words';
    if (buyHints.test(hints)) return 'hint';
    const form = el.closest('form');
    const submits = form && (el.type === 'submit' || el.type === 'image' || (el.tagName === 'BUTTON' && !el.getAttribute('type')));
    if (submits && cartAction.test(form.getAttribute('action') ?? '')) return 'cart_form';
    if (isButton(el) && (cartWord.test(hints) || cartWord.test(images))) return 'icon';
    if (isButton(el) && nearPrice(el)) return 'near_price';
    return null;
  };
  const found: { el: Element; reason: BuyControlReason; at: number }[] = [];
  const rank = ['words', 'hint', 'cart_form', 'icon', 'near_price'];
  const candidates = Array.from(document.querySelectorAll('button, input[type=submit], input[type=button], input[type=image], a, [role=button]') as ArrayLike<Element>).slice(0, 5000);
  for (const [at, el] of candidates.entries()) {
    if (el.closest('header, nav, [role=banner], [role=navigation]')) continue;
    const reason = reasonOf(el);
    if (reason && visible(el)) found.push({ el, reason, at });
  }
  // Strongest reasons first; a button only beside the price counts when nothing says more.
  const chosen = found
    .filter((f) => f.reason !== 'near_price' || found.every((g) => g.reason === 'near_price'))
    .sort((a, b) => rank.indexOf(a.reason) - rank.indexOf(b.reason) || a.at - b.at)
    .slice(0, max);
  chosen.forEach((f, i) => f.el.setAttribute('data-store-readiness-buy', String(i)));
  return { reasons: chosen.map((f) => f.reason) };
}
