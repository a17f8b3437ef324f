// The fetch plan of docs/checks.md §2 (R1–R15): every request a scan makes, started as soon as the URLs it
// needs are known (the "waves" are dependencies, not barriers), within the fetcher's request budget. Bodies are
// parsed once here (pages, products, robots, JSON documents, sitemaps) so checks stay pure. Politeness (§1 rule 6):
// the homepage and the well-known files are always fetched; product pages only where robots.txt lets our own
// token in; never a cart, checkout or account path; POST only for MCP initialize/tools/list.
import type { Artifacts, CatalogCard, McpProbe, PageFacts, Resource, RobotsInfo } from '../artifacts.js';
import { cleanCandidates, detectPlatform, isForbiddenPath, otherLinksFromHome, productUrlsFromHome, productUrlsFromSitemap } from '../documents/discover.js';
import type { Fetcher, FetchOptions } from '../../outbound/fetch.js';
import { hostIdentity } from '../../lib/hosts.js';
import { AI_CATALOG_PATH, CATALOG_ACCEPT, MCP_CATALOG_PATH, SERVER_CARD_ACCEPT, readCatalog, type CatalogKind } from '../documents/mcp-catalog.js';
import { cardUrlOf, findMcpEndpoint, onStoreSite, parseJsonLimited, probeMcp } from './mcp-probe.js';
import { readServerCardDoc } from '../documents/protocol-documents.js';
import { readInline, type BodyReader } from '../parser-threads/page-pool.js';
import type { PageRead } from '../parser-threads/page-work.js';
import { parseRobots, SCANNER_TOKEN } from '../documents/robots.js';
import { MAX_SITEMAP_INDEX_DEPTH, pickChildSitemap, sameHostUrls, type SitemapDoc } from '../documents/sitemap.js';
import { matrixNotRun, runAgentMatrix } from './agents-matrix.js';

export interface GatherOptions {
  baseUrl: string;
  /** The fetcher's request ceiling (SCAN_MAX_REQUESTS); used to plan optional requests. Default 20. */
  maxRequests?: number;
  /** Where HTML pages and sitemaps are parsed: the worker pool in a scan (scan/index.ts), in line by default. */
  read?: BodyReader;
  /** The agents matrix (a root scan): its own fetcher and cap, and whether the scan's requests are signed. */
  agents?: { fetcher: Fetcher; maxRequests: number; signed: boolean };
  /** R1 already fetched (scan/index.ts asks it first when it must choose between https and http). */
  home?: Resource;
}

const PDP_SAMPLE = 2;
const MAX_PDP_ATTEMPTS = 5; // candidates that turn out not to be product pages cost budget too
export const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';
const MARKDOWN_ACCEPT = 'text/markdown, text/html;q=0.5';

type Pdp = Artifacts['pdps'][number];

/** Requests still to come that matter more than the optional ones (R6b, sitemap fallback, extra PDP attempts). */
type Reservation = 'sitemap' | 'childSitemap' | 'pdps' | 'markdown' | 'mcp' | 'catalogCard';

/**
 * Requests issued so far against SCAN_MAX_REQUESTS, and the ones still held for later waves. A reservation is handed
 * over when its request goes out (not when the answer comes back), so a request in flight is never counted twice.
 */
class Budget {
  private issued = 0;
  private readonly reserved = new Map<Reservation, number>([
    ['sitemap', 1],
    ['childSitemap', 1],
    ['pdps', PDP_SAMPLE],
    ['markdown', 1],
    ['mcp', 2],
    ['catalogCard', 1],
  ]);
  constructor(
    private readonly max: number,
    private readonly fetcher: Fetcher,
  ) {}
  countIssued(): void {
    this.issued++;
  }
  release(key: Reservation, n = Infinity): void {
    const left = Math.max(0, (this.reserved.get(key) ?? 0) - n);
    this.reserved.set(key, left);
  }
  left(): number {
    return this.max - Math.max(this.issued, this.fetcher.requestsUsed);
  }
  /** May an optional request be sent without starving a reserved one? */
  canSpare(n = 1): boolean {
    let held = 0;
    for (const v of this.reserved.values()) held += v;
    return this.left() - held >= n;
  }
}

export async function gather(inputUrl: URL, fetcher: Fetcher, opts: GatherOptions): Promise<Artifacts> {
  const origin = inputUrl.origin;
  const at = (path: string) => new URL(path, origin).href;
  const budget = new Budget(opts.maxRequests ?? 20, fetcher);
  const read = opts.read ?? readInline;
  let x402 = false;

  const get = async (url: string, o: FetchOptions): Promise<Resource> => {
    budget.countIssued();
    let r: Resource;
    try {
      r = await fetcher.fetch(url, o);
    } catch (err) {
      r = { ok: false, reason: 'error', detail: `internal: ${(err as Error).message}`.slice(0, 200), url };
    }
    if (r.res && isX402(r.res)) x402 = true;
    return r;
  };

  // Wave 1 (R1–R8). Issue order = the fetcher's queue order: the requests that unlock wave 2 go first.
  const homeP = opts.home ? Promise.resolve(opts.home) : get(inputUrl.href, { kind: 'html', accept: HTML_ACCEPT });
  const robotsP = get(at('/robots.txt'), { kind: 'text', accept: 'text/plain,*/*;q=0.5' });
  const ucpP = get(at('/.well-known/ucp'), { kind: 'json', accept: 'application/json' });
  const cardP = get(at('/.well-known/mcp/server-card.json'), { kind: 'json', accept: 'application/json' });
  const homeAgentP = get(inputUrl.href, { kind: 'html', ua: 'agent', accept: HTML_ACCEPT });
  const llmsP = get(at('/llms.txt'), { kind: 'text', accept: 'text/markdown, text/plain;q=0.9, */*;q=0.5' });
  const acpP = get(at('/.well-known/acp.json'), { kind: 'json', accept: 'application/json' });
  const catalogP = get(at('/.well-known/api-catalog'), { kind: 'json', accept: 'application/linkset+json, application/json;q=0.9' });
  const aiCatalogP = get(at(AI_CATALOG_PATH), { kind: 'json', accept: CATALOG_ACCEPT });

  const homeReady = homeP.then(async (home) => {
    const homeRead = await pageOf(read, home, true);
    return { home, homeRead, page: homeRead?.page ?? null };
  });
  const robotsReady = robotsP.then((r) => ({ resource: r, info: parseRobots(r) }));
  const [{ home, homeRead, page: homePage }, robots] = await Promise.all([homeReady, robotsReady]);

  // An unreachable, refused or timed-out homepage ends the scan (scan/index.ts turns it into an error): send
  // nothing more and let wave 1 settle. So does a homepage that redirected to another site: that site is not
  // the store asked for, so it is neither crawled nor probed (no MCP POST goes there).
  const offSite = homeLeftSite(inputUrl, home);
  if (homeUnusable(home) || offSite) {
    const [homeAgent, llms, ucp, card, acp, catalog, aiCatalog] = await Promise.all([homeAgentP, llmsP, ucpP, cardP, acpP, catalogP, aiCatalogP]);
    return assemble({
      inputUrl, home, homePage, homeAgent, robots, llms, ucp, card, acp, catalog,
      mcpDiscovery: { catalog: aiCatalog, catalogJson: jsonOf(aiCatalog), card: null },
      sitemap: notFetched(at('/sitemap.xml'), offSite ? `the homepage redirected to another site (${offSite})` : 'the homepage could not be fetched'),
      sitemapUrl: null, sitemapDeclared: false, childSitemap: null, sitemapUrls: [], fromSitemap: [], fromHome: [],
      pdps: [], markdown: null, mcp: null, platform: 'other', fetcher, x402,
    }, read).then((artifacts) =>
      opts.agents ? { ...artifacts, agentMatrix: matrixNotRun('Not run: the home page could not be had, or led to another site.', opts.agents.maxRequests) } : artifacts,
    );
  }

  const platform = home.res ? detectPlatform(home.res.body, home.res.headers) : 'other';
  const crawlable = (url: string) => !isForbiddenPath(url) && robots.info.isAllowed(SCANNER_TOKEN, url);
  const fromHome = homePage ? productUrlsFromHome(homePage, inputUrl) : [];

  // R9 → R10 (→ one more index level at most): sitemap and the product URLs it lists.
  const homeFinal = home.res ? safeUrl(home.res.url) : null;
  const sitemapP = readSitemaps(robots.info, homeFinal ? [inputUrl, homeFinal] : [inputUrl], get, budget, read);

  // R11–R12, and R13 as soon as PDP #1 is known.
  let firstPdp: (p: Pdp | null) => void = () => {};
  const firstPdpP = new Promise<Pdp | null>((resolve) => (firstPdp = resolve));
  const productMisses: NonNullable<Artifacts['productMisses']> = [];
  const pdpsP = samplePdps({ homePage, homeRead, home, fromHome, sitemapP, crawlable, inputUrl, get, read, budget, onFirst: (p) => firstPdp(p), onMiss: (p) => productMisses.push(p) });
  void pdpsP.then((pdps) => firstPdp(pdps[0] ?? null));
  const matrix = opts.agents;
  const agentMatrixP = matrix
    ? runAgentMatrix({ ...matrix, home, firstPdp: firstPdpP, robots: robots.info, read, baseUrl: opts.baseUrl })
    : Promise.resolve(undefined);
  const markdownP = firstPdpP.then(async (first) => {
    budget.release('markdown');
    // No product page found (a brochure site, a service): R13 asks the homepage instead, and protocol_markdown
    // looks for the homepage's title there; not when the homepage failed or blew the size cap (no second dose).
    if (!first && !home.ok) return null;
    const url = !first ? finalUrl(home) : first.resource.ok ? first.resource.res.url : first.resource.url;
    return get(url, { kind: 'html', ua: 'agent', accept: MARKDOWN_ACCEPT });
  });

  // R6c/R6d: the catalog that points at the server card, and the one card it names (docs/checks.md §11).
  const discoveryP = discoverCatalogCard({ aiCatalogP, cardP, cardUrl: at('/.well-known/mcp/server-card.json'), at, get, budget });

  // R14/R15 after R5/R6 and the catalog (R6b only when R6 is missing and the budget allows).
  const wellKnownP = Promise.all([ucpP, cardP]).then(async ([ucp, card]) => {
    let serverCard = card;
    if (!card.ok && card.reason === 'missing' && budget.canSpare()) {
      const alt = await get(at('/.well-known/mcp.json'), { kind: 'json', accept: 'application/json' });
      if (alt.ok) serverCard = alt;
    }
    return { ucp, ucpJson: jsonOf(ucp), serverCard, serverCardJson: jsonOf(serverCard) };
  });
  const mcpP = Promise.all([wellKnownP, discoveryP]).then(async ([wk, discovery]): Promise<McpProbe | null> => {
    const viaCatalog = discovery.card;
    const found = findMcpEndpoint({
      ucpJson: wk.ucpJson,
      ucpUrl: finalUrl(wk.ucp),
      serverCardJson: wk.serverCardJson,
      serverCardUrl: finalUrl(wk.serverCard),
      ...(viaCatalog ? { catalogCardJson: viaCatalog.json, catalogCardUrl: finalUrl(viaCatalog.resource) } : {}),
      platform,
      origin,
    });
    if (!found || isForbiddenPath(found.endpoint)) {
      budget.release('mcp');
      return null;
    }
    budget.release('mcp'); // handed over as the probe's requests go out
    // Only to the store's own site (as typed, or where its homepage landed): never a server the store names elsewhere.
    const storeUrls = homeFinal ? [inputUrl.href, homeFinal.href] : [inputUrl.href];
    // No card found through a catalog or at a well-known path: the card's reserved home beside the endpoint.
    const noCard = !cardWithEndpoint(viaCatalog?.json) && !cardWithEndpoint(wk.serverCardJson);
    const cardP = noCard && onStoreSite(found.endpoint, storeUrls) && budget.canSpare()
      ? get(cardUrlOf(found.endpoint), { kind: 'json', accept: SERVER_CARD_ACCEPT })
      : Promise.resolve(null);
    const [probe, card] = await Promise.all([probeMcp({ fetch: (url, o) => get(url, o) }, found.endpoint, { storeUrls }), cardP]);
    return { ...probe, declaredIn: found.declaredIn, ...(card ? { card } : {}) };
  });

  const [homeAgent, llms, acp, catalog, wk, mcpDiscovery, sm, pdps, markdown, mcp, agentMatrix] = await Promise.all([
    homeAgentP, llmsP, acpP, catalogP, wellKnownP, discoveryP, sitemapP, pdpsP, markdownP, mcpP, agentMatrixP,
  ]);

  return assemble({
    inputUrl, home, homePage, homeAgent, robots, llms, ucp: wk.ucp, ucpJson: wk.ucpJson, card: wk.serverCard,
    cardJson: wk.serverCardJson, acp, catalog, mcpDiscovery, sitemap: sm.sitemap, sitemapUrl: sm.sitemapUrl, sitemapDeclared: sm.declared,
    childSitemap: sm.child, sitemapUrls: sm.pageUrls, fromSitemap: sm.productUrls, fromHome,
    pdps, markdown, mcp, platform, fetcher, x402,
  }, read).then((artifacts) => ({ ...artifacts, productMisses, ...(agentMatrix ? { agentMatrix } : {}) }));
}

/** Does the document read as a server card that names an endpoint? */
function cardWithEndpoint(json: unknown): boolean {
  return (readServerCardDoc(json)?.endpoints.length ?? 0) > 0;
}

/**
 * The host of another site the homepage ended on after redirects, or null when it stayed on the store: a change of
 * scheme, of the default port or of a leading "www." (and a trailing dot) is the same store.
 */
export function homeLeftSite(inputUrl: URL, home: Resource): string | null {
  const landed = home.res ? safeUrl(home.res.url) : null;
  if (!landed) return null;
  return hostIdentity(landed) === hostIdentity(inputUrl) ? null : landed.host;
}

/**
 * docs/architecture.md "A scan": the scan fails only when the homepage cannot be had — it timed out (mid-body: a
 * drip-feeding server, docs/security.md R2), or there was no answer at all (refused, unreachable, blocked by the
 * address guard). Any answer is scored, and so are redirect loops and refused redirect hops (findings about the
 * store) and bodies cut at the size cap.
 */
export function homeUnusable(home: Resource): boolean {
  if (home.ok) return false;
  if (home.reason === 'timeout') return true;
  if (home.res || home.reason === 'too-large') return false;
  return !/redirect/i.test(home.detail);
}

// ---------------------------------------------------------------------------------------------------------------
// MCP catalogs (R6c, R6d) and the card they point at

interface McpDiscovery {
  catalog: Resource | null;
  catalogJson: unknown | null;
  card: CatalogCard | null;
}

interface DiscoveryContext {
  aiCatalogP: Promise<Resource>;
  cardP: Promise<Resource>; // R6, reused when the catalog points at the well-known card itself
  cardUrl: string;
  at(path: string): string;
  get: Get;
  budget: Budget;
}

/**
 * The AI Catalog (R6c), else the earlier MCP catalog (R6d, optional), then the card of the first MCP entry: inline,
 * the R6 answer again when the entry points at the well-known card, else one GET of the entry's URL (reserved).
 */
async function discoverCatalogCard(c: DiscoveryContext): Promise<McpDiscovery> {
  const aiCatalog = await c.aiCatalogP;
  let catalog = aiCatalog;
  let kind: CatalogKind = 'ai-catalog';
  let read = readCatalog(jsonOf(aiCatalog), finalUrl(aiCatalog));
  if (!read.isCatalog && c.budget.canSpare()) {
    const older = await c.get(c.at(MCP_CATALOG_PATH), { kind: 'json', accept: CATALOG_ACCEPT });
    const olderRead = readCatalog(jsonOf(older), finalUrl(older));
    if (olderRead.isCatalog) {
      catalog = older;
      kind = 'mcp-catalog';
      read = olderRead;
    }
  }
  const result: McpDiscovery = { catalog, catalogJson: jsonOf(catalog), card: null };
  const entry = read.card;
  const catalogUrl = finalUrl(catalog);
  if (entry?.data) {
    result.card = { resource: catalog, json: entry.data, catalogUrl, catalogKind: kind, inline: true };
  } else if (entry?.url && !isForbiddenPath(entry.url)) {
    c.budget.release('catalogCard');
    const resource = entry.url === c.cardUrl ? await c.cardP : await c.get(entry.url, { kind: 'json', accept: SERVER_CARD_ACCEPT });
    result.card = { resource, json: jsonOf(resource), catalogUrl, catalogKind: kind, inline: false };
  }
  c.budget.release('catalogCard');
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Sitemaps (R9, R10)

interface SitemapResult {
  sitemap: Resource;
  sitemapUrl: string | null;
  declared: boolean;
  child: Resource | null;
  pageUrls: string[];
  productUrls: string[];
}

type Get = (url: string, o: FetchOptions) => Promise<Resource>;

/** `stores`: the URL as typed, then the homepage's final URL; sitemap entries on either host count. */
async function readSitemaps(robots: RobotsInfo, stores: URL[], get: Get, budget: Budget, read: BodyReader): Promise<SitemapResult> {
  const store = stores[0];
  const declaredUrl =
    robots.sitemaps.map((s) => absoluteHttp(s, store)).find((s): s is string => s !== null && !isForbiddenPath(s)) ?? null;
  const defaultUrl = new URL('/sitemap.xml', store.origin).href;
  let sitemapUrl = declaredUrl ?? defaultUrl;
  let declared = declaredUrl !== null;
  budget.release('sitemap');
  let sitemap = await get(sitemapUrl, { kind: 'sitemap' });
  let doc = await sitemapDoc(read, sitemap);

  // docs/checks.md §4 discovery_sitemap: "declared URL broken but a default path works": try it once.
  if (!doc.kind && declared && sitemapUrl !== defaultUrl && budget.canSpare()) {
    const fallback = await get(defaultUrl, { kind: 'sitemap' });
    const fallbackDoc = await sitemapDoc(read, fallback);
    if (fallbackDoc.kind) {
      sitemap = fallback;
      sitemapUrl = defaultUrl;
      declared = false;
      doc = fallbackDoc;
    }
  }

  let child: Resource | null = null;
  let pages: SitemapDoc = doc;
  let pagesUrl = sitemapUrl;
  // Follow index → child, at most MAX_SITEMAP_INDEX_DEPTH documents deep (docs/security.md R3).
  for (let level = 1; pages.kind === 'sitemapindex' && level < MAX_SITEMAP_INDEX_DEPTH; level++) {
    const next = pickChildSitemap(sameHostUrls(pages.locs, ...stores).filter((u) => !isForbiddenPath(u)));
    if (!next) break;
    if (level > 1 && !budget.canSpare()) break; // deeper than R10 is optional
    if (level === 1) budget.release('childSitemap');
    child = await get(next, { kind: 'sitemap' });
    pages = await sitemapDoc(read, child);
    pagesUrl = next;
  }
  budget.release('childSitemap');

  const pageUrls = pages.kind === 'urlset' ? sameHostUrls(pages.locs, ...stores) : [];
  return {
    sitemap,
    sitemapUrl,
    declared,
    child,
    pageUrls,
    productUrls: productUrlsFromSitemap(pageUrls, pagesUrl),
  };
}

function sitemapDoc(read: BodyReader, r: Resource): Promise<SitemapDoc> {
  const body = r.ok ? r.res.body : r.reason === 'too-large' ? (r.res?.body ?? '') : '';
  return read({ kind: 'sitemap', xml: body });
}

// ---------------------------------------------------------------------------------------------------------------
// Product pages (R11–R12)

interface PdpContext {
  homePage: PageFacts | null;
  homeRead: PageRead | null;
  read: BodyReader;
  home: Resource;
  fromHome: string[];
  sitemapP: Promise<SitemapResult>;
  crawlable(url: string): boolean;
  inputUrl: URL;
  get: Get;
  budget: Budget;
  onFirst(p: Pdp): void;
  /** A candidate that answered but was not recognised as a product page. */
  onMiss?(p: { resource: Resource; page: PageFacts | null }): void;
}

/** docs/checks.md §2: the homepage itself if it carries a Product, then home, then sitemap candidates. */
async function samplePdps(c: PdpContext): Promise<Pdp[]> {
  const pdps: Pdp[] = [];
  const tried = new Set<string>();
  let attempts = 0;

  // The homepage is the product page up front only by its markup (a single-product store); by its visible signals
  // only when no other product page turns up, since store homepages show prices and buy buttons for many products.
  const homeRecognition = c.homePage && c.home.res ? (c.homeRead?.recognition ?? null) : null;
  const useHome = () => {
    if (!c.homePage || !homeRecognition) return;
    pdps.push({ resource: c.home, page: c.homePage, product: c.homeRead?.product ?? null, foundVia: 'self' });
    if (pdps.length === 1) c.onFirst(pdps[0]);
    tried.add(c.homePage.url);
    c.budget.release('pdps', 1);
  };
  if (homeRecognition?.byMarkup) useHome();

  const tryFrom = async (candidates: string[], via: 'home' | 'sitemap') => {
    const queue = candidates.filter((u) => !tried.has(u) && c.crawlable(u));
    while (pdps.length < PDP_SAMPLE && queue.length > 0 && attempts < MAX_PDP_ATTEMPTS) {
      const need = PDP_SAMPLE - pdps.length;
      // The reserved PDP slots are always available; retries after a miss are optional requests.
      const reserved = Math.min(need, Math.max(0, PDP_SAMPLE - attempts));
      let extra = need - reserved;
      while (extra > 0 && !c.budget.canSpare(extra)) extra--;
      const affordable = reserved + extra;
      if (affordable === 0) break;
      const batch = queue.splice(0, affordable);
      attempts += batch.length;
      for (const u of batch) tried.add(u);
      const resources = await Promise.all(
        batch.map((url) => {
          c.budget.release('pdps', 1);
          return c.get(url, { kind: 'html', accept: HTML_ACCEPT });
        }),
      );
      // Parsed only once the whole batch has arrived: parsing takes CPU (on the worker pool, but on the same
      // cores) and would inflate the response time measured for a sibling still in flight (access_response_time).
      const pages = await Promise.all(
        resources.map(async (resource) => {
          const answered = resource.res !== undefined && resource.res.status < 400;
          const r = await pageOf(c.read, resource, answered);
          return { resource, page: r?.page ?? null, recognition: r?.recognition ?? null, product: r?.product ?? null };
        }),
      );
      for (const p of pages) {
        if (p.recognition?.isProduct && pdps.length < PDP_SAMPLE && p.page) {
          if (pdps.some((d) => d.page?.url === p.page?.url)) continue; // two links redirecting to one page
          pdps.push({ resource: p.resource, page: p.page, product: p.product, foundVia: via });
          if (pdps.length === 1) c.onFirst(pdps[0]);
        } else if (p.resource.ok && !p.recognition?.isProduct) {
          c.onMiss?.({ resource: p.resource, page: p.page });
        }
      }
    }
  };

  await tryFrom(c.fromHome, 'home');
  const base = c.homePage ? safeUrl(c.homePage.url) ?? c.inputUrl : c.inputUrl;
  if (pdps.length < PDP_SAMPLE) {
    const sm = await c.sitemapP;
    await tryFrom(cleanCandidates(sm.productUrls, base, c.inputUrl), 'sitemap');
  }
  // No link looked like a product's: the homepage's other links, most product-like first.
  if (pdps.length === 0 && c.homePage) await tryFrom(otherLinksFromHome(c.homePage, c.inputUrl), 'home');
  if (pdps.length === 0 && homeRecognition?.isProduct && !homeRecognition.byMarkup) useHome();
  c.budget.release('pdps');
  return pdps;
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing helpers

/** The page facts of any answer that carries a body (an error page still has a title and markers). */
/** `recognise`: also recognise it as a product page, and extract the product when it is one. */
async function pageOf(read: BodyReader, r: Resource, recognise: boolean): Promise<PageRead | null> {
  const res = r.res;
  if (!res) return null;
  if (res.contentType !== '' && !/html|xml|text\/plain/.test(res.contentType)) return null;
  const opts = { status: res.status, headers: res.headers, truncated: !r.ok && r.reason === 'too-large' };
  return read({ kind: 'page', html: res.body, url: res.url, opts, recognise });
}

/** A well-known JSON document: parsed when the answer was 2xx; invalid or too deep JSON gives null. */
function jsonOf(r: Resource): unknown | null {
  if (!r.ok) return null;
  const parsed = parseJsonLimited(r.res.body);
  return parsed === undefined ? null : parsed;
}

function finalUrl(r: Resource): string {
  return r.ok ? r.res.url : (r.res?.url ?? r.url);
}

function notFetched(url: string, detail: string): Resource {
  return { ok: false, reason: 'not-fetched', detail, url };
}

function absoluteHttp(raw: string, base: URL): string | null {
  try {
    const u = new URL(raw, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

function safeUrl(s: string): URL | null {
  try {
    return new URL(s);
  } catch {
    return null;
  }
}

// docs/checks.md §8 x402: a 402 answer that states payment requirements (x402 v2 headers, or the v1 JSON body).
function isX402(res: NonNullable<Resource['res']>): boolean {
  if (res.status !== 402) return false;
  const h = res.headers;
  return Boolean(h['payment-required'] || h['x-payment'] || h['x-payment-required'] || /"x402Version"/.test(res.body.slice(0, 4096)));
}

interface AssembleInput {
  inputUrl: URL;
  home: Resource;
  homePage: PageFacts | null;
  homeAgent: Resource;
  robots: { resource: Resource; info: RobotsInfo };
  llms: Resource;
  ucp: Resource;
  ucpJson?: unknown | null;
  card: Resource;
  cardJson?: unknown | null;
  acp: Resource;
  catalog: Resource;
  mcpDiscovery: McpDiscovery;
  sitemap: Resource;
  sitemapUrl: string | null;
  sitemapDeclared: boolean;
  childSitemap: Resource | null;
  sitemapUrls: string[];
  fromSitemap: string[];
  fromHome: string[];
  pdps: Pdp[];
  markdown: Resource | null;
  mcp: McpProbe | null;
  platform: Artifacts['platform'];
  fetcher: Fetcher;
  x402: boolean;
}

async function assemble(a: AssembleInput, read: BodyReader): Promise<Artifacts> {
  // The agent-UA homepage is usually byte-identical to R1: reuse the parse instead of parsing 2 MB twice.
  const sameBody = a.homeAgent.res && a.home.res && a.homeAgent.res.body === a.home.res.body && a.homeAgent.res.url === a.home.res.url;
  const homeAgentPage = sameBody ? a.homePage : ((await pageOf(read, a.homeAgent, false))?.page ?? null);
  return {
    inputUrl: a.inputUrl.href,
    origin: a.inputUrl.origin,
    home: a.home,
    homePage: a.homePage,
    homeAgent: a.homeAgent,
    homeAgentPage,
    robotsTxt: a.robots.resource,
    robots: a.robots.info,
    llmsTxt: a.llms,
    ucp: a.ucp,
    ucpJson: a.ucpJson !== undefined ? a.ucpJson : jsonOf(a.ucp),
    serverCard: a.card,
    serverCardJson: a.cardJson !== undefined ? a.cardJson : jsonOf(a.card),
    mcpCatalog: a.mcpDiscovery.catalog,
    mcpCatalogJson: a.mcpDiscovery.catalogJson,
    catalogCard: a.mcpDiscovery.card,
    acp: a.acp,
    acpJson: jsonOf(a.acp),
    apiCatalog: a.catalog,
    apiCatalogJson: jsonOf(a.catalog),
    sitemap: a.sitemap,
    sitemapUrl: a.sitemapUrl,
    sitemapDeclared: a.sitemapDeclared,
    childSitemap: a.childSitemap,
    sitemapUrls: a.sitemapUrls,
    productUrlsFromSitemap: a.fromSitemap,
    productUrlsFromHome: a.fromHome,
    pdps: a.pdps,
    pdpAgentMarkdown: a.markdown,
    mcp: a.mcp,
    platform: a.platform,
    fetchLog: a.fetcher.log.map((e) => ({ url: e.url, status: e.status, ms: Math.round(e.ms), outcome: e.outcome })),
    x402: a.x402,
  };
}
