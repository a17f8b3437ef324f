// The buy box: the stretch of visible text from the product title to the first recommendation block ("Customers
// also viewed", "Ähnliche Artikel", …), and for its price the few lines above the title when none follows it. The
// price and the stock status of the product are read there only; stock wording that is about a side service (store
// pickup, chat, a delivery option, a picture) does not say whether the product can be bought, and "Currently
// unavailable" next to the title outranks "In stock" further down. Pure functions; every regex is linear and runs on
// capped text.
import { stockStatements, type StockStatement } from './availability.js';
import { availabilityKind } from './availability.js';
import { priceMentions, type SellingPrice } from './price.js';

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
      'related ads', 'similar ads', 'more ads (?:from|by) this (?:seller|user)', 'other ads', 'all variants', 'other variants',
      'other sellers on', 'more buying choices', 'compare prices from',
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

const BEFORE_TITLE = 400; // characters before the title where a buy box printed above it may show the price

/**
 * The price of a buy box printed above the title ("Rs 23,450" over the heading of a classified ad, a price column
 * laid out before the heading): the last selling price in the few lines before the title, after any recommendation
 * heading there. For pages whose text after the title shows no price.
 */
export function priceBeforeTitle(text: string, anchor: number, signals: ReadonlySet<string>): SellingPrice | null {
  if (anchor <= 0) return null;
  let region = text.slice(Math.max(0, anchor - BEFORE_TITLE), anchor);
  RECOMMENDATION_HEADING.lastIndex = 0;
  for (let m = RECOMMENDATION_HEADING.exec(region); m !== null; m = RECOMMENDATION_HEADING.exec(region)) {
    region = region.slice(m.index + m[0].length);
    RECOMMENDATION_HEADING.lastIndex = 0;
  }
  const last = priceMentions(region, signals).filter((m) => m.role === 'selling').at(-1);
  return last ? { value: last.value, text: last.text, currency: last.currency } : null;
}

// A stock statement about something other than the product: store pickup, chat, an option, a delivery method, a
// picture of it ("Image unavailable", "Immagine non disponibile"), or a shop's shelf ("w sklepie: niedostępny").
const SIDE_SERVICE =
  /pick ?up|collect(?:ion)?|in-?store|store availability|chat|option|service|delivery to|warranty|abholung|abholen|im markt|in der filiale|retrait|en magasin|recogida|en tienda|ritiro|in negozio|afhalen|retirada|na loja|odbiór|i butik|w sklepie|v prodejně|v predajni|in winkel|image|picture|photo|video|bild|immagine|imagen|imagem|zdjęcie|obrázek|obrázok/i;

// A delivery method named on the line of an "unavailable" statement: "Express delivery unavailable" says the method
// cannot be chosen, not that the product cannot be bought. Delivery estimates ("delivery in 3 days") still count.
const DELIVERY_METHOD =
  /deliver|shipping|postage|courier|versand|lieferung|zustellung|livraison|envío|envio|spedizione|consegna|verzending|bezorging|levering|entrega|dostawa|wysyłka|frakt|leverans|配送|配達|運送|运送/i;

/** Is this line of the page about another item or variant (see asideLines)? */
export type AsideTest = (line: string) => boolean;

/**
 * Lines of the page's text that belong to blocks about other items or variants (the options of a select, swatches,
 * recommendation blocks): a line counts as aside only while the aside blocks hold it at least as often as the whole
 * text does, so a "Sold out" printed by the buy box as well as by a related card still speaks for the buy box.
 */
export function asideLines(text: string, asideTexts: readonly string[]): AsideTest {
  if (asideTexts.length === 0) return () => false;
  const lineCounts = new Map<string, number>();
  for (const line of text.slice(0, 300_000).split('\n')) {
    const key = line.trim();
    if (key !== '' && key.length <= 300) lineCounts.set(key, (lineCounts.get(key) ?? 0) + 1);
  }
  return (line) => {
    const key = line.trim();
    let inAside = 0;
    for (const aside of asideTexts) inAside += occurrences(aside, key);
    return inAside > 0 && inAside >= (lineCounts.get(key) ?? 1);
  };
}

function occurrences(text: string, part: string): number {
  if (part === '') return 0;
  let n = 0;
  for (let at = text.indexOf(part); at >= 0 && n < 1_000; at = text.indexOf(part, at + part.length)) n++;
  return n;
}

/**
 * Statements in the window that speak about the product itself: not a pickup desk, chat or delivery option, not a
 * variant, swatch or recommended item.
 */
export function productStatements(window: string, isAside: AsideTest = () => false): StockStatement[] {
  return stockStatements(window).filter((s) => {
    const line = lineAround(window, s.index);
    if (SIDE_SERVICE.test(line) || isAside(line)) return false;
    return !(availabilityKind(s.status) === 'unavailable' && DELIVERY_METHOD.test(line));
  });
}

/**
 * The stock status of the buy box: an "unavailable" statement close to the title decides; otherwise all statements
 * about the product must agree (textAvailability's rules), else null.
 */
export function buyBoxAvailability(window: string, agree: (statuses: Set<string>) => string | null, isAside?: AsideTest): string | null {
  const said = productStatements(window, isAside);
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
