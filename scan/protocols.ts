// Protocol adoption flags for the quick check tool (docs/checks.md §8): true / false, or null when this scan did
// not look. Read from the artifacts and the check results; adds no points of its own.
import type { z } from 'zod';
import type { Artifacts, Resource } from './artifacts.js';
import type { CheckDef, CheckOutcome } from './checks/check.js';
import { jsonOf, resourceUrl } from './documents/resources.js';
import { readAcp, readServerCard, readServerCardDoc, readUcp } from './documents/protocol-documents.js';
import type { CheckId } from './checks/rubric.js';
import { liveAgentAccess, usageHeaders } from './documents/robots.js';
import type { Protocols } from '../schemas/scan-result.js';

type Flags = z.infer<typeof Protocols>;
const MARKUP_RANK = ['json-ld', 'microdata', 'rdfa', 'opengraph', 'none'] as const;

function fetched(r: Resource | null | undefined): boolean {
  return !!r && (r.ok || r.reason !== 'not-fetched');
}

export function protocolFlags(
  artifacts: Artifacts,
  results: readonly { def: CheckDef; outcome: CheckOutcome }[],
): Flags {
  const a = artifacts;
  const status = (id: CheckId) => results.find((r) => r.def.id === id)?.outcome.status ?? null;
  const passed = (id: CheckId) => (status(id) === null ? null : status(id) === 'pass');

  const ucp = readUcp(a);
  const ucpValid = ucp !== null && ucp.wrapped;
  const acp = readAcp(a);
  const card = readServerCard(a);
  const cc = a.catalogCard;
  const catalogCard = cc ? readServerCardDoc(jsonOf(cc.resource, cc.json)) : null;
  const mcpUrlCard = a.mcp?.card ? readServerCardDoc(jsonOf(a.mcp.card, undefined)) : null;
  const mcpAnswered = a.mcp !== null && a.mcp.initializeResult !== null;

  const markups = a.pdps.map((p) => p.product?.markup ?? 'none');
  const structured = MARKUP_RANK.find((m) => markups.includes(m)) ?? 'none';

  const robotsReadable = a.robots.present;
  const pdpUrls = a.pdps.map((p) => p.page?.url ?? resourceUrl(p.resource));
  const access = robotsReadable ? liveAgentAccess(a.robots, pdpUrls) : null;

  const llms = status('discovery_llms_txt');
  const usageDeclared =
    (a.robots.present && a.robots.usageRecords.length > 0) || usageHeaders([a.home.res, ...a.pdps.map((p) => p.resource.res)]).length > 0;
  const wall = status('access_no_bot_wall');

  return {
    ucp: fetched(a.ucp) ? ucpValid : null,
    ucp_version: ucpValid ? ucp.version : null,
    ucp_capabilities: ucpValid ? ucp.capabilities : [],
    acp: fetched(a.acp) ? acp !== null : null,
    acp_version: acp?.version ?? null,
    mcp: mcpAnswered,
    mcp_endpoint: a.mcp?.endpoint ?? null,
    mcp_tool_count: a.mcp && a.mcp.toolsList?.ok ? a.mcp.tools.length : null,
    mcp_server_card: catalogCard?.name || mcpUrlCard?.name ? true : fetched(a.serverCard) ? card !== null && card.name !== null : null,
    a2a: null, // /.well-known/agent-card.json is an optional fetch not in Artifacts yet
    ap2: fetched(a.ucp) ? ap2(ucpValid ? ucp.capabilities : []) : null,
    x402: a.x402 ? true : null,
    llms_txt: llms === null ? null : llms !== 'fail',
    markdown_negotiation: a.pdpAgentMarkdown ? passed('protocol_markdown') : null,
    api_catalog: passed('protocol_api_catalog'),
    content_signals: usageDeclared ? true : fetched(a.robotsTxt) ? false : null,
    structured_data: structured,
    platform: a.platform,
    agents_blocked: access ? [...access.blocked, ...access.restricted] : [],
    waf_blocks_agents: wall === 'fail',
  };
}

function ap2(capabilities: string[]): boolean {
  // UCP names the AP2 mandate extension dev.ucp.shopping.ap2_mandate; tolerate other vendors' ap2 capability names.
  return capabilities.some((c) => c === 'dev.ucp.shopping.ap2_mandate' || /(^|[._])ap2([._]|$)/.test(c));
}
