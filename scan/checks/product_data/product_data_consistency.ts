// Does the structured data say what the page says? Compares the structured price with the prices visible in the
// HTML and with the OpenGraph tags, and the stock state with "sold out" wording; agents quote the markup.
import { defineCheck } from '../../check.js';
import {
  STRUCTURED,
  aggregatePdps,
  availabilityName,
  findPhrase,
  nameIndex,
  normText,
  pricePositions,
  quote,
  readPrice,
  samePrice,
} from '../shared.js';

const SOLD_OUT = [
  'sold out',
  'out of stock',
  'ausverkauft',
  'nicht auf lager',
  'nicht verfügbar',
  'agotado',
  'épuisé',
  'rupture de stock',
  'esaurito',
  'uitverkocht',
  'niet op voorraad',
  'slutsåld',
  'esgotado',
  'wyprzedane',
  'vyprodáno',
];
const IN_STOCK_VALUES = new Set(['instock', 'limitedavailability', 'onlineonly', 'instoreonly']);
const OUT_OF_STOCK_VALUES = new Set(['outofstock', 'soldout', 'discontinued']);
const WINDOW = 300; // characters around the visible price or name that count as the buy box
const CODES = 'USD|EUR|GBP|CAD|AUD|NZD|CHF|SEK|NOK|DKK|PLN|CZK|HUF|RON|JPY|CNY|HKD|SGD|INR|BRL|MXN|ARS|ZAR|TRY';
const VISIBLE_PRICE = new RegExp(`(?:[$€£¥₹]|\\b(?:${CODES}|kr)\\b)\\s?\\d[\\d.,]{0,12}|\\d[\\d.,]{0,12}\\s?(?:[$€£¥₹]|\\b(?:${CODES}|kr)\\b)`, 'i');

function firstMeta(meta: Record<string, string[]>, keys: string[]): string | null {
  for (const k of keys) {
    const v = meta[k]?.find((x) => x.trim() !== '');
    if (v) return v.trim();
  }
  return null;
}

export default defineCheck({
  id: 'product_data_consistency',
  pillar: 'product_data',
  order: 8,
  points: 2,
  partialPoints: 1,
  label: 'Structured data matches the page',
  title: 'Structured data matches what the page shows',
  failureTitle: 'Keep structured data equal to the page',
  why: 'Agents quote your markup; when it disagrees with the page they quote wrong prices or stock, and Google drops such pages from merchant listings.',
  how: 'Generate JSON-LD, OG tags and visible text from the same source so price, currency and stock agree everywhere, including during sales; mismatches make agents quote wrong prices and get pages dropped from merchant listings.',
  run(a) {
    return aggregatePdps(a, ({ page, product }) => {
      const price = product?.price;
      if (!page || !price || !STRUCTURED.has(price.source) || !(price.value > 0)) {
        return { status: 'fail', evidence: 'no structured price to compare' };
      }
      const text = normText(page.visibleText.slice(0, 300_000));
      const problems: string[] = [];

      const ogAmount = firstMeta(page.meta, ['product:price:amount', 'og:price:amount']);
      if (ogAmount && !readPrice(ogAmount).some((p) => samePrice(p, price.value))) {
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
      const availability = product?.availability ? availabilityName(product.availability.value) : null;
      const ogAvailability = (firstMeta(page.meta, ['product:availability', 'og:availability']) ?? '').toLowerCase();
      const soldOut = findPhrase(near, SOLD_OUT) ?? (/out ?of ?stock|oos|sold ?out/.test(ogAvailability) ? `og availability "${ogAvailability}"` : null);
      if (availability && IN_STOCK_VALUES.has(availability) && soldOut) {
        problems.push(`markup says ${product?.availability?.value} but the page says "${soldOut}"`);
      }
      if (availability && OUT_OF_STOCK_VALUES.has(availability) && !soldOut && /(^|[^t] )in stock/.test(near)) {
        problems.push(`markup says ${product?.availability?.value} but the page says "in stock"`);
      }

      if (pricesAt.length === 0) {
        const shown = name ? VISIBLE_PRICE.exec(text.slice(name.at, name.at + 2 * WINDOW)) : null;
        if (shown) problems.push(`structured price ${price.value} not on the page, which shows ${quote(shown[0], 30)} next to the product name`);
        else if (problems.length === 0) return { status: 'partial', evidence: `structured price ${price.value}, but no visible price to compare` };
      }
      if (problems.length > 0) return { status: 'fail', evidence: problems.join('; ') };
      return { status: 'pass', evidence: `price ${price.value}${currency ? ` ${currency}` : ''} matches the page${availability ? `, ${product?.availability?.value} consistent` : ''}` };
    });
  },
});
