// Are the product name and a price in the HTML an agent receives, outside scripts and meta tags? Agents do not run
// JavaScript, so an app shell that fills itself from an API shows them nothing.
import { defineCheck } from '../check.js';
import { priceMentions, samePrice, visiblePrices } from '../../products/price.js';
import { quote } from '../evidence.js';
import { nameIndex, normText } from '../page-text.js';
import { aggregatePdps, sampledPdps } from '../product-pages.js';
import type { PageFacts } from '../../artifacts.js';

export default defineCheck({
  id: 'product_server_rendered',
  label: 'Product visible without JavaScript',
  title: 'Product name and price are in the server-rendered HTML',
  failureTitle: 'Render product details in the HTML',
  why: 'Agents fetch pages without running JavaScript; what is not in the initial HTML does not exist for them.',
  how: 'Agents fetch pages without running JavaScript: server-render (SSR/SSG) the product title, price, availability and description into the initial HTML instead of filling an empty app shell from an API after load.',
  fix: {
    plain: 'Make the product’s name, price and stock part of the page as it arrives, because agents do not run the scripts that fill it in later.',
    effort: 'a day or more',
    steps: {
      shopify: 'Standard Shopify themes already do this; if a headless front end or an app fills the product in by script, a developer needs to render it on the server.',
      woocommerce: 'Standard WooCommerce themes already do this; if a page builder or plugin loads the product by script, switch that part back to the standard product template.',
      bigcommerce: 'Standard themes already do this; if a headless front end fills the product in by script, a developer needs to render it on the server.',
      custom: 'Render title, price, stock and description into the HTML on the server (server-side rendering or static generation) instead of loading them after the page opens.',
    },
  },
  run(a) {
    // No page read as a product, but product links answered: what they show without scripts is the finding (an app
    // shell), and the root cause of every product check that has no page to judge (scan/checks/root-causes.ts).
    const misses = (a.productMisses ?? []).flatMap((m) => (m.page ? [m.page] : []));
    if (sampledPdps(a).length === 0 && misses.length > 0) {
      const seen = misses.slice(0, 2).map((page) => `${page.url} ${withoutName(page)}`);
      return { status: 'fail', evidence: `No product page readable without scripts: the product links answer with pages that show no product (${seen.join('; ')}).` };
    }
    return aggregatePdps(a, ({ page, product }) => {
      if (!page) return { status: 'fail', evidence: 'page not parsed' };
      const text = normText(page.visibleText.slice(0, 300_000));
      const visibleName = nameIndex(text, [product?.name?.value, page.h1])?.name;
      if (!visibleName) return { status: 'fail', evidence: `no product name in the visible HTML ${withoutName(page)}` };
      const price = product?.price?.value;
      const priceVisible =
        typeof price === 'number' && price > 0
          ? [...visiblePrices(page.visibleText)].some((p) => samePrice(p, price))
          : priceMentions(page.visibleText).length > 0; // a currency sign or code next to a number
      if (!priceVisible) return { status: 'partial', evidence: `name ${quote(visibleName, 60)} visible, price only in markup${typeof price === 'number' ? ` (${price})` : ''}` };
      return { status: 'pass', evidence: `name ${quote(visibleName, 60)} and price${typeof price === 'number' ? ` ${price}` : ''} visible in the HTML text` };
    });
  },
});

/** What a page without a visible product shows instead: how much text, and what its <noscript> says about scripts. */
function withoutName(page: PageFacts): string {
  const text = normText(page.visibleText.slice(0, 300_000));
  const noscript = normText(page.noscriptText).includes('javascript') ? `; <noscript> says ${quote(page.noscriptText, 80)}` : '';
  return `(${text.length} characters of text)${noscript}`;
}
