// GET /mcp for a browser: how to connect an assistant to the MCP server (Claude, Claude Code, other clients),
// the tools it offers and the server card. MCP clients never get this page: their GET asks for an event stream
// and their POSTs carry JSON-RPC, so only a request that prefers text/html is answered here.
import type { RequestHandler } from 'express';
import { MCP_PATH } from '../lib/links.js';
import { TOOLS } from '../tools/index.js';
import { html, layout, PRODUCT_NAME, sendPage, type SafeHtml } from './html.js';
import { prefersHtml } from './api-page.js';
import { COPY_SCRIPT_SRC } from './console/layout.js';

export function renderMcpPage(baseUrl: string): SafeHtml {
  const url = `${baseUrl}${MCP_PATH}`;
  const tools = TOOLS.filter((t) => t.expose.includes('mcp'));
  const claudeCode = `claude mcp add --transport http store-readiness ${url}`;
  const config = JSON.stringify({ mcpServers: { 'store-readiness': { type: 'http', url } } }, null, 2);
  return layout(
    { title: `MCP server · ${PRODUCT_NAME}`, description: `Connect an AI assistant to ${PRODUCT_NAME}'s readiness index over MCP.`, nav: null },
    html`<section class="card">
  <p class="eyebrow">For AI assistants</p>
  <h1>MCP server</h1>
  <p class="lead">Let an assistant look up how ready a store is for AI shopping agents before it shops, compares or recommends. Streamable HTTP, no key, read-only: it answers from stored scans and never scans a store.</p>
  <p class="snippet-label">Server address</p>
  <pre class="snippet"><code id="mcp-url">${url}</code></pre>
  <p><button class="button button-quiet" type="button" data-copy="mcp-url">Copy the address</button></p>
</section>
<section class="card" aria-labelledby="connect-h">
  <h2 id="connect-h">Connect</h2>
  <h3 class="sub-h">Claude (web and desktop)</h3>
  <p>Settings → Connectors → <strong>Add custom connector</strong>, name it ${PRODUCT_NAME} and paste the server address. No sign-in is needed.</p>
  <h3 class="sub-h">Claude Code</h3>
  <pre class="snippet"><code id="mcp-claude-code">${claudeCode}</code></pre>
  <p><button class="button button-quiet" type="button" data-copy="mcp-claude-code">Copy</button></p>
  <h3 class="sub-h">Other clients</h3>
  <p>Any client that speaks MCP over Streamable HTTP connects with the address; most read a configuration like this one:</p>
  <pre class="snippet"><code id="mcp-config">${config}</code></pre>
  <p><button class="button button-quiet" type="button" data-copy="mcp-config">Copy</button></p>
  <p>Clients that discover servers read the <a href="/.well-known/mcp/server-card.json">server card</a>.</p>
</section>
<section class="card" aria-labelledby="tools-h">
  <h2 id="tools-h">Tools</h2>
  <dl class="tool-list">${tools.map((t) => html`<dt><code>${t.name}</code> ${t.title}</dt><dd>${t.description}</dd>`)}</dl>
  <p class="muted small">Scanning is for a store's owner, on this site or through the <a href="/api/v1">REST API</a>.</p>
</section>
<script src="${COPY_SCRIPT_SRC}"></script>`,
  );
}

/** In front of the MCP endpoint: a browser's GET gets the page; MCP clients go on to the server. */
export function mcpPageForBrowsers(baseUrl: string): RequestHandler {
  const page = renderMcpPage(baseUrl);
  return (req, res, next) => {
    if (!prefersHtml(req, ['text/event-stream', 'application/json'])) return next();
    sendPage(res, page, { script: true, headers: { Vary: 'Accept' } });
  };
}
