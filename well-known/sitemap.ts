// GET /sitemap.xml (sitemaps.org 0.9): the home page, the readiness index (whole and per category with stores) and
// the latest report of every listed store. The store leaves delisted hosts out, and nothing is cached in the
// process, so a delisted report disappears from the next answer. Past 50,000 URLs /sitemap.xml becomes a sitemap
// index of /sitemap-{n}.xml files of at most 50,000 URLs each.
import { Router, type RequestHandler } from 'express';
import { VERTICALS } from '../schemas/params.js';
import type { Repository } from '../db/repo.js';
import type { Config } from '../lib/config.js';
import { methodNotAllowed } from '../http/method-not-allowed.js';

export const SITEMAP_PATH = '/sitemap.xml';
/** sitemaps.org: at most 50,000 URLs (and 50 MB) per file; our URLs are short, so the count is the limit. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_CACHE_CONTROL = 'public, max-age=300'; // as long as a report page is cached
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export const sitemapChildPath = (n: number): string => `/sitemap-${n}.xml`;

interface Entry {
  loc: string;
  lastmod?: Date;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xml = (value: string): string => value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
/** W3C Datetime, to the second. */
const w3cDate = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

function urlset(entries: Entry[]): string {
  const urls = entries.map((e) => `<url><loc>${xml(e.loc)}</loc>${e.lastmod ? `<lastmod>${w3cDate(e.lastmod)}</lastmod>` : ''}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n${urls.join('\n')}\n</urlset>\n`;
}

function sitemapIndex(locs: string[]): string {
  const items = locs.map((loc) => `<sitemap><loc>${xml(loc)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">\n${items.join('\n')}\n</sitemapindex>\n`;
}

/** The pages that are not reports: home, the whole index, and each category's index once it has a store. */
async function pageEntries(db: Repository, baseUrl: string): Promise<Entry[]> {
  const counts = await Promise.all(VERTICALS.map((v) => db.countStores(v)));
  return [
    { loc: `${baseUrl}/` },
    { loc: `${baseUrl}/index` },
    ...VERTICALS.filter((_, i) => counts[i] > 0).map((v) => ({ loc: `${baseUrl}/index?vertical=${encodeURIComponent(v)}` })),
  ];
}

/** Entries [start, end) of the whole list: the pages first, then one report per listed store in index order. */
async function entriesBetween(db: Repository, baseUrl: string, pages: Entry[], start: number, end: number): Promise<Entry[]> {
  const fromPages = pages.slice(start, end);
  const limit = end - start - fromPages.length;
  const rows = limit > 0 ? await db.topStores({ limit, offset: Math.max(0, start - pages.length) }) : [];
  return [...fromPages, ...rows.map((r) => ({ loc: `${baseUrl}/r/${r.scanId}`, lastmod: r.updatedAt }))];
}

/**
 * The XML of /sitemap.xml (page null) or of /sitemap-{page}.xml; null when that file does not exist (children
 * exist only once the URLs no longer fit one file).
 */
export async function renderSitemap(db: Repository, baseUrl: string, page: number | null, maxUrls = SITEMAP_MAX_URLS): Promise<string | null> {
  const pages = await pageEntries(db, baseUrl);
  const total = pages.length + (await db.countStores(null));
  const files = Math.ceil(total / maxUrls);
  if (page === null) {
    if (files <= 1) return urlset(await entriesBetween(db, baseUrl, pages, 0, total));
    return sitemapIndex(Array.from({ length: files }, (_, i) => `${baseUrl}${sitemapChildPath(i + 1)}`));
  }
  if (files <= 1 || page > files) return null;
  return urlset(await entriesBetween(db, baseUrl, pages, (page - 1) * maxUrls, Math.min(total, page * maxUrls)));
}

export function sitemapRouter(deps: { config: Config; db: Repository }): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const send = (page: (p: string | undefined) => number | null | undefined): RequestHandler =>
    async (req, res, next) => {
      const n = page(req.params.page as string | undefined);
      const body = n === undefined ? null : await renderSitemap(deps.db, deps.config.BASE_URL, n);
      if (body === null) return next(); // the app's 404 page
      res.setHeader('Content-Type', 'application/xml; charset=utf-8');
      res.setHeader('Cache-Control', SITEMAP_CACHE_CONTROL);
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.send(body);
    };
  router.get(SITEMAP_PATH, send(() => null));
  router.all(SITEMAP_PATH, methodNotAllowed(['GET']));
  // "/sitemap-2.xml": a positive integer only; anything else falls through to the 404 page.
  router.get('/sitemap-:page.xml', send((p) => (p !== undefined && /^[1-9][0-9]{0,5}$/.test(p) ? Number(p) : undefined)));
  return router;
}
