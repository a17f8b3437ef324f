// Where the product pages are (design/checks.md §2 "PDP discovery order") and which platform runs the store.
// Pure functions over already-parsed pages; gather.ts decides what to fetch. Also the politeness filter: the
// scanner never requests cart, checkout or account paths (§1.6).
import type { Artifacts, Entity, EntityValue, PageFacts } from './artifacts.js';

export type Platform = Artifacts['platform'];

// §2: /products?/, /p/, /item(s)?/, /dp/ followed by a slug; -p-<digits>; <digits>.html. Matched on the path only.
const PDP_SEGMENT = /\/(?:products?|p|items?|dp)\/[^/?#]+/i;
const PDP_SUFFIX = /-p-\d+(?:[/.]|$)|\d+\.html?$/i;

/** Does the URL's path look like a product detail page? */
export function looksLikeProductUrl(url: string | URL): boolean {
  const path = pathOf(url);
  if (path === null) return false;
  return PDP_SEGMENT.test(path) || PDP_SUFFIX.test(path);
}

// Any path segment naming a cart, checkout or account area, e.g. /cart, /en/cart/add, /checkouts/c/1, /my-account.
const FORBIDDEN_SEGMENT = /^(?:cart|carts|basket|checkout|checkouts|account|accounts|my-account|myaccount|customer|customers|login|signin|sign-in|register|orders?)(?:\.[a-z]+)?$/i;

/** §1.6: true for URLs the scanner must never request (cart, checkout, account and login areas). */
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
 * Product page candidates from the homepage, in §2 order: JSON-LD Product / ItemList URLs first, then <a href>
 * links whose path matches the PDP patterns. Same store only, no cart/checkout/account paths, no fragments,
 * never the homepage itself.
 */
export function productUrlsFromHome(home: PageFacts, storeUrl: URL): string[] {
  const homeUrl = safeUrl(home.url) ?? storeUrl;
  const fromMarkup: string[] = [];
  for (const entity of home.entities) collectEntityUrls(entity, fromMarkup, 0);
  const fromLinks = home.links.filter((l) => l.url !== null && looksLikeProductUrl(l.url)).map((l) => l.url as string);
  return cleanCandidates([...fromMarkup, ...fromLinks], homeUrl, storeUrl);
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
  for (const raw of urls) {
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
 * §8 `platform`, from the homepage's raw HTML and headers: the platforms' own asset hosts, globals, headers and
 * class names. The first match in the order shopify, woocommerce, bigcommerce, magento wins.
 */
export function detectPlatform(html: string, headers: Record<string, string>): Platform {
  const h = (name: string) => headers[name] ?? '';
  // Limit the search to the head and the first part of the body: the markers sit in asset URLs and globals.
  const text = html.length > 600_000 ? html.slice(0, 600_000) : html;
  if (h('x-shopid') || h('x-shopify-stage') || /shopify/i.test(h('powered-by')) || /cdn\.shopify\.com|Shopify\.theme|myshopify\.com/.test(text)) {
    return 'shopify';
  }
  if (/wp-content\/plugins\/woocommerce|\bwoocommerce\b/i.test(text) || /woocommerce/i.test(h('link'))) return 'woocommerce';
  if (/cdn\d*\.bigcommerce\.com|\/stencil\/|stencil-utils|data-stencil|stencilBootstrap|BCData/.test(text)) return 'bigcommerce';
  if (/["'/]mage\/|Magento_|x-magento-init/.test(text) || h('x-magento-cache-debug') || h('x-magento-tags')) return 'magento';
  return 'other';
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
