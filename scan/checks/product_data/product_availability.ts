// Is stock stated as a schema.org ItemAvailability value in the Offer? Free text ("in stock", "Dobavljivo") or an
// OpenGraph-only product:availability is partial.
import { defineCheck } from '../check.js';
import { isItemAvailability } from '../../products/availability.js';
import { availabilityBasisPhrase, isGuessedAvailability } from '../../products/availability-basis.js';
import { quote } from '../evidence.js';
import { aggregatePdps, STRUCTURED } from '../product-pages.js';

export default defineCheck({
  id: 'product_availability',
  label: 'Stock status',
  title: 'Offers state stock in schema.org terms',
  failureTitle: 'State stock in schema.org terms',
  why: 'Agents avoid recommending items they cannot confirm are in stock; a schema.org availability value is the signal they read.',
  how: 'Set `offers.availability` to a schema.org value such as `https://schema.org/InStock`, `OutOfStock`, `PreOrder` or `BackOrder`, and keep it in sync with inventory so agents don\'t recommend sold-out items.',
  fix: {
    plain: 'Say in the machine-readable product data whether each product is in stock, because agents avoid recommending what they cannot confirm is available.',
    effort: 'about an hour',
    steps: {
      shopify: 'An up-to-date theme includes the stock status for you when inventory is tracked; on an older theme, a developer adds it to the product template, or use a structured data app.',
      woocommerce: 'WooCommerce includes the stock status for you; keep each product’s stock status up to date and check that no plugin removes the product data.',
      bigcommerce: 'Cornerstone-based themes include the stock status; on an older or custom theme, a developer adds it to the product template.',
      custom: 'Add availability to the offer in your product data from your live inventory, as below (OutOfStock, PreOrder or BackOrder where they apply).',
    },
    snippet: '"availability": "https://schema.org/InStock"',
  },
  run(a) {
    return aggregatePdps(a, ({ product }) => {
      const av = product?.availability ?? null;
      if (!av || av.value.trim() === '') return { status: 'fail', evidence: 'no availability' };
      // Stock read only from the page body is not published for machines; a guess from a buy button or a price is
      // not the page saying so, and the evidence must not claim it is.
      if (av.source === 'html') {
        const basis = product?.availabilityBasis ?? 'text';
        const seen = isGuessedAvailability(basis)
          ? `${quote(av.value, 40)} only ${availabilityBasisPhrase(basis)}; the page states no stock`
          : `only ${quote(av.value, 40)} ${availabilityBasisPhrase(basis)}`;
        return { status: 'fail', evidence: `no availability in the markup (${seen})` };
      }
      // A store's own word ("NOT SOLD") is read as a schema.org state, but agents that expect the term still miss it.
      const raw = product?.availabilityRaw;
      const known = isItemAvailability(raw?.value ?? av.value);
      const read = raw ? (isItemAvailability(av.value) ? `, read as ${av.value}` : ', an unknown value') : '';
      const desc = `availability ${quote(raw?.value ?? av.value, 60)} (${av.source}${read})`;
      if (known && STRUCTURED.has(av.source)) return { status: 'pass', evidence: desc };
      if (!STRUCTURED.has(av.source)) return { status: 'partial', evidence: `${desc}: not in a structured Offer` };
      return { status: 'partial', evidence: `${desc}: not a schema.org ItemAvailability value` };
    });
  },
});
