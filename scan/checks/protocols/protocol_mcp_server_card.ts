// Is there an MCP server card that names the server and its endpoint, so agents can connect without guessing?
// Accepts the SEP-2127 shape (remotes[].url) and the older SEP-1649 shape (transport.endpoint), the draft still moves.
import { defineCheck } from '../../check.js';
import { describe } from '../evidence.js';
import { isJsonType, responseOf } from '../resources.js';
import { readServerCard } from '../../protocol-documents.js';

export default defineCheck({
  id: 'protocol_mcp_server_card',
  pillar: 'protocols',
  order: 3,
  points: 1,
  partialPoints: 0,
  label: 'MCP server card',
  title: 'An MCP server card advertises your endpoint',
  failureTitle: 'Publish an MCP server card',
  why: 'A server card at a well-known path tells agents that you run an MCP server, what it is called and where it lives.',
  how: 'Serve `/.well-known/mcp/server-card.json` (JSON) with `name`, `version`, `description` and the endpoint (`remotes: [{"type": "streamable-http", "url": "https://…/mcp"}]`), so agents can connect without guessing.',
  run(a) {
    const res = responseOf(a.serverCard);
    const card = readServerCard(a);
    if (!res || !card) return { status: 'fail', evidence: `Server card ${describe(a.serverCard)}: no JSON server card.` };
    const type = isJsonType(res.contentType) ? '' : ` (served as ${res.contentType || 'no content type'})`;
    if (!card.name) return { status: 'fail', evidence: `${res.url}${type}: the card has no name.` };
    if (card.endpoints.length === 0) return { status: 'fail', evidence: `${res.url}${type}: card "${card.name.slice(0, 60)}" lists no endpoint (remotes[].url, transport.endpoint or endpoints).` };
    return { status: 'pass', evidence: `${res.url}${type}: "${card.name.slice(0, 60)}" at ${card.endpoints[0].slice(0, 120)}.` };
  },
});
