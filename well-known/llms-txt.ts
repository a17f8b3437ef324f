// GET /llms.txt: the site summary for agents (llmstxt.org: an H1, a "> " summary, then sections of Markdown links),
// generated from the MCP tools, the function-calling tools and the route table so it cannot drift from them.
import { DIRECTORY_MEDIA_TYPE, DIRECTORY_PATH } from '../bot-auth/directory.js';
import { ROUTES, type RouteDef } from '../rest/routes.js';
import { deprecationNote } from '../rest/deprecation.js';
import { MCP_CURRENT_REVISION, mcpTools } from '../tools/mcp-tools.js';
import { MCP_PATH } from '../lib/links.js';
import type { AnyTool } from '../tools/tool.js';
import { functionTools } from './function-defs.js';
import { FUNCTION_DEFS_FORMATS, FUNCTION_DEFS_NAMES, FUNCTION_DEFS_PATHS, functionDefsUrl } from '../lib/links.js';
import { AI_CATALOG_PATH, MCP_CARD_PATH, MCP_CATALOG_PATH, SERVER_CARD_PATH } from './server-card.js';
import { CHANGELOG_PATH } from '../lib/links.js';
import { API_CATALOG_PATH } from '../lib/links.js';
import { RESOURCES, RESOURCE_TEMPLATES } from '../tools/resources/index.js';
import { PROMPTS } from '../tools/prompts/index.js';
import { WEBHOOKS_DOC_PATH } from './webhooks-md.js';
import { RENDER_BUDGET, RENDERED_PRODUCT_PAGES } from '../scan/fetching/render.js';

const firstSentence = (text: string): string => (/^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text).trim();

const AUTH_WORDS = { none: 'no key', optional: 'Pro key optional', pro: 'Pro key required' } as const;

/** How a custom agent runs a function-calling tool: the MCP tool of the same name, else its REST route. */
function executesAs(tool: AnyTool, routes: RouteDef[]): string {
  if (tool.expose.includes('mcp')) return `the MCP tool \`${tool.name}\``;
  const route = routes.find((r) => r.tool === tool && !r.deprecated);
  return route ? `${route.method.toUpperCase()} /api/v1${route.path}` : 'not callable here';
}

/** `scanMaxRequests`: SCAN_MAX_REQUESTS, the raw requests one scan may send, stated as this instance holds it. */
export function llmsTxt(baseUrl: string, routes: RouteDef[] = ROUTES, scanMaxRequests = 20): string {
  const toolLine = (t: AnyTool) => `- \`${t.name}\`: ${firstSentence(t.description)}`;
  // Plain GET paths are links; templated or POST paths are shown as code (a link would not work as written).
  const routeLines = routes.map((r) => {
    const label = `${r.method.toUpperCase()} /api/v1${r.path}`;
    const head = r.method === 'get' && !r.path.includes('{') ? `[${label}](${baseUrl}/api/v1${r.path})` : `\`${label}\``;
    return `- ${head}: ${r.summary} (${AUTH_WORDS[r.auth]}).${r.deprecated ? ` **${deprecationNote(r.deprecated)}**` : ''}`;
  });
  const deprecated = routes.filter((r) => r.deprecated);
  return [
    '# Store Readiness',
    '',
    '> Agent-readiness scores of e-commerce stores: can an AI shopping agent find, understand and buy there? ' +
      'Each audited store gets a score out of 100, a grade from A to E, per-pillar checks and prioritised fixes, ' +
      'kept in a public readiness index.',
    '',
    '## How agents should use this service',
    '',
    `- Prefer the MCP server at ${baseUrl}${MCP_PATH}: Streamable HTTP, JSON-RPC 2.0, no authentication; MCP ${MCP_CURRENT_REVISION} (stateless, \`server/discover\`) and 2025-11-25 / 2025-06-18 clients alike. Its tools read stored scores only and never contact or scan a store.`,
    '- A plain JSON-RPC POST with only `Content-Type: application/json` works: no Accept header, no session and no initialize call are needed.',
    '- Read before you recommend: check a store\'s readiness, then fetch the full report when you need to explain a score.',
    '- Scans are for merchants auditing their own store: do not scan third-party stores on a user\'s behalf. A store with no stored report returns an error whose `next_action` names the scan endpoint.',
    '- Only a scan of a store\'s own root sets its public score, badge and verification: `/` at the host as the index files it (no `www.`, no trailing dot) or at the origin its verified owner claimed; another spelling of the host counts only when it redirects there. A scan of any other page, or of a root that redirects to another site, is stored and reported with `public_entry: false` (and a note saying why) and changes none of them. A listed store keeps its vertical whatever a scan names; only its verified owner (in the console) or the operator changes it.',
    `- What a scan fetches: raw requests as crawlers see the store (the home page, robots.txt, sitemaps, llms.txt, well-known documents, up to two product pages where robots.txt allows, read-only MCP calls; at most ${scanMaxRequests} requests, no scripts), then, where the service has a headless Chromium, the browser view: the address scanned and up to ${RENDERED_PRODUCT_PAGES} of those product pages with scripts on, loading what they load (at most ${RENDER_BUDGET.maxRequests} requests per scan; reported beside the score, not in it). No cart, checkout, login or order, ever. Every request names the scanner and ${baseUrl}/bot.`,
    '- Owner verification: a `<meta name="store-readiness-verification">` in the `<head>` of the store\'s root, or the token on a line of its own in a `text/plain` `/.well-known/store-readiness.txt`, served by the claimed host itself. It lasts while the token stays: every verified claim is re-checked daily.',
    '- Every error is JSON with `code`, `message` and often a machine-readable `next_action`. A 429, or a 503 `SCANNER_BUSY` when every scanning place is taken, carries `Retry-After`; wait that long.',
    '',
    '## MCP tools',
    '',
    ...mcpTools().map(toolLine),
    '',
    '## MCP resources and prompts',
    '',
    ...RESOURCES.map((r) => `- Resource \`${r.uri}\` (${r.mimeType}): ${firstSentence(r.description)}`),
    ...RESOURCE_TEMPLATES.map((r) => `- Resource template \`${r.uriTemplate}\` (${r.mimeType}): ${firstSentence(r.description)}`),
    ...PROMPTS.map((p) => `- Prompt \`${p.name}\` (${Object.keys(p.args.shape).join(', ')}): ${firstSentence(p.description)}`),
    '- Completions: `completion/complete` suggests host names of the readiness index by prefix (best score first, at most 100) and store categories.',
    '',
    '## Function-calling definitions',
    '',
    `- ${FUNCTION_DEFS_FORMATS.map((f) => `[${FUNCTION_DEFS_NAMES[f]}](${functionDefsUrl(baseUrl, f)})`).join(' · ')}: the same tools in each model API's shape (OpenAI \`tools\`, Anthropic \`input_schema\`, Gemini \`functionDeclarations\`), from ${FUNCTION_DEFS_PATHS[0]}.`,
    ...functionTools().map((t) => `- \`${t.name}\` runs as ${executesAs(t, routes)}.`),
    '',
    '## REST API',
    '',
    `Canonical paths are under /api/v1; the unversioned /api alias answers the same. Breaking changes only ever ship under a new /vN prefix and are announced here and in the [changelog](${baseUrl}${CHANGELOG_PATH}).`,
    deprecated.length === 0
      ? 'No endpoint is deprecated at present.'
      : `Deprecated endpoints (they answer with Deprecation and Sunset headers until removed): ${deprecated.map((r) => `${r.method.toUpperCase()} /api/v1${r.path}`).join(', ')}.`,
    '',
    `- [GET /api/v1](${baseUrl}/api/v1): Discovery document listing every endpoint (no key).`,
    ...routeLines,
    '- `GET /badge/{host}.svg`: Score badge of a store, cached 1 hour (no key).',
    '- `GET /verify/{host}`: Redirect to the latest public report of a store (no key).',
    '',
    '## Pro API keys',
    '',
    `A merchant gets a Pro key in the [console](${baseUrl}/console): sign in with an e-mail link at ${baseUrl}/console/sign-in, then create a key on the API keys page (shown once). Send it as \`Authorization: Bearer <API_KEY>\`. The console also lists every scan run with the account's keys and the Pro usage. See [auth.md](${baseUrl}/auth.md).`,
    '',
    '## Machine-readable descriptions',
    '',
    `- [OpenAPI 3.1](${baseUrl}/openapi.json): every REST endpoint with its schemas and errors.`,
    `- [API catalog](${baseUrl}${API_CATALOG_PATH}): RFC 9727 linkset of the REST API and the MCP server.`,
    `- [Function-calling definitions](${baseUrl}${FUNCTION_DEFS_PATHS[0]}): for custom agents.`,
    `- [Authentication and limits](${baseUrl}/auth.md): anonymous use, Pro keys, rate limits, 401 and 429 handling.`,
    `- [Webhooks](${baseUrl}${WEBHOOKS_DOC_PATH}): events sent to a verified store owner's endpoint on every scan, signed per Standard Webhooks; headers, body, retries.`,
    `- [MCP server card](${baseUrl}${MCP_CARD_PATH}) (the same card at [the well-known path](${baseUrl}${SERVER_CARD_PATH})), found through the [AI Catalog](${baseUrl}${AI_CATALOG_PATH}) and the [MCP catalog](${baseUrl}${MCP_CATALOG_PATH}).`,
    `- [Changelog](${baseUrl}${CHANGELOG_PATH}): every change users can see, breaking changes and deprecations announced first.`,
    `- Markdown pages: send \`Accept: text/markdown\` to [the home page](${baseUrl}/), [the readiness index](${baseUrl}/index) or a report (\`/r/{scan_id}\`) for a compact Markdown version.`,
    '',
    '## How the scanner identifies itself to stores',
    '',
    `- Signed requests (Web Bot Auth, unless this instance turned signing off): every request in the scanner's own name carries \`Signature-Agent: sig1="${baseUrl}"\` and an Ed25519 HTTP Message Signature (RFC 9421) over the request's authority and that member, tagged \`web-bot-auth\`, valid 5 minutes. A site verifies it with the key whose JWK thumbprint is the \`keyid\`, from the [key directory](${baseUrl}${DIRECTORY_PATH}) (\`${DIRECTORY_MEDIA_TYPE}\`, itself signed by each key it lists), and may allow the scanner on that basis. [Who the scanner is and how to allow or refuse it](${baseUrl}/bot).`,
    `- Each AI agent's door: a scan of a store's root also asks its home page and one product page as each AI agent that matters for shopping (ChatGPT-User, Claude-User, Perplexity-User, MistralAI-User, the AI search indexers and training crawlers), with the agent's own user-agent followed by \`store-readiness-agents/1.0 (+${baseUrl}/bot)\`, unsigned, two at a time, under its own request cap; crawlers that robots.txt turns away are not asked. The report's \`agents\` part says what each got.`,
    '',
  ].join('\n');
}
