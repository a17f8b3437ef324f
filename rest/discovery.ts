// GET /api/v1: the discovery document (version and versioning included), generated from the route table plus the few
// non-API surfaces (MCP, badge, verify, well-known documents).
import { ROUTES, type RouteDef } from './routes.js';
import { API_CATALOG_PATH, CHANGELOG_PATH } from '../lib/links.js';
import { SERVICE_VERSION } from '../lib/version.js';

export function discoveryDocument(baseUrl: string, routes: RouteDef[] = ROUTES) {
  const api = routes.map((r) => ({
    method: r.method.toUpperCase(),
    path: `/api/v1${r.path}`,
    url: `${baseUrl}/api/v1${r.path}`,
    summary: r.summary,
    auth: r.auth === 'pro' ? 'pro_bearer_key' : r.auth === 'optional' ? 'optional_pro_bearer_key' : 'none',
    tool: r.tool.name,
    ...(r.deprecated ? { deprecated: r.deprecated } : {}),
  }));
  const other = [
    { method: 'GET', path: '/api/v1', summary: 'This discovery document', auth: 'none' },
    { method: 'GET', path: '/api/v1/tools.json', summary: 'Function-calling tool definitions (OpenAI shape; ?format=anthropic or ?format=gemini)', auth: 'none' },
    { method: 'POST', path: '/mcp', summary: 'MCP server (Streamable HTTP, JSON-RPC 2.0); reads stored scores only', auth: 'none' },
    { method: 'GET', path: '/badge/{host}.svg', summary: 'Score badge (SVG), cached 1 hour', auth: 'none' },
    { method: 'GET', path: '/verify/{host}', summary: '302 to the latest public report of a store', auth: 'none' },
    { method: 'GET', path: '/r/{scan_id}', summary: 'Shareable HTML report', auth: 'none' },
  ].map((e) => ({ ...e, url: `${baseUrl}${e.path}` }));
  return {
    name: 'store-readiness',
    description: 'Audits e-commerce stores for agent-readiness: can an AI shopping agent find, understand and buy there?',
    version: SERVICE_VERSION,
    status: 'ok',
    openapi: `${baseUrl}/openapi.json`,
    mcp: `${baseUrl}/mcp`,
    llms_txt: `${baseUrl}/llms.txt`,
    auth_guide: `${baseUrl}/auth.md`,
    changelog: `${baseUrl}${CHANGELOG_PATH}`,
    api_catalog: `${baseUrl}${API_CATALOG_PATH}`,
    endpoints: [...api, ...other],
    versioning: {
      current: 'v1',
      canonical_prefix: '/api/v1',
      aliases: ['/api'],
      policy:
        'Breaking changes ship only under a new /vN prefix. A deprecated endpoint keeps working for at least 6 months and answers with Deprecation (RFC 9745) and Sunset (RFC 8594) headers and a successor-version link.',
      // Nothing is deprecated at present, so this list is empty until a route row says otherwise.
      deprecated: routes.filter((r) => r.deprecated).map((r) => ({ method: r.method.toUpperCase(), path: `/api/v1${r.path}`, ...r.deprecated })),
    },
  };
}
