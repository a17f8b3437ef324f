// The plan of a deep audit: which product pages to read. robots.txt first (its rules for the scanner's token and
// its Crawl-delay), then the store's sitemaps (those robots.txt declares, else /sitemap.xml; indexes followed), and
// only when they list no product page, the product links of its homepage. What robots.txt or the politeness filter
// forbids is dropped; more pages than asked are sampled evenly along the list. Every request here is made while the
// plan holds the host's turn, spaced by the host's delay like the pages that follow.
import type { Resource } from '../../outbound/resource.js';
import type { RobotsInfo } from '../../scan/artifacts.js';
import { parseRobots, SCANNER_TOKEN } from '../../scan/documents/robots.js';
import { MAX_SITEMAP_INDEX_DEPTH, sameHostUrls } from '../../scan/documents/sitemap.js';
import { isForbiddenPath, productUrlsFromHome, productUrlsFromSitemap } from '../../scan/documents/discover.js';
import type { BodyReader } from '../../scan/parser-threads/page-pool.js';
import type { FetchOptions } from '../../outbound/fetch.js';

/** Sitemap documents one plan reads at most, and product URLs it keeps (the sample is drawn from these). */
export const MAX_SITEMAPS = 50;
export const MAX_FOUND = 100_000;

export interface PlanSteps {
  /** One request, made in the host's turn; redirects of robots.txt and sitemaps are followed (a few hops). */
  fetch(url: string, opts: FetchOptions): Promise<Resource>;
  /** Waits the host's delay before the next request (and keeps the turn's lease alive). */
  pause(delayMs: number): Promise<void>;
  read: BodyReader;
}

export interface AuditPlan {
  /** Product URLs found (robots-allowed, deduplicated), before sampling; at most MAX_FOUND. */
  found: number;
  urls: string[];
  /** Spacing between two requests to the store: the minimum, or its Crawl-delay for our token when longer. */
  delayMs: number;
  robots: RobotsInfo;
}

/**
 * `count` items of `list` spread evenly along it, in list order: one drawn at random from each of `count` equal
 * stretches (stratified sampling). A fixed step would alias with a catalog listed in a repeating order (every tenth
 * URL of a list cycling through four templates sees two of them); a draw per stretch does not, and the sample stays
 * a random one for the interval. `seed` makes the draw repeatable (the audit's id).
 */
export function evenSample<T>(list: readonly T[], count: number, seed: string): T[] {
  if (list.length <= count) return [...list];
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const from = Math.floor((i * list.length) / count);
    const to = Math.floor(((i + 1) * list.length) / count);
    return list[from + Math.floor(random() * (to - from))];
  });
}

/** mulberry32, seeded from the string: a small repeatable generator (not for secrets). */
function seededRandom(seed: string): () => number {
  let a = 0;
  for (let i = 0; i < seed.length; i++) a = Math.imul(a ^ seed.charCodeAt(i), 0x5bd1e995) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), a | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const body = (r: Resource): string => (r.ok ? r.res.body : r.reason === 'too-large' ? (r.res?.body ?? '') : '');

export async function planAudit(root: URL, minDelayMs: number, maxPages: number, steps: PlanSteps, seed: string): Promise<AuditPlan> {
  const robotsResource = await steps.fetch(new URL('/robots.txt', root).href, { kind: 'text', accept: 'text/plain,*/*;q=0.5' });
  const robots = parseRobots(robotsResource);
  const delayMs = Math.max(minDelayMs, Math.round((robots.crawlDelay(SCANNER_TOKEN) ?? 0) * 1000));
  const allowed = (url: string) => !isForbiddenPath(url) && robots.isAllowed(SCANNER_TOKEN, url);

  const found = new Set<string>();
  const declared = sameHostUrls(robots.sitemaps, root).filter(allowed);
  const queue: { url: string; depth: number }[] = (declared.length > 0 ? declared : [new URL('/sitemap.xml', root).href]).map((url) => ({ url, depth: 1 }));
  const asked = new Set(queue.map((q) => q.url));
  for (let read = 0; queue.length > 0 && read < MAX_SITEMAPS && found.size < MAX_FOUND; read++) {
    const next = queue.shift()!;
    await steps.pause(delayMs);
    const doc = await steps.read({ kind: 'sitemap', xml: body(await steps.fetch(next.url, { kind: 'sitemap' })) });
    const locs = sameHostUrls(doc.locs, root);
    if (doc.kind === 'sitemapindex' && next.depth < MAX_SITEMAP_INDEX_DEPTH) {
      for (const child of locs.filter((u) => allowed(u) && !asked.has(u))) {
        asked.add(child);
        queue.push({ url: child, depth: next.depth + 1 });
      }
    } else if (doc.kind === 'urlset') {
      for (const url of productUrlsFromSitemap(locs, next.url)) if (allowed(url) && found.size < MAX_FOUND) found.add(url);
    }
  }
  if (found.size === 0) {
    await steps.pause(delayMs);
    const home = await steps.fetch(root.href, { kind: 'html' });
    if (home.ok) {
      const { page } = await steps.read({ kind: 'page', html: home.res.body, url: home.res.url, opts: { status: home.res.status }, recognise: false });
      for (const url of productUrlsFromHome(page, root)) if (allowed(url)) found.add(url);
    }
  }
  const list = [...found];
  return { found: list.length, urls: evenSample(list, maxPages, seed), delayMs, robots };
}
