// GET /bot: the page the scanner's User-Agent points store owners to. Who the scanner is, the exact User-Agent
// strings it sends, what it fetches and what it never touches, and how to let it in or keep it out.
import type { RequestHandler } from 'express';
import type { Config } from '../lib/config.js';
import { AGENT_PROBE_UA, NEUTRAL_UA } from '../outbound/fetch.js';
import { SCANNER_TOKEN } from '../scan/documents/robots.js';
import { html, layout, PRODUCT_NAME, sendPage, type SafeHtml } from './html.js';
import { COPY_SCRIPT_SRC } from './console/layout.js';

export function renderBotPage(config: Pick<Config, 'BASE_URL' | 'SCAN_MAX_REQUESTS'>): SafeHtml {
  const base = config.BASE_URL;
  const refuse = `User-agent: ${SCANNER_TOKEN}\nDisallow: /`;
  return layout(
    { title: `Our scanner · ${PRODUCT_NAME}`, description: `Who the ${PRODUCT_NAME} scanner is, what it fetches and how to allow or refuse it.`, nav: null },
    html`<section class="card">
  <p class="eyebrow">For store owners</p>
  <h1>The ${PRODUCT_NAME} scanner</h1>
  <p class="lead">You found this address in your logs. Our scanner visits a store only when someone asks for a scan of it on this site or through our API, or when the store's verified owner has it re-scanned on a schedule. It reads the store the way an AI shopping agent would and scores how ready it is. It does not crawl the web.</p>
</section>
<section class="card" aria-labelledby="ua-h">
  <h2 id="ua-h">How it identifies itself</h2>
  <p>Every request carries one of two User-Agent strings:</p>
  <p class="snippet-label">Most requests</p>
  <pre class="snippet"><code data-testid="ua-neutral">${NEUTRAL_UA(base)}</code></pre>
  <p class="snippet-label">One request for your home page, to see whether AI agents get the same page as people</p>
  <pre class="snippet"><code data-testid="ua-probe">${AGENT_PROBE_UA(base)}</code></pre>
  <p>In robots.txt it answers to the token <code>${SCANNER_TOKEN}</code>.</p>
</section>
<section class="card" aria-labelledby="fetch-h">
  <h2 id="fetch-h">What it fetches</h2>
  <ul>
    <li>Your home page, <code>robots.txt</code>, sitemaps, <code>llms.txt</code> and the agent documents under <code>/.well-known/</code> (commerce profiles, MCP server card, API catalog).</li>
    <li>A few product pages, only where your robots.txt lets <code>${SCANNER_TOKEN}</code> in.</li>
    <li>At most ${config.SCAN_MAX_REQUESTS} requests per scan, redirects included; no JavaScript, no images.</li>
    <li>Never a cart, checkout or account page, and never a form. The only POSTs are the two read-only MCP calls (<code>initialize</code>, <code>tools/list</code>) to an MCP endpoint your store announces.</li>
  </ul>
</section>
<section class="card" aria-labelledby="control-h">
  <h2 id="control-h">Allow it or refuse it</h2>
  <h3 class="sub-h">Allow it</h3>
  <p>If your firewall or bot protection blocks unknown clients, allow the User-Agent strings above. A scan that is blocked scores the store as closed to AI agents.</p>
  <h3 class="sub-h">Keep it off your product pages</h3>
  <p>Add these lines to your robots.txt. The home page and the documents listed above are still read when a scan is asked for, as an agent would read them.</p>
  <pre class="snippet"><code id="bot-refuse">${refuse}</code></pre>
  <p><button class="button button-quiet" type="button" data-copy="bot-refuse">Copy</button></p>
  <h3 class="sub-h">Refuse it entirely</h3>
  <p>Block the User-Agent strings above at your firewall. Scans of your store then fail or report it as closed.</p>
</section>
<script src="${COPY_SCRIPT_SRC}"></script>`,
  );
}

export function botPage(config: Pick<Config, 'BASE_URL' | 'SCAN_MAX_REQUESTS'>): RequestHandler {
  const page = renderBotPage(config);
  return (_req, res) => void sendPage(res, page, { script: true, cacheControl: 'public, max-age=3600' });
}
