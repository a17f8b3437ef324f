// The rubric: what each check is worth, what caps the score, the grade bands and what counts as agent-ready
// (docs/checks.md §3–§6 and §9). Every number of the rubric is written here and nowhere else: a check file holds
// its logic and texts, scan/checks/registry.ts joins it to its row by id, scan/checks/score.ts adds the points up.
import type { PillarId } from './pillars.js';

/** Names this table and the rules below in every scan result; a change to any of them bumps it. */
export const RUBRIC_VERSION = '2026-11.6';

export type HardBlock = 'H1' | 'H2' | 'H3';

interface RowShape {
  id: string; // the check's file name: scan/checks/<pillar>/<id>.ts
  pillar: PillarId;
  order: number; // position inside its pillar (docs/checks.md §4 order); ties in top_fixes follow it
  points: number; // earned by a pass
  partialPoints: number; // earned by a partial; 0 when the check has no partial grade
  hardBlock?: HardBlock; // a failure caps the score (docs/checks.md §5)
}

// Listed pillar by pillar (the order of scan/checks/pillars.ts), then by order: the order of docs/checks.md §4.
const ROWS = [
  { id: 'access_storefront_reachable', pillar: 'access', order: 1, points: 3, partialPoints: 1, hardBlock: 'H3' },
  { id: 'access_live_agents_robots', pillar: 'access', order: 2, points: 6, partialPoints: 3, hardBlock: 'H1' },
  { id: 'access_no_bot_wall', pillar: 'access', order: 3, points: 6, partialPoints: 3, hardBlock: 'H2' },
  { id: 'access_indexable', pillar: 'access', order: 4, points: 2, partialPoints: 1 },
  { id: 'access_response_time', pillar: 'access', order: 5, points: 2, partialPoints: 1 },
  { id: 'access_ai_policy_declared', pillar: 'access', order: 6, points: 1, partialPoints: 0 },

  { id: 'discovery_robots_txt', pillar: 'discovery', order: 1, points: 2, partialPoints: 1 },
  { id: 'discovery_sitemap', pillar: 'discovery', order: 2, points: 3, partialPoints: 2 },
  { id: 'discovery_product_urls', pillar: 'discovery', order: 3, points: 4, partialPoints: 2 },
  { id: 'discovery_llms_txt', pillar: 'discovery', order: 4, points: 3, partialPoints: 1 },
  { id: 'discovery_canonical', pillar: 'discovery', order: 5, points: 1, partialPoints: 0 },
  { id: 'discovery_link_headers', pillar: 'discovery', order: 6, points: 1, partialPoints: 0 },
  { id: 'discovery_site_search', pillar: 'discovery', order: 7, points: 1, partialPoints: 0 },

  { id: 'product_structured_data', pillar: 'product_data', order: 1, points: 5, partialPoints: 2 },
  { id: 'product_core_fields', pillar: 'product_data', order: 2, points: 4, partialPoints: 2 },
  { id: 'product_price', pillar: 'product_data', order: 3, points: 5, partialPoints: 2 },
  { id: 'product_availability', pillar: 'product_data', order: 4, points: 3, partialPoints: 1 },
  { id: 'product_identifiers', pillar: 'product_data', order: 5, points: 4, partialPoints: 2 },
  { id: 'product_brand', pillar: 'product_data', order: 6, points: 2, partialPoints: 1 },
  { id: 'product_server_rendered', pillar: 'product_data', order: 7, points: 3, partialPoints: 1 },
  { id: 'product_data_consistency', pillar: 'product_data', order: 8, points: 2, partialPoints: 1 },
  { id: 'product_attributes', pillar: 'product_data', order: 9, points: 1, partialPoints: 0 },
  { id: 'product_open_graph', pillar: 'product_data', order: 10, points: 1, partialPoints: 0 },

  { id: 'trust_return_policy', pillar: 'trust', order: 1, points: 4, partialPoints: 2 },
  { id: 'trust_shipping_policy', pillar: 'trust', order: 2, points: 4, partialPoints: 2 },
  { id: 'trust_organization', pillar: 'trust', order: 3, points: 2, partialPoints: 1 },
  { id: 'trust_contact_legal', pillar: 'trust', order: 4, points: 2, partialPoints: 1 },
  { id: 'trust_https', pillar: 'trust', order: 5, points: 2, partialPoints: 1 },
  { id: 'trust_reviews', pillar: 'trust', order: 6, points: 1, partialPoints: 0 },

  { id: 'protocol_commerce_profile', pillar: 'protocols', order: 1, points: 5, partialPoints: 2 },
  { id: 'protocol_mcp_endpoint', pillar: 'protocols', order: 2, points: 4, partialPoints: 2 },
  { id: 'protocol_mcp_server_card', pillar: 'protocols', order: 3, points: 1, partialPoints: 0 },
  { id: 'protocol_markdown', pillar: 'protocols', order: 4, points: 1, partialPoints: 0 },
  { id: 'protocol_api_catalog', pillar: 'protocols', order: 5, points: 1, partialPoints: 0 },

  { id: 'checkout_add_to_cart', pillar: 'checkout', order: 1, points: 3, partialPoints: 1 },
  { id: 'checkout_handoff_url', pillar: 'checkout', order: 2, points: 2, partialPoints: 1 },
  { id: 'checkout_guest', pillar: 'checkout', order: 3, points: 2, partialPoints: 1 },
  { id: 'checkout_payment_methods', pillar: 'checkout', order: 4, points: 1, partialPoints: 0 },
] as const satisfies readonly RowShape[];

/** A check's id: one of the rows above, so a misspelt id is a type error wherever a check is named. */
export type CheckId = (typeof ROWS)[number]['id'];

export type RubricRow = RowShape & { id: CheckId };

export const RUBRIC: readonly RubricRow[] = ROWS;

const BY_ID = new Map<string, RubricRow>(RUBRIC.map((row) => [row.id, row]));

export function isCheckId(id: string): id is CheckId {
  return BY_ID.has(id);
}

export function rubricRow(id: CheckId): RubricRow {
  const row = BY_ID.get(id);
  // Unreachable from typed code; a compiled check file with an id the table lacks stops the service at boot.
  if (!row) throw new Error(`check "${String(id)}" has no row in scan/checks/rubric.ts`);
  return row;
}

/** A pillar's maximum: the points of its checks. */
export function pillarMax(pillar: PillarId): number {
  return RUBRIC.filter((row) => row.pillar === pillar).reduce((sum, row) => sum + row.points, 0);
}

/** docs/checks.md §5: a capped score is at most this, which is always grade E. */
export const CAP_SCORE = 35;

/** docs/checks.md §6: the lowest score of each grade, best first; below the last band is E. */
export const GRADE_BANDS = [
  { grade: 'A', min: 85 },
  { grade: 'B', min: 70 },
  { grade: 'C', min: 55 },
  { grade: 'D', min: 40 },
] as const;

/** docs/checks.md §9: an agent can quote and buy: not capped, at least minScore, and these checks passing. */
export const AGENT_READY = {
  minScore: 70,
  requiredChecks: ['product_price', 'product_availability', 'access_live_agents_robots'],
} as const satisfies { minScore: number; requiredChecks: readonly CheckId[] };

export function isAgentReady(scan: { score: number; capped: boolean }, passing: ReadonlySet<string>): boolean {
  return !scan.capped && scan.score >= AGENT_READY.minScore && AGENT_READY.requiredChecks.every((id) => passing.has(id));
}
