// Where the product pages are (docs/checks.md §2 "PDP discovery order") and which platform runs the store.
// Pure functions over already-parsed pages; gather.ts decides what to fetch. Also the politeness filter: the
// scanner never requests cart, checkout or account paths (docs/checks.md §1, rule 6).
import type { Artifacts, Entity, EntityValue, PageFacts } from '../artifacts.js';

export type Platform = Artifacts['platform'];

// docs/checks.md §2: /products?/, /p/, /item(s)?/, /dp/ followed by a slug; -p-<digits>; <digits>.html. Widened with
// the other common shop conventions: eBay /itm/, /prod/, /pd/, /goods/, /deal/, /product_info, "p4781720" segments,
// long numeric ids ending a slug, and product-id query parameters. Matched on the path and query only.
const PDP_SEGMENT = /\/(?:products?|p|items?|dp|itm|prod|pd|goods|deal|detail|product[-_]?detail|product_info(?:\.php)?|sku|listing)\/[^/?#]+/i;
const PDP_SUFFIX = /-p-\d+(?:[/.]|$)|\d+\.html?$|\/p\d{4,}\/?$|[-_x]\d{6,}(?:\.(?:html?|php|aspx?))?\/?$|[-_]P\d{5,}C\d+$/i;
const PDP_QUERY = /[?&](?:pid|product_?id|productid|products_id|id_product|sku|item_?id)=[\w-]+|[?&]route=product\/product\b|[?&]page=product\b/i;

/** Does the URL's path (or query) look like a product detail page? */
export function looksLikeProductUrl(url: string | URL): boolean {
  const u = typeof url === 'string' ? safeUrl(url) : url;
  if (u === null) return false;
  return PDP_SEGMENT.test(u.pathname) || PDP_SUFFIX.test(u.pathname) || PDP_QUERY.test(u.search);
}

// Any path segment naming a cart, checkout or account area, e.g. /cart, /en/cart/add, /checkouts/c/1, /my-account.
const FORBIDDEN_SEGMENT = /^(?:cart|carts|basket|checkout|checkouts|account|accounts|my-account|myaccount|customer|customers|login|signin|sign-in|register|orders?)(?:\.[a-z]+)?$/i;

/** Politeness (docs/checks.md §1): true for URLs the scanner must never request (cart, checkout, account, login). */
export function isForbiddenPath(url: string | URL): boolean {
  const path = pathOf(url);
  if (path === null) return true;
  for (const segment of path.split('/')) {
    if (segment !== '' && FORBIDDEN_SEGMENT.test(safeDecode(segment))) return true;
  }
  // WooCommerce-style purchase actions in the query string.
  const query = typeof url === 'string' ? safeUrl(url)?.search ?? '' : url.search;
  return /[?&](?:add-to-cart|add_to_cart)=/i.test(query);
}

/** Same store: same host (a leading "www." ignored on either side) and port; http and https both count. */
export function sameStore(a: URL, b: URL): boolean {
  return bareHost(a.hostname) === bareHost(b.hostname) && a.port === b.port; // port '' = the scheme's default
}

/**
 * The page's link URLs, each once, in page order: a large page repeats the same few links thousands of times
 * (cards, menus), and every URL read costs a parse.
 */
function linkUrls(page: PageFacts): string[] {
  const urls = new Set<string>();
  for (const l of page.links) if (l.url !== null) urls.add(l.url);
  return [...urls];
}

/**
 * Product page candidates from the homepage, in the order of docs/checks.md §2: JSON-LD Product / ItemList URLs first,
 * then <a href> links whose path matches the PDP patterns. Same store only, no cart/checkout/account paths, no
 * fragments, never the homepage itself.
 */
export function productUrlsFromHome(home: PageFacts, storeUrl: URL): string[] {
  const homeUrl = safeUrl(home.url) ?? storeUrl;
  const fromMarkup: string[] = [];
  for (const entity of home.entities) collectEntityUrls(entity, fromMarkup, 0);
  const fromLinks = linkUrls(home).filter((url) => looksLikeProductUrl(url));
  return cleanCandidates([...fromMarkup, ...fromLinks], homeUrl, storeUrl);
}

// Links that lead to site furniture rather than a product: help, legal, editorial and listing pages.
const NOT_A_PRODUCT = /^(?:about|about-us|contact|contact-us|help|faq|faqs|support|terms|tos|legal|privacy|privacy-policy|cookies?|imprint|impressum|shipping|delivery|returns?|refunds?|blog|news|press|careers?|jobs|stores?|store-locator|sitemap|search|categories|category|collections?|brands?|sale|gift-cards?|wishlist|compare|newsletter|pages|policies|tag|tags|author|wp-admin|wp-login\.php|feed)$/i;

/**
 * When no homepage link looks like a product's: the other same-store links, most product-like first (deeper
 * paths, longer slugs, ids), without site furniture. Only a few are worth a request.
 */
export function otherLinksFromHome(home: PageFacts, storeUrl: URL, max = 3): string[] {
  const homeUrl = safeUrl(home.url) ?? storeUrl;
  const urls = cleanCandidates(linkUrls(home), homeUrl, storeUrl);
  const scored: { url: string; score: number }[] = [];
  for (const url of urls) {
    const u = safeUrl(url);
    if (!u || u.search.length > 200) continue;
    const segments = u.pathname.split('/').filter((x) => x !== '');
    if (segments.length === 0 || segments.some((x) => NOT_A_PRODUCT.test(safeDecode(x)))) continue;
    if (/\.(?:jpe?g|png|gif|webp|svg|pdf|zip|xml|txt|css|js)$/i.test(u.pathname)) continue;
    const last = safeDecode(segments[segments.length - 1]);
    const score = Math.min(segments.length, 4) + Math.min((last.match(/[-_]/g) ?? []).length, 6) + (/\d{3,}/.test(u.pathname + u.search) ? 3 : 0);
    scored.push({ url, score });
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, max)
    .map((s) => s.url);
}

/** Product URLs of a sitemap: those matching the PDP patterns; in a product sitemap every page entry counts. */
export function productUrlsFromSitemap(pageUrls: readonly string[], sitemapUrl: string | null): string[] {
  const matching = pageUrls.filter((u) => looksLikeProductUrl(u) && !isForbiddenPath(u));
  if (matching.length > 0 || !sitemapUrl || !/product/i.test(pathOf(sitemapUrl) ?? '')) return matching;
  return pageUrls.filter((u) => !isForbiddenPath(u) && (pathOf(u) ?? '/') !== '/');
}

/**
 * Absolute, same-store, allowed, de-duplicated (fragment dropped), homepage excluded; order kept. "Same store" is
 * the URL as typed or `base`, the homepage's final URL (apex → shop subdomain redirects).
 */
export function cleanCandidates(urls: readonly string[], base: URL, storeUrl: URL): string[] {
  const out: string[] = [];
  const seen = new Set<string>([stripHash(base.href), stripHash(storeUrl.href)]);
  const tried = new Set<string>(); // the same string gives the same URL: parsed once
  for (const raw of urls) {
    if (tried.has(raw)) continue;
    tried.add(raw);
    let u: URL;
    try {
      u = new URL(raw, base);
    } catch {
      continue;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') continue;
    if (u.username || u.password) continue;
    if (!sameStore(u, storeUrl) && !sameStore(u, base)) continue;
    if (isForbiddenPath(u)) continue;
    u.hash = '';
    if (seen.has(u.href)) continue;
    seen.add(u.href);
    out.push(u.href);
  }
  return out;
}

const MAX_ENTITY_DEPTH = 8;

// Product.url / offers.url, ItemList.itemListElement[].url | .item(.url), and nested ListItem nodes.
function collectEntityUrls(entity: Entity, out: string[], depth: number): void {
  if (depth > MAX_ENTITY_DEPTH || out.length > 200) return;
  const isProduct = entity.types.some((t) => t === 'Product' || t === 'ProductGroup' || t === 'IndividualProduct');
  const isList = entity.types.some((t) => t === 'ItemList' || t === 'ListItem' || t === 'OfferCatalog');
  if (isProduct) {
    for (const v of entity.props.url ?? []) if (typeof v === 'string') out.push(v);
    return;
  }
  if (!isList) return;
  for (const key of ['itemListElement', 'item']) {
    for (const v of entity.props[key] ?? []) collectValue(v, out, depth + 1);
  }
  if (entity.types.includes('ListItem')) {
    for (const v of entity.props.url ?? []) if (typeof v === 'string') out.push(v);
  }
}

function collectValue(v: EntityValue, out: string[], depth: number): void {
  if (typeof v === 'string') out.push(v);
  else collectEntityUrls(v, out, depth);
}

/**
 * The `platform` flag (docs/checks.md §8), from the homepage's headers and the technical parts of its HTML: tags with
 * their attributes and inline scripts, never the visible text (a page that talks about WooCommerce does not run on it).
 * The first match in the order shopify, woocommerce, bigcommerce, magento wins.
 */
export function detectPlatform(html: string, headers: Record<string, string>): Platform {
  const h = (name: string) => headers[name] ?? '';
  const code = technicalParts(html.length > 600_000 ? html.slice(0, 600_000) : html);
  if (h('x-shopid') || h('x-shopify-stage') || /shopify/i.test(h('powered-by')) || SHOPIFY.test(code)) return 'shopify';
  if (WOOCOMMERCE.test(code) || /woocommerce|\/wc\/store/i.test(h('link'))) return 'woocommerce';
  if (BIGCOMMERCE.test(code)) return 'bigcommerce';
  if (MAGENTO.test(code) || h('x-magento-cache-debug') || h('x-magento-tags')) return 'magento';
  return 'other';
}

// Asset hosts and paths in attributes, platform globals in scripts, template class names.
const SHOPIFY = /(?:src|href|content)=["'][^"']*(?:cdn\.shopify\.com|\.myshopify\.com)|\bShopify\.(?:theme|shop|routes)\b|ShopifyAnalytics/;
const WOOCOMMERCE = /(?:src|href)=["'][^"']*\/wp-content\/plugins\/woocommerce\/|\bclass=["'][^"']*\bwoocommerce(?:-page)?\b|\b(?:woocommerce_params|wc_add_to_cart_params|wc_cart_fragments_params)\b|content=["']WooCommerce\b/i;
const BIGCOMMERCE = /cdn\d*\.bigcommerce\.com|\/stencil\/|stencil-utils|data-stencil|stencilBootstrap|\bBCData\b/;
const MAGENTO = /["'/]mage\/|Magento_|x-magento-init/;

/** The tags (with attributes) and inline script bodies of a page, without its text: linear, one pass. */
export function technicalParts(html: string): string {
  const out: string[] = [];
  const lower = html.toLowerCase();
  let i = html.indexOf('<');
  while (i >= 0 && i < html.length) {
    const end = html.indexOf('>', i);
    if (end < 0) break;
    const tag = html.slice(i, end + 1);
    out.push(tag);
    let next = end + 1;
    if (/^<script\b/i.test(tag)) {
      const close = lower.indexOf('</script', next);
      const stop = close < 0 ? html.length : close;
      out.push(html.slice(next, stop));
      next = stop;
    }
    i = html.indexOf('<', next);
  }
  return out.join('\n');
}

function pathOf(url: string | URL): string | null {
  const u = typeof url === 'string' ? safeUrl(url) : url;
  return u ? u.pathname : null;
}

function safeUrl(s: string): URL | null {
  try {
    return new URL(s);
  } catch {
    return null;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function stripHash(href: string): string {
  const i = href.indexOf('#');
  return i < 0 ? href : href.slice(0, i);
}

function bareHost(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h.startsWith('www.') ? h.slice(4) : h;
}
