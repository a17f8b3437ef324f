// One failure that makes others moot (docs/checks.md §5b): a storefront that does not open, a robots.txt that keeps
// agents out of the product pages, no product page readable without scripts. The checks that could not judge the
// store because of it keep their status (the spec's pass | partial | fail) but say "Not assessed" and name the root
// cause in `blockedBy`; the report leads with the root cause, and its fix carries the points they stand for.
import type { Artifacts } from '../artifacts.js';
import type { CheckResult } from './registry.js';
import type { CheckId } from './rubric.js';
import { ROOT_CAUSE_IDS, type RootCauseId } from './check.js';
import { sampledPdps } from './product-pages.js';


/** How each root cause is named: a headline for the report, and the reason a blocked check gives. */
export const ROOT_CAUSE_TEXT: Record<RootCauseId, { title: string; reason: string }> = {
  storefront_closed: { title: 'The storefront does not open to automated visitors', reason: 'the storefront did not open to automated visitors' },
  robots_block_crawl: { title: 'robots.txt keeps agents out of the store', reason: 'robots.txt keeps agents out of the product pages' },
  no_readable_product_page: { title: 'No product page can be found or read without scripts', reason: 'no product page readable without scripts' },
};

/**
 * Checks read only from site files (robots.txt, sitemaps, llms.txt, well-known documents, the MCP probe) or from how
 * the home page answered: a closed storefront does not make them moot. Every other failing check reads the store's
 * pages, which a closed storefront does not show.
 */
const READS_NO_PAGE = new Set<CheckId>([
  'access_live_agents_robots',
  'access_response_time',
  'access_ai_policy_declared',
  'discovery_robots_txt',
  'discovery_sitemap',
  'discovery_llms_txt',
  'discovery_link_headers',
  'trust_https',
  'protocol_commerce_profile',
  'protocol_mcp_endpoint',
  'protocol_mcp_server_card',
  'protocol_api_catalog',
]);

export interface RootCause {
  id: RootCauseId;
  /** The check whose fix removes the root cause. */
  checkId: CheckId;
  title: string;
  /** What the scanner saw: the root check's evidence. */
  detail: string;
  /** The checks not assessed because of it. */
  blocks: CheckId[];
}

/** The evidence of a check a root cause makes moot; with no product link at all, nothing was there to read. */
export const notAssessed = (id: RootCauseId, root: CheckId): string =>
  `Not assessed: ${root === 'discovery_product_urls' ? 'no product page found' : ROOT_CAUSE_TEXT[id].reason}.`;

/** Marks the checks each root cause makes moot and lists the causes that block at least one check. */
export function findRootCauses(results: readonly CheckResult[], a: Artifacts): { results: CheckResult[]; causes: RootCause[] } {
  const status = (id: CheckId) => results.find((r) => r.def.id === id)?.outcome.status;
  const noProductPage = sampledPdps(a).length === 0;
  const closed = status('access_storefront_reachable') === 'fail';
  const robotsShut = noProductPage && status('access_live_agents_robots') === 'fail';
  const rootChecks: Record<RootCauseId, CheckId> = {
    storefront_closed: 'access_storefront_reachable',
    robots_block_crawl: 'access_live_agents_robots',
    // Product links that answered with something else (an app shell) point at rendering; none at all, at discovery.
    no_readable_product_page: (a.productMisses ?? []).length > 0 ? 'product_server_rendered' : 'discovery_product_urls',
  };
  // A root check is never marked moot itself; only the causes that hold have one.
  const holds: Record<RootCauseId, boolean> = { storefront_closed: closed, robots_block_crawl: robotsShut, no_readable_product_page: noProductPage && !closed && !robotsShut };
  const roots = new Set<CheckId>(ROOT_CAUSE_IDS.filter((id) => holds[id]).map((id) => rootChecks[id]));
  const causeOf = (r: CheckResult): RootCauseId | null => {
    if (r.outcome.status !== 'fail' || roots.has(r.def.id)) return null;
    if (closed && (r.outcome.needs || !READS_NO_PAGE.has(r.def.id))) return 'storefront_closed';
    if (r.outcome.needs !== 'product_page') return null;
    return robotsShut ? 'robots_block_crawl' : 'no_readable_product_page';
  };
  const marked = results.map((r) => {
    const cause = causeOf(r);
    return cause ? { ...r, outcome: { ...r.outcome, evidence: notAssessed(cause, rootChecks[cause]), blockedBy: cause } } : r;
  });
  const causes = ROOT_CAUSE_IDS.flatMap((id): RootCause[] => {
    const blocks = marked.filter((r) => r.outcome.blockedBy === id).map((r) => r.def.id);
    if (blocks.length === 0) return [];
    const root = marked.find((r) => r.def.id === rootChecks[id]);
    return [{ id, checkId: rootChecks[id], title: ROOT_CAUSE_TEXT[id].title, detail: root?.outcome.evidence ?? '', blocks }];
  });
  return { results: marked, causes };
}
