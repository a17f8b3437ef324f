// GET /api/v1 and /api for a browser: the REST API explained as a page (what each route does, which key it
// needs, where the machine-readable documents are). Programs keep the JSON discovery document: only a request
// that prefers text/html over JSON gets this page (curl's "*/*" and fetch's default stay JSON).
import type { Request, RequestHandler } from 'express';
import { API_CATALOG_PATH, MCP_PATH } from '../lib/links.js';
import { html, layout, PRODUCT_NAME, sendPage, type SafeHtml } from './html.js';
import { COPY_SCRIPT_SRC } from './console/layout.js';

/** A browser's navigation: HTML ranks above JSON in its Accept header. */
export const prefersHtml = (req: Request, others: string[] = ['application/json']): boolean =>
  req.accepts([...others, 'text/html']) === 'text/html';

/** What the page reads of a route of the REST table (rest/routes.ts RouteDef): the page knows no more of it. */
export interface ApiRouteLine {
  method: string;
  path: string;
  summary: string;
  auth: 'none' | 'optional' | 'pro';
}

const AUTH: Record<ApiRouteLine['auth'], string> = {
  none: 'No key',
  optional: 'Key optional (raises the limits)',
  pro: 'Pro key',
};

export function renderApiPage(baseUrl: string, routes: ApiRouteLine[]): SafeHtml {
  const example = `curl "${baseUrl}/api/v1/scan?url=https://your-store.example"`;
  return layout(
    { title: `REST API · ${PRODUCT_NAME}`, description: `The ${PRODUCT_NAME} REST API: scan a store, read stored reports, ranks and briefs.`, nav: null },
    html`<section class="card">
  <p class="eyebrow">For developers</p>
  <h1>REST API</h1>
  <p class="lead">JSON over HTTPS under <code>${baseUrl}/api/v1</code>. Reads of stored reports need no key; scans are limited per hour, and a Pro key raises the limits and opens the agent brief.</p>
  <p>Programs that ask for JSON at this address get the discovery document; this page is what a browser sees.</p>
  <pre class="snippet"><code id="api-example">${example}</code></pre>
  <p><button class="button button-quiet" type="button" data-copy="api-example">Copy</button></p>
</section>
<section class="card" aria-labelledby="routes-h">
  <h2 id="routes-h">Endpoints</h2>
  <div class="table-wrap"><table class="ranking api-routes">
    <thead><tr><th scope="col">Call</th><th scope="col">What it does</th><th scope="col">Key</th></tr></thead>
    <tbody>${routes.map(
      (r) => html`<tr>
      <td data-label="Call"><code>${r.method.toUpperCase()} /api/v1${r.path}</code></td>
      <td data-label="What it does">${r.summary}</td>
      <td data-label="Key">${AUTH[r.auth]}</td>
    </tr>`,
    )}</tbody>
  </table></div>
</section>
<section class="card" aria-labelledby="docs-h">
  <h2 id="docs-h">Documents for your tools</h2>
  <ul>
    <li><a href="/openapi.json">OpenAPI 3.1 description</a> (JSON) for client generators.</li>
    <li><a href="/auth.md">Keys, limits and errors</a>: how to get a Pro key and what each error means.</li>
    <li><a href="${API_CATALOG_PATH}">API catalog</a> and <a href="/llms.txt">llms.txt</a> for agents.</li>
    <li><a href="${MCP_PATH}">The MCP server</a>: the same reads for AI assistants.</li>
  </ul>
</section>
<script src="${COPY_SCRIPT_SRC}"></script>`,
  );
}

/** In front of the JSON discovery document: browsers get the page, everyone else falls through to the JSON. */
export function apiPageForBrowsers(baseUrl: string, routes: ApiRouteLine[]): RequestHandler {
  const page = renderApiPage(baseUrl, routes);
  return (req, res, next) => {
    if (!prefersHtml(req)) return next();
    sendPage(res, page, { script: true, headers: { Vary: 'Accept' } });
  };
}
