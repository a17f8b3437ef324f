// Is there a purchase control an agent can use from the HTML: a form posting to a cart/checkout URL with a product
// or variant id, or a cart link carrying a product id? A script-bound button alone is partial.
import { defineCheck } from '../check.js';
import type { FormInfo, LinkInfo } from '../../artifacts.js';
import { snippet } from '../evidence.js';
import { findPhrase } from '../page-text.js';
import { noPdpOutcome, sampledPdps } from '../product-pages.js';

const CART_PATH = /cart|basket|bag|checkout|warenkorb|panier|carrito|carrello|winkelwagen|koszyk|kosik|košík/i;
const ID_INPUT = /^(id|variant|variant_id|variantid|product|product_id|productid|product-id|sku|item|item_id|itemid|add-to-cart|add|pid|asin|offerlistingid|items\[\]\[id\]|items\[0\]\[id\])$/i;
// A cart URL with an id in it: Shopify /cart/123:1 or /cart/add?id=, WooCommerce ?add-to-cart=, generic ?pid=.
const CART_LINK = /\/cart\/\d+:\d+|[?&](add-to-cart|add_to_cart|addtocart|pid|product_id|productid|variant|variant_id|id|sku)=\w/i;
const CART_WORD = /\b(cart|basket|bag|warenkorb|panier|carrito|carrello|winkelwagen|koszyk|ostukorv|kosik|košík|varukorg|carrinho)/i;
const BUY_BUTTON = ['add to cart', 'add to bag', 'add to basket', 'buy now', 'buy it now', 'in den warenkorb', 'ajouter au panier', 'añadir al carrito', 'aggiungi al carrello', 'in winkelwagen', 'do košíka', 'do koszyka', 'lägg i varukorg', 'adicionar ao carrinho', 'comprar'];
const OFF_SITE = ['buy on amazon', 'buy on ebay', 'view on etsy', 'available on amazon', 'find a retailer', 'where to buy', 'buy from a retailer'];
const ASK_TO_BUY = ['call to order', 'request a quote', 'request quote', 'contact us to order', 'price on request', 'angebot anfordern'];

// WooCommerce posts to the product URL itself with an add-to-cart field, so that field alone also counts.
function cartForm(forms: FormInfo[]): FormInfo | undefined {
  return forms.find(
    (f) =>
      (CART_PATH.test((f.action ?? '').slice(0, 300)) && f.inputs.some((i) => ID_INPUT.test(i.name.slice(0, 40)))) ||
      f.inputs.some((i) => /^add[-_]to[-_]cart$/i.test(i.name.slice(0, 40))),
  );
}

function cartLink(links: LinkInfo[]): LinkInfo | undefined {
  return links.find((l) => {
    const u = (l.url ?? '').slice(0, 500);
    return CART_PATH.test(u) && CART_LINK.test(u);
  });
}

export default defineCheck({
  id: 'checkout_add_to_cart',
  label: 'Purchase control in the HTML',
  title: 'Product pages have an add-to-cart control in the HTML',
  failureTitle: 'Put a real add-to-cart form in the page',
  why: 'An agent (or the browser it hands off to) can only add an item to a cart if the page carries a form or link that does it without running your scripts.',
  how: 'Render a standard `<form method="post" action="/cart/add">` with the variant id and quantity inputs and a labelled "Add to cart" button in the server HTML, so an agent (or the browser it hands off to) can add the item without running your scripts.',
  fix: {
    plain: 'Put an ordinary "Add to cart" button in your product pages that works without scripts, so an agent or the browser it hands over to can use it.',
    effort: 'about an hour',
    steps: {
      shopify: 'Standard themes already have the product form; if an app or custom section replaced it with a script-only button, restore the theme’s product form.',
      woocommerce: 'Standard themes already have the form; if a page builder replaced it with a script-only button, restore the standard add-to-cart form.',
      bigcommerce: 'Standard themes already have the form; if an app replaced it with a script-only button, restore the theme’s product form.',
      custom: 'Render a form in the page’s HTML that adds the product to the cart, as below.',
    },
    snippet: '<form method="post" action="/cart/add">\n  <input type="hidden" name="id" value="VARIANT_ID">\n  <input type="number" name="quantity" value="1" min="1">\n  <button type="submit">Add to cart</button>\n</form>',
  },
  run(a) {
    const pdps = sampledPdps(a).filter((p) => p.page);
    if (pdps.length === 0) return noPdpOutcome(a);
    for (const { page, url } of pdps) {
      if (!page) continue;
      const form = cartForm(page.forms);
      if (form) {
        const id = form.inputs.find((i) => ID_INPUT.test(i.name.slice(0, 40)));
        return { status: 'pass', evidence: `${url}: <form method=${form.method} action=${snippet(form.action, 80)}> with input "${id?.name}".` };
      }
      const link = cartLink(page.links);
      if (link) return { status: 'pass', evidence: `${url}: cart link ${snippet(link.url, 120)}.` };
    }
    for (const { page, url } of pdps) {
      if (!page) continue;
      const buttons = [...page.buttons, ...page.forms.flatMap((f) => f.buttons)].map((b) => b.toLowerCase());
      const button = buttons.find((b) => findPhrase(b, BUY_BUTTON) || CART_WORD.test(b.slice(0, 80)));
      if (button) return { status: 'partial', evidence: `${url}: a "${snippet(button, 40)}" button without a cart form or URL (script-bound).` };
      const text = page.visibleText.slice(0, 300_000).toLowerCase();
      const offSite = findPhrase(text, OFF_SITE);
      if (offSite) return { status: 'partial', evidence: `${url}: purchase routed off-site ("${offSite}").` };
      const ask = findPhrase(text, ASK_TO_BUY);
      if (ask) return { status: 'partial', evidence: `${url}: "${ask}" instead of a cart.` };
    }
    return { status: 'fail', evidence: `No add-to-cart form, cart link or buy button on ${pdps.map((p) => p.url).join(', ')}.` };
  },
});
