// Is this a product detail page, the way a shopping agent would judge it? Product markup or OpenGraph product tags
// settle it; without them, the page's own signals decide: a visible price or stock statement next to the title, a
// purchase control, a product URL, and the template hints shop platforms leave in class names and page-type
// variables. Visible prose never counts as a platform hint. Pure: PageFacts in, a verdict and its reasons out.
import type { Entity, PageFacts } from '../artifacts.js';
import { stockStatements, type StockStatement } from './availability.js';
import { looksLikeProductUrl } from '../documents/discover.js';
import { currencySignals, elementPrice, impliedCurrency, sellingPrice } from './price.js';
import { priceBeforeTitle } from './buy-box.js';
import { hasType } from '../documents/structured-data/index.js';

export const PRODUCT_TYPES: ReadonlySet<string> = new Set([
  'Product', 'ProductGroup', 'ProductModel', 'IndividualProduct', 'SomeProducts', 'Vehicle', 'Car', 'Motorcycle',
  'MotorizedBicycle', 'BusOrCoach', 'DietarySupplement',
]);
// Not Product subtypes, but sold like products: they count when they carry an offer.
export const OFFERED_TYPES: ReadonlySet<string> = new Set(['Book', 'Game', 'MusicAlbum', 'Movie', 'SoftwareApplication', 'VideoGame']);
// The main entity of an editorial page; a product page may link articles but is not one.
const ARTICLE_TYPES: ReadonlySet<string> = new Set([
  'Article', 'NewsArticle', 'BlogPosting', 'Report', 'ScholarlyArticle', 'TechArticle', 'Recipe', 'LiveBlogPosting',
  'AnalysisNewsArticle', 'OpinionNewsArticle', 'ReviewNewsArticle', 'SocialMediaPosting', 'DiscussionForumPosting',
]);

export const TITLE_WINDOW = 6_000; // characters of visible text after the product title searched for price and stock

export type RecognitionSignal =
  | 'product-markup'
  | 'opengraph-product'
  | 'template-hint'
  | 'product-url'
  | 'price-near-title'
  | 'stock-near-title'
  | 'purchase-control'
  | 'editorial-page';

export interface Recognition {
  isProduct: boolean;
  byMarkup: boolean; // Product markup or OpenGraph product tags
  signals: RecognitionSignal[];
  titleAt: number; // where the product title starts in the visible text, or -1
}

/** docs/checks.md §2, widened to pages without markup: see the file header. */
export function recognizeProductPage(page: PageFacts): Recognition {
  const signals: RecognitionSignal[] = [];
  const markup = page.entities.some(isProductEntity);
  if (markup) signals.push('product-markup');
  const og = ogProduct(page.meta) || metaPrice(page.meta) !== null;
  if (og) signals.push('opengraph-product');
  const titleAt = titleIndex(page);
  if (markup || og) return { isProduct: true, byMarkup: true, signals, titleAt };

  const hint = templateHint(page);
  if (hint) signals.push('template-hint');
  if ([page.url, page.canonical, ...(page.meta['og:url'] ?? [])].some((u) => u && looksLikeProductUrl(u))) signals.push('product-url');
  const window = titleAt >= 0 ? page.visibleText.slice(titleAt, titleAt + TITLE_WINDOW) : '';
  const currencies = currencySignals(page);
  // A currency-marked price by the title (after it, or just above it), or an amount in an element the page marks as
  // its price.
  const price =
    sellingPrice(window.slice(0, 2_000), currencies) !== null ||
    elementPrice(page.priceTexts ?? [], currencies, impliedCurrency(currencies)) !== null ||
    priceBeforeTitle(page.visibleText, titleAt, currencies) !== null;
  if (price) signals.push('price-near-title');
  // Any stock wording is a sign of a product page, even when statements disagree on the status ("No longer
  // available" by the title, "in stock" in a carousel below).
  const statements = stockStatements(window.slice(0, 2_000));
  const stock = statements.length > 0;
  if (stock) signals.push('stock-near-title');
  const buy = hasPurchaseControl(page);
  if (buy) signals.push('purchase-control');
  const editorial = isEditorial(page);
  if (editorial) signals.push('editorial-page');

  const url = signals.includes('product-url');
  const isProduct =
    titleAt >= 0 &&
    !(editorial && !hint) &&
    ((price && (buy || hint || url)) || (hint && (buy || stock)) || (buy && stock && url) || (price && statusLine(window, statements)));
  return { isProduct, byMarkup: false, signals, titleAt };
}

/**
 * A marketplace or classified listing shows no buy button: a price by the title and a status line of its own
 * ("Available", "This item has been sold") make it a listing. A stock word inside a sentence does not.
 */
function statusLine(window: string, statements: readonly StockStatement[]): boolean {
  return statements.some((s) => {
    const start = window.lastIndexOf('\n', s.index) + 1;
    const end = window.indexOf('\n', s.index);
    return window.slice(start, end < 0 ? undefined : end).trim().length <= 40;
  });
}

export function isProductEntity(e: Entity): boolean {
  return hasType(e, PRODUCT_TYPES) || (hasType(e, OFFERED_TYPES) && (e.props.offers ?? []).length > 0);
}

export function ogProduct(meta: Record<string, string[]>): boolean {
  return (meta['og:type'] ?? []).some((t) => /^(?:[\w-]+:)?product(?:\.item|\.group)?$/i.test(t.trim()));
}

export function metaPrice(meta: Record<string, string[]>): string | null {
  for (const k of ['product:price:amount', 'og:price:amount', 'product:sale_price:amount']) {
    for (const v of meta[k] ?? []) if (v.trim() !== '') return v.trim();
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Template hints: what shop platforms write into the page for their own scripts and styles, never visible text

// body/html class or id tokens of product templates: WooCommerce single-product, Shopify template-product, Magento
// catalog-product-view, PrestaShop id="product", OpenCart product-product-42, and the generic pdp/product-page names.
const PRODUCT_TEMPLATE_TOKEN =
  /^(?:single-product|product-template-default|template-product(?:[-.][\w-]+)?|catalog-product-view|product-product(?:-\d+)?|page-product|page-type-product|product-page|productpage|product-details?(?:-page)?|productdetails?|product-view|pdp|page-pdp|pdp-page|product)$/;
// A page-type variable in an inline script: Shopify "pageType":"product", BigCommerce page_type: 'product' …
const PAGE_TYPE_PRODUCT = /(?:page_?type|pagetype)["']?\s*[:=]\s*["'](?:product|pdp|product[-_ ]?detail|productdetail)["']/i;

function templateHint(page: PageFacts): boolean {
  return page.templateTokens.some((t) => PRODUCT_TEMPLATE_TOKEN.test(t)) || page.scriptHints.some((h) => PAGE_TYPE_PRODUCT.test(h));
}

function isEditorial(page: PageFacts): boolean {
  if (page.entities.some((e) => hasType(e, ARTICLE_TYPES))) return true;
  return (page.meta['og:type'] ?? []).some((t) => /^article$/i.test(t.trim()));
}

// ---------------------------------------------------------------------------------------------------------------
// Purchase controls

// Add-to-cart and buy texts in store languages (button, submit or link text).
const BUY_TEXT = /^(?:add to (?:cart|basket|bag|trolley)|add to shopping (?:cart|bag)|buy now|buy it now|order now|add to order|in den warenkorb|in den einkaufswagen|jetzt kaufen|ajouter au panier|acheter|aggiungi al carrello|acquista(?: ora)?|añadir al carrito|añadir a la cesta|agregar al carrito|comprar(?: ahora)?|adicionar ao carrinho|adicionar à sacola|in winkelwagen|in winkelmand|toevoegen aan winkelwagen|lägg i varukorgen?|köp|læg i kurv(?:en)?|køb|legg i handlekurv(?:en)?|dodaj do koszyka|do koszyka|kup teraz|dodaj v košarico|naroči|do košíka|vložiť do košíka|přidat do košíku|kosárba|lisa ostukorvi|ostukorvi|lisää ostoskoriin|в корзину|купить|sepete ekle|加入購物車|加入购物车|立即購買|立即购买|カートに入れる|今すぐ購入|장바구니 담기|구매하기|أضف إلى السلة)(?![\p{L}\d])/iu;
const CART_ACTION = /cart|basket|bag|checkout|buy|koszyk|warenkorb|panier|carrello|carrito|winkelwagen|kosik|korb/i;
const PRODUCT_ID_INPUT = /^(?:product[-_]?id|productid|variant[-_]?id|id_product|add-to-cart|asin|sku|item[-_]?id|pid|product)$/i;

/** A buy button, a link or submit saying so, or a form posting a product id to a cart path. */
export function hasPurchaseControl(page: PageFacts): boolean {
  const short = (t: string): boolean => t.length <= 50 && BUY_TEXT.test(t.trim());
  return (
    page.buttons.some(short) ||
    page.links.some((l) => short(l.text)) ||
    page.forms.some(
      (f) =>
        f.action !== null &&
        CART_ACTION.test(pathOf(f.action)) &&
        (f.method === 'post' || f.inputs.some((i) => PRODUCT_ID_INPUT.test(i.name))),
    )
  );
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The title

// "Buy X | Category | Store": shop titles often open with the verb, which the page's heading does not repeat.
const TITLE_VERB = /^(?:buy|shop|order|kaufen|acheter|comprar|compra|acquista|koop|köp|kup)\s+/i;

/**
 * Where the page's product title (h1, else og:title, else <title> up to its first separator) starts, or -1. Spaces do
 * not count: a heading built from several elements ("VALLENTUNA" + "Sofa-bed module") reads without the line break
 * the visible text puts between them.
 */
export function titleIndex(page: PageFacts, name?: string | null): number {
  const title = page.title?.split(/\s[|–—-]\s|:\s/)[0];
  const candidates = [name, page.h1, ...(page.meta['og:title'] ?? []), title, title?.replace(TITLE_VERB, '')];
  const text = page.visibleText;
  let lower: string | null = null;
  let squeezed: Squeezed | null = null;
  for (const candidate of candidates) {
    const needle = candidate?.trim().slice(0, 120);
    if (!needle || needle.length < 3) continue;
    const i = text.indexOf(needle);
    if (i >= 0) return ownLine(text, needle, i);
    lower ??= text.toLowerCase();
    const j = lower.indexOf(needle.toLowerCase());
    if (j >= 0) return j;
    squeezed ??= squeeze(lower);
    const k = squeezed.text.indexOf(needle.toLowerCase().replace(/\s+/g, ''));
    if (k >= 0) return squeezed.at[k];
  }
  return -1;
}

/**
 * Of the title's places in the text, the first where it is a line of its own (the heading), else the first: a
 * description opening with the same words ("Suzuki Alto vxr 2010 , factory fitted …") comes before the heading on
 * some pages.
 */
function ownLine(text: string, needle: string, first: number): number {
  let at = first;
  for (let n = 0; at >= 0 && n < 50; n++, at = text.indexOf(needle, at + needle.length)) {
    const end = at + needle.length;
    if ((at === 0 || text[at - 1] === '\n') && (end === text.length || text[end] === '\n')) return at;
  }
  return first;
}

interface Squeezed {
  text: string; // the text without whitespace
  at: Int32Array; // where each of its characters is in the original
}

function squeeze(text: string): Squeezed {
  const at = new Int32Array(text.length);
  let out = '';
  let n = 0;
  for (const m of text.matchAll(/\S+/g)) {
    out += m[0];
    for (let i = 0; i < m[0].length; i++) at[n++] = (m.index ?? 0) + i;
  }
  return { text: out, at };
}
