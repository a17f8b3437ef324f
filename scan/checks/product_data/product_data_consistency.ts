// Does the structured data say what the page says? Compares the structured price with the prices visible in the
// HTML and with the OpenGraph tags, and the stock state with "sold out" wording; agents quote the markup.
import { defineCheck } from '../check.js';
import { amountReadings, priceMentions, pricePositions, samePrice } from '../../products/price.js';
import { availabilityKind } from '../../products/availability.js';
import { productStatements } from '../../products/buy-box.js';
import { quote } from '../evidence.js';
import { nameIndex, normText } from '../page-text.js';
import { aggregatePdps, markupPriceOf, STRUCTURED } from '../product-pages.js';

const WINDOW = 300; // characters around the visible price or name that count as the buy box

function firstMeta(meta: Record<string, string[]>, keys: string[]): string | null {
  for (const k of keys) {
    const v = meta[k]?.find((x) => x.trim() !== '');
    if (v) return v.trim();
  }
  return null;
}

export default defineCheck({
  id: 'product_data_consistency',
  label: 'Structured data matches the page',
  title: 'Structured data matches what the page shows',
  failureTitle: 'Keep structured data equal to the page',
  why: 'Agents quote your markup; when it disagrees with the page they quote wrong prices or stock, and Google drops such pages from merchant listings.',
  how: 'Generate JSON-LD, OG tags and visible text from the same source so price, currency and stock agree everywhere, including during sales; mismatches make agents quote wrong prices and get pages dropped from merchant listings.',
  fix: {
    plain: 'Make the price and stock in your machine-readable data match what the page shows, so agents do not quote a wrong price or stock.',
    effort: 'about an hour',
    steps: {
      shopify: 'Remove duplicate product data added by a second app or an old theme snippet, and check that sale prices show the same everywhere.',
      woocommerce: 'Make sure only one plugin outputs product data (theme, WooCommerce or SEO plugin, not several), and clear the cache after price changes.',
      bigcommerce: 'Remove duplicate product data added by an app or a custom snippet, and check that sale prices show the same everywhere.',
      custom: 'Fill the product data, the share tags and the visible text from the same source, including during sales and after stock changes.',
    },
  },
  run(a) {
    return aggregatePdps(a, ({ page, product }) => {
      const price = markupPriceOf(product);
      if (!page || !price || !STRUCTURED.has(price.source) || !(price.value > 0)) {
        return { status: 'fail', evidence: 'no structured price to compare' };
      }
      const text = normText(page.visibleText.slice(0, 300_000));
      const problems: string[] = [];
      // The buy box outvoted the markup's price or left it unread (scan/products/price-choice.ts): say why.
      if (product?.markupPrice) problems.push(product.markupPrice.why);

      const ogAmount = firstMeta(page.meta, ['product:price:amount', 'og:price:amount']);
      if (ogAmount && !amountReadings(ogAmount).some((p) => samePrice(p, price.value))) {
        problems.push(`OpenGraph price ${quote(ogAmount, 20)} vs structured ${price.value}`);
      }
      const ogCurrency = firstMeta(page.meta, ['product:price:currency', 'og:price:currency']);
      const currency = product?.currency?.value;
      if (ogCurrency && currency && /^[A-Za-z]{3}$/.test(currency) && ogCurrency.toUpperCase() !== currency.toUpperCase()) {
        problems.push(`OpenGraph currency ${ogCurrency} vs structured ${currency}`);
      }

      // Judge the buy box, not the whole page: recommendations, delivery notes and store-pickup widgets carry
      // their own prices and "out of stock" wording. The buy box = around the visible price and the product name.
      const name = nameIndex(text, [page.h1, product?.name?.value]);
      const pricesAt = pricePositions(text, price.value);
      const anchors = [...pricesAt, ...(name ? [name.at] : [])];
      const near = anchors.map((at) => text.slice(Math.max(0, at - WINDOW), at + WINDOW)).join(' | ');
      const markup = product?.availability ? availabilityKind(product.availability.value) : null;
      // Store pickup, chat and delivery options have their own "unavailable"; they say nothing about the product.
      const said = productStatements(near);
      const ogAvailability = firstMeta(page.meta, ['product:availability', 'og:availability']) ?? '';
      const soldOut =
        said.find((s) => availabilityKind(s.status) === 'unavailable')?.text ??
        (availabilityKind(ogAvailability) === 'unavailable' ? `og availability "${ogAvailability.toLowerCase()}"` : null);
      if (markup === 'available' && soldOut) {
        problems.push(`markup says ${product?.availability?.value} but the page says "${soldOut}"`);
      }
      const inStock = said.find((s) => availabilityKind(s.status) === 'available');
      if (markup === 'unavailable' && !soldOut && inStock) {
        problems.push(`markup says ${product?.availability?.value} but the page says "${inStock.text}"`);
      }

      if (pricesAt.length === 0) {
        const shown = name ? priceMentions(text.slice(name.at, name.at + 2 * WINDOW)).find((m) => m.role === 'selling') : undefined;
        if (shown) problems.push(`structured price ${price.value} not on the page, which shows ${quote(shown.text, 30)} next to the product name`);
        else if (problems.length === 0) return { status: 'partial', evidence: `structured price ${price.value}, but no visible price to compare` };
      }
      if (problems.length > 0) return { status: 'fail', evidence: problems.join('; ') };
      return { status: 'pass', evidence: `price ${price.value}${currency ? ` ${currency}` : ''} matches the page${product?.availability ? `, ${product.availability.value} consistent` : ''}` };
    });
  },
});
