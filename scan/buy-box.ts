// The buy box: the stretch of visible text from the product title to the first recommendation block ("Customers
// also viewed", "Ähnliche Artikel", …). The price and the stock status of the product are read there only; stock
// wording that is about a side service (store pickup, chat, a delivery option) does not say whether the product can
// be bought, and "Currently unavailable" next to the title outranks "In stock" further down. Pure functions; every
// regex is linear and runs on capped text.
import { stockStatements, type StockStatement } from './availability.js';
import { availabilityKind } from './availability.js';

// Headings of recommendation blocks, in the languages the stock phrases cover, at the start of a line.
const RECOMMENDATION_HEADING = new RegExp(
  String.raw`^[ \t]*(?:` +
    [
      'customers (?:who (?:viewed|bought) this (?:item|product) )?also (?:viewed|bought|liked)', 'customers went on to buy',
      'what other items do customers buy', 'products related to this item', 'more like this', 'others also (?:viewed|bought)',
      'people (?:also|who viewed this also) (?:viewed|bought|like)', 'similar (?:items|products)', 'related (?:items|products)',
      'frequently bought together', 'you (?:may|might) also (?:like|be interested in)', 'recommended for you', 'more from this (?:brand|seller)',
      'sponsored products', 'compare with similar items', 'ähnliche (?:artikel|produkte)', 'das könnte (?:dir|ihnen) auch gefallen',
      'kunden (?:kauften|kaufen) auch', 'kunden, die diesen artikel', 'wird oft zusammen gekauft', 'passend dazu',
      'les clients ayant (?:consulté|acheté|regardé) cet article', 'los clientes que (?:vieron|compraron) este', 'i clienti che hanno (?:visto|acquistato)',
      'vous aimerez (?:aussi|peut-être aussi)', 'produits similaires', 'articles similaires', 'fréquemment achetés ensemble',
      'productos similares', 'artículos similares', 'también te (?:puede interesar|podría gustar)', 'comprados juntos habitualmente',
      'prodotti simili', 'articoli simili', 'potrebbe (?:interessarti|piacerti) anche', 'spesso comprati insieme',
      'vergelijkbare (?:producten|artikelen)', 'anderen bekeken ook', 'produtos (?:semelhantes|similares|relacionados)',
      'quem viu,? (?:também )?viu', 'comprados juntos', 'podobne produkty', 'klienci kupili również', 'liknande produkter',
      'lignende produkter', 'andre kunder (?:kjøpte|købte) også', 'sarnased tooted', '[^\n]{0,40}huvitatud ka', 'похожие товары',
      'с этим товаром (?:покупают|смотрят)', '関連商品', 'この商品を(?:買った|見た)人は', '相关商品', '相關商品', '猜你喜欢', '為你推薦', '为你推荐',
    ].join('|') +
    String.raw`)`,
  'gimu',
);
const BOX_NEAR = 1_500; // characters after the title where an "unavailable" statement speaks for the buy box

/** The buy box window: from the title for up to `max` characters, cut at the first recommendation heading. */
export function buyBoxWindow(text: string, anchor: number, max: number): string {
  const window = text.slice(anchor, anchor + max);
  RECOMMENDATION_HEADING.lastIndex = 0;
  const m = RECOMMENDATION_HEADING.exec(window);
  return m && m.index > 0 ? window.slice(0, m.index) : window;
}

// A stock statement about something other than the product: store pickup, chat, an option, a delivery method.
const SIDE_SERVICE =
  /pick ?up|collect(?:ion)?|in-?store|store availability|chat|option|service|delivery to|warranty|abholung|abholen|im markt|in der filiale|retrait|en magasin|recogida|en tienda|ritiro|in negozio|afhalen|retirada|na loja|odbiór|i butik/i;

/** Statements in the window that speak about the product itself (not a pickup desk, chat or delivery option). */
export function productStatements(window: string): StockStatement[] {
  return stockStatements(window).filter((s) => !SIDE_SERVICE.test(lineAround(window, s.index)));
}

/**
 * The stock status of the buy box: an "unavailable" statement close to the title decides; otherwise all statements
 * about the product must agree (textAvailability's rules), else null.
 */
export function buyBoxAvailability(window: string, agree: (statuses: Set<string>) => string | null): string | null {
  const said = productStatements(window);
  // A line that says both ("to avoid out-of-stock waits, ask whether it is in stock") is a policy note, not a status.
  const near = said.find(
    (s) => s.index < BOX_NEAR && availabilityKind(s.status) === 'unavailable' && !said.some((o) => o !== s && sameLine(window, o.index, s.index) && availabilityKind(o.status) !== 'unavailable'),
  );
  if (near) return near.status;
  return said.length === 0 ? null : agree(new Set(said.map((s) => s.status)));
}

function sameLine(text: string, a: number, b: number): boolean {
  const [from, to] = a < b ? [a, b] : [b, a];
  return !text.slice(from, to).includes('\n');
}

function lineAround(text: string, at: number): string {
  const start = text.lastIndexOf('\n', at) + 1;
  const end = text.indexOf('\n', at);
  return text.slice(start, end < 0 ? undefined : end).slice(0, 300);
}
