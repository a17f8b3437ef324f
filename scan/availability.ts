// Stock status, read one way for every caller: schema.org ItemAvailability values in any spelling, feed and
// OpenGraph words, and visible stock statements in the languages of the stores we audit.
import { own } from './price.js';

const AVAILABILITY = [
  'InStock', 'OutOfStock', 'SoldOut', 'PreOrder', 'PreSale', 'BackOrder', 'Discontinued', 'InStoreOnly',
  'OnlineOnly', 'LimitedAvailability', 'MadeToOrder', 'Reserved',
];
const AVAILABILITY_BY_LOWER = new Map(AVAILABILITY.map((a) => [a.toLowerCase(), a]));
// OpenGraph / feed spellings and common free text.
const AVAILABILITY_TEXT: Record<string, string> = {
  'in stock': 'InStock', in_stock: 'InStock', instock: 'InStock', available: 'InStock',
  'out of stock': 'OutOfStock', out_of_stock: 'OutOfStock', oos: 'OutOfStock', 'sold out': 'SoldOut',
  soldout: 'SoldOut', preorder: 'PreOrder', 'pre-order': 'PreOrder', 'pre order': 'PreOrder',
  backorder: 'BackOrder', 'back order': 'BackOrder', discontinued: 'Discontinued', 'limited availability': 'LimitedAvailability',
};
// Most purchasable first: with several offers an agent can buy if any one of them is in stock.
const AVAILABILITY_RANK = ['InStock', 'LimitedAvailability', 'OnlineOnly', 'InStoreOnly', 'MadeToOrder', 'PreOrder', 'PreSale', 'BackOrder', 'Reserved', 'OutOfStock', 'SoldOut', 'Discontinued'];

/** schema.org ItemAvailability short name for a URL, short name or common text (any case); null if unknown. */
export function normaliseAvailability(raw: string): string | null {
  const s = raw.trim().slice(0, 100).replace(/^https?:\/\/(?:www\.)?schema\.org\//i, '').replace(/^schema:/i, '');
  const lower = s.toLowerCase().replace(/[.!]+$/, '');
  return AVAILABILITY_BY_LOWER.get(lower) ?? own(AVAILABILITY_TEXT, lower) ?? null;
}

export function bestAvailability(values: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestRank = Infinity;
  for (const v of values) {
    const n = normaliseAvailability(v);
    const rank = n === null ? AVAILABILITY_RANK.length : AVAILABILITY_RANK.indexOf(n);
    if (rank < bestRank) [best, bestRank] = [n ?? v.trim(), rank];
  }
  return best === '' ? undefined : best;
}

// Visible stock statements in the languages of the stores we audit; the negative list is matched first so that
// "not available" never counts as "available".
const OUT_OF_STOCK_TEXT = /(?<!\p{L})(?:out of stock|sold out|currently unavailable|temporarily unavailable|no longer available|not available|unavailable|ausverkauft|nicht lieferbar|nicht verfügbar|nicht auf lager|esaurito|non disponibile|agotado|sin stock|no disponible|épuisé|rupture de stock|indisponible|esgotado|indisponível|sem estoque|uitverkocht|niet op voorraad|slut i lager|udsolgt|utsolgt|vypredané|nedostupné|ni na zalogi|ni dobavljivo|pole laos|brak w magazynie|niedostępny|缺貨|售完|已售完|在庫なし|売り切れ)(?!\p{L})/giu;
const IN_STOCK_TEXT = /(?<!\p{L})(?:in stock|available now|available to buy|auf lager|sofort lieferbar|lieferbar|disponibile|subito disponibile|en stock|disponible|em estoque|disponível|op voorraad|på lager|skladom|na sklade|na zalogi|dobavljivo|laos|w magazynie|dostępny|有現貨|現貨|有庫存|在庫あり)(?!\p{L})/giu;

export function textAvailability(window: string): string | null {
  const outMatches = [...window.matchAll(OUT_OF_STOCK_TEXT)];
  const covered = (i: number, len: number): boolean => outMatches.some((m) => i < (m.index ?? 0) + m[0].length && (m.index ?? 0) < i + len);
  const inMatches = [...window.matchAll(IN_STOCK_TEXT)].filter((m) => !covered(m.index ?? 0, m[0].length));
  if (outMatches.length > 0 && inMatches.length === 0) return 'OutOfStock';
  if (inMatches.length > 0 && outMatches.length === 0) return 'InStock';
  return null; // both or neither: not unambiguous
}

