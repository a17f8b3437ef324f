// Is the price published in the Offer as a number > 0 with an ISO 4217 currency? Formatted strings ("€1.299,00"),
// a zero price, a missing currency or an OpenGraph-only price are partial: an agent has to guess.
import { defineCheck } from '../check.js';
import type { Fact } from '../../artifacts.js';
import { isCurrencyCode } from '../../products/price.js';
import { quote } from '../evidence.js';
import { aggregatePdps, markupPriceOf, STRUCTURED } from '../product-pages.js';

/** A price only read from the visible text is not published for machines: it counts as missing. */
function fromMarkup<T>(f: Fact<T> | null | undefined): Fact<T> | null {
  return f && f.source !== 'html' ? f : null;
}

export default defineCheck({
  id: 'product_price',
  label: 'Price and currency',
  title: 'Offers state a numeric price and currency',
  failureTitle: 'Publish price and currency in the Offer',
  why: 'Agents compare and quote prices; a price they cannot parse, or without a currency, is a price they cannot use.',
  how: 'Add `"offers": {"@type": "Offer", "price": "189.00", "priceCurrency": "EUR", "url": …}` with a plain decimal price (dot separator, no currency symbol) greater than zero and an ISO 4217 currency; for ranges use `AggregateOffer` with `lowPrice`/`highPrice`.',
  fix: {
    plain: 'Put each product’s price and its currency in the machine-readable product data, so agents can quote and compare it.',
    effort: 'about an hour',
    steps: {
      shopify: 'An up-to-date theme includes the price for you; if yours does not, a developer adds the offer to the product template, or use a product structured data app.',
      woocommerce: 'WooCommerce includes the price for you; check that no plugin or theme removes the product data and that the currency is set in WooCommerce settings.',
      bigcommerce: 'Cornerstone-based themes include the price; on an older or custom theme, a developer adds the offer to the product template.',
      custom: 'Add an offer with a plain number price (dot as decimal separator, no currency sign) and a three-letter currency code to your product data, as below.',
    },
    snippet: '"offers": {"@type": "Offer", "price": "189.00", "priceCurrency": "EUR", "url": "https://your-store.example/products/your-product"}',
  },
  run(a) {
    return aggregatePdps(a, ({ product }) => {
      const price = fromMarkup(markupPriceOf(product));
      const text = fromMarkup(product?.priceText);
      const currency = fromMarkup(product?.currency);
      if (!price && !text) {
        const free = product?.price?.value === 0 ? ': agents read this item as free' : '';
        const seen = product?.price ? ` (only ${product.price.value} in the visible text${free})` : '';
        return { status: 'fail', evidence: `no price in the markup${seen}` };
      }
      const cur = currency ? `${currency.value} (${currency.source})` : 'no currency';
      if (!price || !Number.isFinite(price.value)) {
        return { status: 'partial', evidence: `price ${quote(text?.value ?? '', 40)} is not a plain number; ${cur}` };
      }
      const desc = `price ${price.value} (${price.source}), ${cur}`;
      if (price.value <= 0) return { status: 'partial', evidence: `${desc}: zero price, agents read this item as free` };
      if (!STRUCTURED.has(price.source)) return { status: 'partial', evidence: `${desc}: not in a structured Offer` };
      if (!currency || !isCurrencyCode(currency.value) || !STRUCTURED.has(currency.source)) {
        return { status: 'partial', evidence: `${desc}: no ISO 4217 priceCurrency in the Offer` };
      }
      return { status: 'pass', evidence: desc };
    });
  },
});
