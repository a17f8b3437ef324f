// Is there an MCP server card that names the server and its endpoint, so agents can connect without guessing? Cards
// are found through the AI Catalog (/.well-known/ai-catalog.json) or the earlier MCP catalog, at the well-known
// card paths, or at <mcp-url>/server-card (docs/checks.md §11); the first card with a name and an endpoint passes.
// A card need not list tools (current cards do not). Accepts the SEP-2127 shape
// (remotes[].url) and the older SEP-1649 shape (transport.endpoint).
import { defineCheck } from '../check.js';
import type { CheckOutcome } from '../check.js';
import type { Resource } from '../../artifacts.js';
import { describe } from '../evidence.js';
import { isJsonType, jsonOf, responseOf } from '../../documents/resources.js';
import { readServerCardDoc } from '../../documents/protocol-documents.js';

const CATALOG_NAME = { 'ai-catalog': 'AI Catalog', 'mcp-catalog': 'MCP catalog' } as const;

/** One card judged: where it was read, and what the discovery document that pointed to it was. */
function judgeCard(resource: Resource, json: unknown, found: string): CheckOutcome {
  const res = responseOf(resource);
  const card = readServerCardDoc(jsonOf(resource, json));
  if (!res || !card) return { status: 'fail', evidence: `Server card ${describe(resource)}${found}: no JSON server card` };
  const type = isJsonType(res.contentType) ? '' : ` (served as ${res.contentType || 'no content type'})`;
  if (!card.name) return { status: 'fail', evidence: `${res.url}${type}${found}: the card has no name` };
  if (card.endpoints.length === 0) {
    return { status: 'fail', evidence: `${res.url}${type}${found}: card "${card.name.slice(0, 60)}" lists no endpoint (remotes[].url, transport.endpoint or endpoints)` };
  }
  return { status: 'pass', evidence: `${res.url}${type}${found}: "${card.name.slice(0, 60)}" at ${card.endpoints[0].slice(0, 120)}` };
}

export default defineCheck({
  id: 'protocol_mcp_server_card',
  label: 'MCP server card',
  title: 'An MCP server card advertises your endpoint',
  failureTitle: 'Publish an MCP server card',
  why: 'A server card, found through your AI Catalog or at a well-known path, tells agents that you run an MCP server, what it is called and where it lives.',
  how: 'Serve an AI Catalog at `/.well-known/ai-catalog.json` (`{"specVersion": "1.0", "entries": [{"identifier": "urn:air:<your-domain>:mcp:store", "type": "application/mcp-server-card+json", "url": "https://…/mcp/server-card"}]}`) pointing at your server card: JSON with `name`, `version`, `description` and the endpoint (`remotes: [{"type": "streamable-http", "url": "https://…/mcp"}]`). Older clients also read the card at `/.well-known/mcp/server-card.json`.',
  fix: {
    plain: 'Publish a short card that tells AI assistants your store offers a direct connection, what it is called and where it is.',
    effort: 'about an hour',
    steps: {
      shopify: 'This needs a developer (or an app) able to serve files at your domain’s well-known addresses.',
      woocommerce: 'Upload the two files to the root of the site, or use the plugin that provides your connection if it publishes them.',
      bigcommerce: 'This needs a developer (or an app) able to serve files at your domain’s well-known addresses.',
      custom: 'Serve the catalogue file and the card it points to; the detail is below.',
    },
  },
  run(a) {
    const outcomes: CheckOutcome[] = [];
    const cc = a.catalogCard;
    if (cc) {
      const name = CATALOG_NAME[cc.catalogKind];
      const found = cc.inline ? ` (carried inline in the ${name} ${cc.catalogUrl})` : ` (found through the ${name} ${cc.catalogUrl})`;
      outcomes.push(judgeCard(cc.resource, cc.json, found));
    }
    outcomes.push(judgeCard(a.serverCard, a.serverCardJson, ''));
    if (a.mcp?.card) outcomes.push(judgeCard(a.mcp.card, undefined, ` (at the card's home beside the MCP endpoint ${a.mcp.endpoint})`));
    const pass = outcomes.find((o) => o.status === 'pass');
    if (pass) return { status: 'pass', evidence: `${pass.evidence}.` };
    const catalog = cc || !a.mcpCatalog ? '' : `; catalog ${describe(a.mcpCatalog)}: no MCP server card entry`;
    return { status: 'fail', evidence: `${outcomes.map((o) => o.evidence).join('; ')}${catalog}.` };
  },
});
