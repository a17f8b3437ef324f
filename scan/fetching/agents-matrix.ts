// The agents matrix (docs/checks.md §13): on a scan of a store's root, the home page and the first sampled product
// page asked again with the user-agent of each agent of scan/agents/table.ts, each answer judged against a
// browser-like request for the same page (scan/agents/judge.ts). Bounded: the matrix has its own fetcher (its request
// cap AGENTS_MAX_REQUESTS, redirect hops included; two requests in flight; MATRIX_TIME_MS of wall time; the scan's
// address rules, deadline and byte cap per response), at most two requests per agent, and crawlers are sampled once
// the store has answered the first agents as it answers a browser. Every matrix request is unsigned, like the agents'
// own (we cannot sign as them); when the scan signs, the browser-like request is repeated unsigned so the comparison
// is fair, and that pair (signed, unsigned) shows whether the store treats signed agents differently.
import type { AgentMatrix, AgentRun, AgentVisit, FactsSeen, ProductFacts, Resource, RobotsInfo } from '../artifacts.js';
import type { Fetcher } from '../../outbound/fetch.js';
import { AGENTS, matrixUserAgent, type KnownAgent } from '../agents/table.js';
import { factsOf, visitOf } from '../agents/judge.js';
import { responseOf } from '../documents/resources.js';
import type { BodyReader } from '../parser-threads/page-pool.js';

/** Requests of the matrix in flight at once: it asks one host. */
export const MATRIX_CONCURRENCY = 2;
/** Wall time of the matrix, within the scan's deadline; it runs beside the rest of the scan. */
export const MATRIX_TIME_MS = 12_000;
/** One request of the matrix (the scan's own may take longer: an agent gives up sooner). */
export const MATRIX_REQUEST_TIMEOUT_MS = 6_000;
/** Crawlers asked in a row with answers like a browser's before the rest are sampled. */
const SAMPLE_AFTER = 2;

const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

export interface MatrixInput {
  fetcher: Fetcher; // the matrix's own: its cap, its concurrency, its deadline
  maxRequests: number;
  home: Resource; // the scan's home page request
  /** The scan's first sampled product page, once known (null: none found). */
  firstPdp: Promise<{ resource: Resource; product: ProductFacts | null } | null>;
  robots: RobotsInfo;
  /** The scan's own requests are signed (Web Bot Auth). */
  signed: boolean;
  read: BodyReader;
  baseUrl: string;
}

interface Page {
  url: string;
  resource: Resource; // the browser-like answer agents are compared with
  facts: FactsSeen | null;
}

export function matrixNotRun(note: string, maxRequests = 0): AgentMatrix {
  return { status: 'not_run', note, homeUrl: null, productUrl: null, baseline: { home: null, product: null }, signedPair: null, rows: [], requests: 0, maxRequests };
}

export async function runAgentMatrix(m: MatrixInput): Promise<AgentMatrix> {
  const homeRes = m.home.ok ? m.home.res : null;
  if (!homeRes) {
    return matrixNotRun('Not run: the home page did not answer a browser-like request in full, so there is nothing to compare agents with.', m.maxRequests);
  }
  const get = (url: string, userAgent?: string) => m.fetcher.fetch(url, { kind: 'html', accept: HTML_ACCEPT, userAgent, signed: false });
  const readFacts = async (r: Resource): Promise<FactsSeen | null> => {
    const res = responseOf(r);
    if (!res || !r.ok) return null;
    const read = await m.read({ kind: 'page', html: res.body, url: res.url, opts: { status: res.status, headers: res.headers, truncated: false }, recognise: true });
    return factsOf(read.product);
  };

  // The browser-like home page: the scan's own answer; asked again unsigned (like the agents) only when an agent got
  // something else, since then it decides whether the difference is the agent's or the signature's.
  let unsignedHome: Promise<Resource> | null = null;
  const homeBaseline = () => (m.signed ? (unsignedHome ??= get(homeRes.url)) : Promise.resolve(m.home));
  const homePage: Page = { url: homeRes.url, resource: m.home, facts: null };
  // The browser-like product page: asked unsigned whenever the scan signs, as the pair that shows whether the store
  // treats signed agents differently.
  const pdpP = m.firstPdp.then((p) => (p && p.resource.ok ? { ...p, res: p.resource.res } : null));
  const productP: Promise<Page | null> = pdpP.then(async (p) => {
    if (!p) return null;
    const resource = m.signed ? await get(p.res.url) : p.resource;
    const own = responseOf(resource);
    const facts = own && own.body === p.res.body ? factsOf(p.product) : await readFacts(resource);
    return { url: p.res.url, resource, facts };
  });

  const visit = async (agent: KnownAgent, which: 'home' | 'product'): Promise<AgentVisit | null> => {
    if (which === 'home') {
      const resource = await get(homeRes.url, matrixUserAgent(agent, m.baseUrl));
      const first = visitOf({ url: homeRes.url, resource, baseline: homeRes });
      return first.access === 'served' || !m.signed ? first : visitOf({ url: homeRes.url, resource, baseline: responseOf(await homeBaseline()) });
    }
    // Sent as soon as the page is known, beside the unsigned browser-like request rather than after it.
    const url = (await pdpP)?.res.url;
    if (!url) return null;
    const resource = await get(url, matrixUserAgent(agent, m.baseUrl));
    const page = (await productP) as Page;
    const base = responseOf(page.resource);
    const res = responseOf(resource);
    // Read only when it differs from the browser-like page; a body cut at the cap is not compared.
    const facts = !res || !resource.ok ? null : res.body === base?.body ? page.facts : await readFacts(resource);
    return visitOf({ url: page.url, resource, baseline: base, facts, baselineFacts: resource.ok ? page.facts : null });
  };
  const productUrl = async () => (await pdpP)?.res.url ?? null;
  const robotsOf = async (agent: KnownAgent) => {
    const allowed = (url: string | null) => (url === null || agent.token === null ? null : m.robots.isAllowed(agent.token, url));
    return { home: allowed(homeRes.url), product: allowed(await productUrl()) };
  };
  const runs = new Map<string, AgentRun>();
  const record = (agent: KnownAgent, robots: AgentRun['robots'], home: AgentVisit | null, product: AgentVisit | null, skipped: string | null) =>
    void runs.set(agent.name, { agent: agent.name, robots, home, product, skipped });

  // User fetchers act for a shopper (robots.txt may not bind them): every one asks both pages. Beside them the first
  // crawlers, each asking one page (the product page, where cloaking shows), which decide whether to sample the rest.
  const crawlers = AGENTS.filter((a) => (a.kind === 'search_indexer' || a.kind === 'training_crawler') && a.userAgent !== null);
  const firstCrawlers = crawlers.slice(0, SAMPLE_AFTER);
  await Promise.all([
    ...AGENTS.filter((a) => a.kind === 'user_fetcher').map(async (agent) => {
      const [home, product] = await Promise.all([visit(agent, 'home'), visit(agent, 'product')]);
      record(agent, await robotsOf(agent), home, product, null);
    }),
    ...firstCrawlers.map(async (agent) => {
      const robots = await robotsOf(agent);
      const which = robots.product ? 'product' : robots.home ? 'home' : null;
      const v = which ? await visit(agent, which) : null;
      const why = which === null ? 'Not asked: robots.txt disallows it here, so the crawler itself would not ask.' : null;
      record(agent, robots, which === 'home' ? v : null, which === 'product' ? v : null, why);
    }),
  ]);
  const likeBrowser = (r: AgentRun) => [r.home, r.product].every((v) => v === null || (v.access === 'served' && v.differences.length === 0));
  const alike = [...runs.values()].every(likeBrowser);

  // A store that answered alike has the other crawlers sampled; one that did not is asked by every crawler, both
  // pages where its token may go, until the cap or the time runs out.
  let sampled = 0;
  for (const agent of crawlers) {
    const robots = await robotsOf(agent);
    const asked = runs.get(agent.name);
    const pages = (['home', 'product'] as const).filter((p) => robots[p] && !asked?.[p]);
    if (alike) {
      if (!asked) sampled++;
      if (!asked) record(agent, robots, null, null, 'Not asked: sampled (the store answered the agents before it as it answers a browser).');
      else if (pages.length > 0 && !asked.skipped) asked.skipped = 'Its other page was not asked: sampled.';
      continue;
    }
    if (pages.length === 0) continue;
    if (m.fetcher.signal.aborted || m.fetcher.requestsUsed + pages.length > m.maxRequests) {
      const why = m.fetcher.signal.aborted ? 'Not asked: the matrix ran out of time.' : "Not asked: the matrix's request cap was reached.";
      record(agent, robots, asked?.home ?? null, asked?.product ?? null, asked ? why.replace('Not asked', 'Its other page was not asked') : why);
      continue;
    }
    const [home, product] = await Promise.all([pages.includes('home') ? visit(agent, 'home') : null, pages.includes('product') ? visit(agent, 'product') : null]);
    const disallowed = robots.home === false || robots.product === false ? 'A page robots.txt disallows for it was not asked.' : null;
    record(agent, robots, home ?? asked?.home ?? null, product ?? asked?.product ?? null, disallowed);
  }
  for (const agent of AGENTS.filter((a) => a.kind !== 'browser' && a.userAgent === null)) record(agent, await robotsOf(agent), null, null, 'A robots.txt token only: it sends no requests of its own.');

  const product = await productP;
  const pdp = await pdpP;
  if (m.signed && !product) await homeBaseline(); // no product page: the signed/unsigned pair is the home page's
  const home = unsignedHome ? await unsignedHome : m.home;
  const baseline = {
    home: visitOf({ url: homePage.url, resource: home, baseline: null }),
    product: product ? visitOf({ url: product.url, resource: product.resource, baseline: null, facts: product.facts }) : null,
  };
  const pair = product && pdp ? { url: product.url, own: pdp.resource, twin: product.resource } : unsignedHome ? { url: homePage.url, own: m.home, twin: home } : null;
  return {
    status: 'checked',
    note: sampled > 0 ? `Sampled: the store answered the first agents as it answers a browser, so ${sampled} crawlers were not asked.` : null,
    homeUrl: homePage.url,
    productUrl: product?.url ?? null,
    baseline,
    signedPair:
      m.signed && pair
        ? {
            url: pair.url,
            signed: visitOf({ url: pair.url, resource: pair.own, baseline: null }),
            unsigned: visitOf({ url: pair.url, resource: pair.twin, baseline: responseOf(pair.own) }),
          }
        : null,
    rows: AGENTS.filter((a) => a.kind !== 'browser').flatMap((a) => runs.get(a.name) ?? []),
    requests: m.fetcher.requestsUsed,
    maxRequests: m.maxRequests,
  };
}
