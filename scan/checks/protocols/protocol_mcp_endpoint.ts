// Does a storefront MCP server answer? Reads the probe gather.ts made (server/discover, else initialize, then
// tools/list) against the endpoint declared in UCP or a server card (found through the AI Catalog, at the MCP URL or
// at a well-known path), or Shopify's /api/mcp; never calls a tool. Either handshake counts; the evidence names the
// revisions the server serves, whether the current one is among them, and the document that declared the endpoint.
import { defineCheck } from '../check.js';
import { describe } from '../evidence.js';
import { COMMERCE_TOOL } from '../../documents/protocol-documents.js';
import { MCP_CURRENT_REVISION } from '../../fetching/mcp-probe.js';
import type { McpProbe } from '../../artifacts.js';

/** "answered server/discover (Shop MCP; serves 2026-07-28, the current MCP revision)", or the 2025 equivalent. */
function answered(mcp: McpProbe): string {
  const result = mcp.initializeResult!;
  const revisions = mcp.revisions?.length ? mcp.revisions : result.protocolVersion ? [result.protocolVersion] : [];
  const serves = revisions.length > 0 ? `serves ${revisions.join(', ')}` : 'names no revision';
  const current = revisions.includes(MCP_CURRENT_REVISION)
    ? 'the current MCP revision'
    : `not the current MCP revision ${MCP_CURRENT_REVISION}`;
  return `answered ${mcp.handshake ?? 'initialize'} (${[result.serverName, `${serves}, ${current}`].filter(Boolean).join('; ')})`;
}

export default defineCheck({
  id: 'protocol_mcp_endpoint',
  label: 'Storefront MCP answers',
  title: 'A storefront MCP server answers with commerce tools',
  failureTitle: 'Expose a storefront MCP server',
  why: 'An MCP server lets an agent search the catalogue and build a cart through tools instead of scraping pages.',
  how: 'Offer an MCP endpoint (Streamable HTTP, JSON-RPC) with catalogue and cart tools such as `search_catalog`, `get_product`, `create_cart`, `create_checkout`, and declare it in your UCP profile\'s MCP binding and in an MCP server card. Serve the current MCP revision, 2026-07-28 (it answers `server/discover`), beside 2025-11-25 for older clients: the official SDK serves both from one server. Shopify stores already have `/api/mcp`; keep it reachable through your CDN.',
  fix: {
    plain: 'Offer AI assistants a direct connection to search your catalogue and fill a cart, instead of reading your pages.',
    effort: 'a day or more',
    steps: {
      shopify: 'Shopify stores have this connection built in; make sure no proxy or CDN in front of the store blocks it.',
      woocommerce: 'This needs a plugin that adds the connection, or a developer.',
      bigcommerce: 'This needs an app that adds the connection, or a developer.',
      custom: 'A developer builds the connection with search, product and cart tools; the detail is below.',
    },
  },
  run(a) {
    const mcp = a.mcp;
    if (!mcp) {
      return { status: 'fail', evidence: 'No MCP endpoint declared in /.well-known/ucp or a server card (AI Catalog or well-known card path), and no platform default to try.' };
    }
    const declared = mcp.declaredIn ? ` (declared in ${mcp.declaredIn})` : '';
    if (!mcp.initializeResult) {
      if (mcp.jsonRpcError) {
        return { status: 'partial', evidence: `${mcp.endpoint}${declared} answered initialize with a JSON-RPC error: ${mcp.jsonRpcError.slice(0, 120)}.` };
      }
      const initialize = describe(mcp.initialize);
      const discover = mcp.discover ? describe(mcp.discover) : initialize;
      const why = discover === initialize ? initialize : `server/discover: ${discover}; initialize: ${initialize}`;
      return { status: 'fail', evidence: `${mcp.endpoint}${declared} did not answer server/discover or initialize (${why}).` };
    }
    const who = answered(mcp);
    const commerce = mcp.tools.filter((t) => COMMERCE_TOOL.test(t));
    if (commerce.length > 0) {
      return { status: 'pass', evidence: `${mcp.endpoint}${declared} ${who}; ${mcp.tools.length} tools incl. ${commerce.slice(0, 5).join(', ')}.` };
    }
    const list = mcp.toolsList ? describe(mcp.toolsList) : 'not requested';
    const tools = mcp.tools.length > 0 ? `tools ${mcp.tools.slice(0, 5).join(', ')} are not commerce tools` : `tools/list gave no tools (${list})`;
    return { status: 'partial', evidence: `${mcp.endpoint}${declared} ${who}, but ${tools}.` };
  },
});
