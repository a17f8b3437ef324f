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

  // The browser-like pages: the scan's own answers, asked again unsigned when the scan signs.
  const homeP: Promise<Page> = (m.signed ? get(homeRes.url) : Promise.resolve(m.home)).then((resource) => ({ url: homeRes.url, resource, facts: null }));
  const pdpP = m.firstPdp.then((p) => (p && p.resource.ok ? { ...p, res: p.resource.res } : null));
  const productP: Promise<Page | null> = pdpP.then(async (p) => {
    if (!p) return null;
    const resource = m.signed ? await get(p.res.url) : p.resource;
    const own = responseOf(resource);
    const facts = own && own.body === p.res.body ? factsOf(p.product) : await readFacts(resource);
    return { url: p.res.url, resource, facts };
  });

  const visit = async (agent: KnownAgent, which: 'home' | 'product'): Promise<AgentVisit | null> => {
    const isProduct = which === 'product';
    const page = await (isProduct ? productP : homeP);
    if (!page) return null;
    const resource = await get(page.url, matrixUserAgent(agent, m.baseUrl));
    const base = responseOf(page.resource);
    const res = responseOf(resource);
    // A product page is read only when it differs from the browser-like one; a body cut at the cap is not compared.
    const facts = !isProduct || !res || !resource.ok ? null : res.body === base?.body ? page.facts : await readFacts(resource);
    return visitOf({ url: page.url, resource, baseline: base, facts, baselineFacts: isProduct && resource.ok ? page.facts : null });
  };
  const allowed = (agent: KnownAgent, url: string | null): boolean | null => (url === null || agent.token === null ? null : m.robots.isAllowed(agent.token, url));

  // User fetchers act for a shopper (robots.txt may not bind them): every one asks both pages.
  const fetchers = AGENTS.filter((a) => a.kind === 'user_fetcher');
  const runs = new Map<string, AgentRun>();
  await Promise.all(
    fetchers.map(async (agent) => {
      const [home, product] = await Promise.all([visit(agent, 'home'), visit(agent, 'product')]);
      const productUrl = (await productP)?.url ?? null;
      runs.set(agent.name, { agent: agent.name, robots: { home: allowed(agent, homeRes.url), product: allowed(agent, productUrl) }, home, product, skipped: null });
    }),
  );
  const [home, product] = await Promise.all([homeP, productP]);
  const likeBrowser = (r: AgentRun) => [r.home, r.product].every((v) => v === null || (v.access === 'served' && v.differences.length === 0));

  // Crawlers, in the table's order: only where their own token may go; sampled once the store answers like a browser.
  let alike = [...runs.values()].every(likeBrowser);
  let alikeInARow = 0;
  let sampled = 0;
  for (const agent of AGENTS.filter((a) => a.kind === 'search_indexer' || a.kind === 'training_crawler')) {
    const robots = { home: allowed(agent, home.url), product: allowed(agent, product?.url ?? null) };
    const skip = (why: string) => void runs.set(agent.name, { agent: agent.name, robots, home: null, product: null, skipped: why });
    if (!agent.userAgent) skip('A robots.txt token only: it sends no requests of its own.');
    else if (alike && alikeInARow >= SAMPLE_AFTER) {
      sampled++;
      skip('Not asked: sampled (the store answered the agents before it as it answers a browser).');
    } else if (m.fetcher.signal.aborted) skip('Not asked: the matrix ran out of time.');
    else if (m.fetcher.requestsUsed + (robots.home ? 1 : 0) + (robots.product ? 1 : 0) > m.maxRequests) skip("Not asked: the matrix's request cap was reached.");
    else if (!robots.home && !robots.product) skip('Not asked: robots.txt disallows it here, so the crawler itself would not ask.');
    else {
      const [h, p] = await Promise.all([robots.home ? visit(agent, 'home') : null, robots.product ? visit(agent, 'product') : null]);
      const run: AgentRun = { agent: agent.name, robots, home: h, product: p, skipped: robots.home && (robots.product ?? true) ? null : 'A page robots.txt disallows for it was not asked.' };
      runs.set(agent.name, run);
      alike &&= likeBrowser(run);
      alikeInARow = alike ? alikeInARow + 1 : 0;
    }
  }

  const baseline = { home: visitOf({ url: home.url, resource: home.resource, baseline: null }), product: product ? visitOf({ url: product.url, resource: product.resource, baseline: null, facts: product.facts }) : null };
  const pdp = await pdpP;
  const signedOf = product && pdp ? { url: product.url, own: pdp.resource, twin: product } : { url: home.url, own: m.home, twin: home };
  return {
    status: 'checked',
    note: sampled > 0 ? `Sampled: the store answered the first agents as it answers a browser, so ${sampled} crawlers were not asked.` : null,
    homeUrl: home.url,
    productUrl: product?.url ?? null,
    baseline,
    signedPair: m.signed
      ? {
          url: signedOf.url,
          signed: visitOf({ url: signedOf.url, resource: signedOf.own, baseline: null }),
          unsigned: visitOf({ url: signedOf.url, resource: signedOf.twin.resource, baseline: responseOf(signedOf.own) }),
        }
      : null,
    rows: AGENTS.filter((a) => a.kind !== 'browser').flatMap((a) => runs.get(a.name) ?? []),
    requests: m.fetcher.requestsUsed,
    maxRequests: m.maxRequests,
  };
}
