// Serves the generated public documents: the MCP server card (at /mcp/server-card and the well-known path) and the catalogs pointing at it (AI Catalog, MCP catalog), /openapi.json, /llms.txt, /auth.md,
// /changelog.md, /robots.txt and the API catalog.
// Each is rendered once, when the app is built (BASE_URL and the limits are fixed for the life of the process), and
// sent with CORS * (public metadata, read-only) and Cache-Control public, max-age=3600. Other methods answer a
// JSON 405. The function-calling definitions (/api/v1/tools.json) mount with the API, see function-defs.ts.
import { Router, type RequestHandler } from 'express';
import type { Config } from '../lib/config.js';
import { methodNotAllowed } from '../http/method-not-allowed.js';
import { openApiDocument } from '../rest/openapi.js';
import { ROUTES, type RouteDef } from '../rest/routes.js';
import { authMd } from './auth-md.js';
import { WEBHOOKS_DOC_PATH, webhooksMd } from './webhooks-md.js';
import { llmsTxt } from './llms-txt.js';
import { changelogMd } from './changelog.js';
import { CHANGELOG_PATH } from '../lib/links.js';
import { robotsTxt } from './robots-txt.js';
import { API_CATALOG_PATH, API_CATALOG_TYPE, apiCatalog } from './api-catalog.js';
import { AI_CATALOG_PATH, AI_CATALOG_TYPE, MCP_CARD_PATH, MCP_CATALOG_PATH, SERVER_CARD_PATH, SERVER_CARD_TYPE, aiCatalog, mcpCatalog, serverCard } from './server-card.js';

export { functionDefsRouter } from './function-defs.js';

export const DOCUMENT_CACHE_CONTROL = 'public, max-age=3600';

interface Document {
  path: string;
  type: string;
  body: string;
  headers?: Record<string, string>;
}

export function documents(config: Config, routes: RouteDef[] = ROUTES): Document[] {
  const base = config.BASE_URL;
  const json = (value: unknown) => JSON.stringify(value);
  return [
    { path: SERVER_CARD_PATH, type: 'application/json; charset=utf-8', body: json(serverCard(base)) },
    { path: MCP_CARD_PATH, type: `${SERVER_CARD_TYPE}; charset=utf-8`, body: json(serverCard(base)) },
    { path: MCP_CATALOG_PATH, type: 'application/json; charset=utf-8', body: json(mcpCatalog(base)) },
    { path: AI_CATALOG_PATH, type: `${AI_CATALOG_TYPE}; charset=utf-8`, body: json(aiCatalog(base)) },
    { path: '/openapi.json', type: 'application/json; charset=utf-8', body: json(openApiDocument(base, routes)) },
    { path: '/llms.txt', type: 'text/plain; charset=utf-8', body: llmsTxt(base, routes, config.SCAN_MAX_REQUESTS) },
    { path: '/auth.md', type: 'text/markdown; charset=utf-8', body: authMd(config, routes) },
    { path: WEBHOOKS_DOC_PATH, type: 'text/markdown; charset=utf-8', body: webhooksMd(config) },
    { path: CHANGELOG_PATH, type: 'text/markdown; charset=utf-8', body: changelogMd() },
    { path: '/robots.txt', type: 'text/plain; charset=utf-8', body: robotsTxt(base) },
    {
      path: API_CATALOG_PATH,
      type: API_CATALOG_TYPE,
      body: json(apiCatalog(base)),
      // RFC 9727 §2: the catalog names itself with rel="api-catalog", so a HEAD request finds it too.
      headers: { Link: `<${base}${API_CATALOG_PATH}>; rel="api-catalog"` },
    },
  ];
}

export function wellKnownRouter(deps: { config: Config; routes?: RouteDef[] }): Router {
  const router = Router({ strict: true, caseSensitive: true });
  for (const doc of documents(deps.config, deps.routes)) {
    const send: RequestHandler = (_req, res) => {
      res.setHeader('Content-Type', doc.type);
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cache-Control', DOCUMENT_CACHE_CONTROL);
      for (const [name, value] of Object.entries(doc.headers ?? {})) res.setHeader(name, value);
      res.send(doc.body);
    };
    router.get(doc.path, send);
    router.all(doc.path, methodNotAllowed(['GET']));
  }
  return router;
}
