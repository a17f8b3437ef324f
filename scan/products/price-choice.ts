// Which amount is the item's price when the markup and the buy box disagree. The page decides when it shows the
// markup's amount as something other than what a buyer pays now: crossed out beside a discount, worded as a regular
// price, an estimate or a starting price; the buy box's selling price is then the price. When the page shows the
// markup's amount nowhere and its buy box sells at another, nothing decides, and no price is read: a wrong amount is
// worse than none. In every other case the markup stands (a store's visible text is read less surely than its data).
// Pure functions over one page's readings.
import { pricePositions, samePrice, type PriceMention, type SellingPrice } from './price.js';

/** What the buy box shows: the price read there and every currency-marked amount in it, with its role. */
export interface BuyBoxPrices {
  selling: SellingPrice;
  mentions: readonly PriceMention[];
}

export type PriceChoice = { take: 'markup' } | { take: 'page'; why: string } | { take: 'none'; why: string };

export function choosePrice(markup: number, box: BuyBoxPrices | undefined, visibleText: string): PriceChoice {
  if (!box || !(markup > 0)) return { take: 'markup' };
  const { selling, mentions } = box;
  // Only an amount the buy box prints as the price to pay can outvote the markup, never a fallback (a price per
  // month, a regular price shown alone).
  const sells = (value: number) => mentions.some((m) => m.role === 'selling' && samePrice(m.value, value));
  if (samePrice(selling.value, markup) || !sells(selling.value)) return { take: 'markup' };
  const crossedOut = selling.regular !== undefined && samePrice(selling.regular, markup);
  // Where the buy box first prints the markup's amount, it says what the amount is (cards further down may sell
  // other items at it).
  const first = mentions.find((m) => samePrice(m.value, markup));
  const shownAsOther = first !== undefined && first.role !== 'selling';
  if (crossedOut || shownAsOther) {
    const as = crossedOut ? 'the crossed-out price beside a discount' : 'another price than the one to pay';
    return { take: 'page', why: `the page shows the markup's ${markup} as ${as} and sells at ${selling.text}` };
  }
  if (pricePositions(visibleText, markup).length > 0) return { take: 'markup' };
  return { take: 'none', why: `the markup says ${markup}, the buy box shows ${selling.text}, and the page shows ${markup} nowhere` };
}
