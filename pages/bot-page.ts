// GET /bot: the page the scanner's User-Agent points store owners to. Who the scanner is, the exact User-Agent
// strings it sends, what it fetches and what it never touches, and how to let it in or keep it out.
import type { RequestHandler } from 'express';
import type { Config } from '../lib/config.js';
import { AGENT_PROBE_UA, BROWSER_UA, NEUTRAL_UA } from '../outbound/fetch.js';
import { SIGNATURE_TTL_MS } from '../outbound/request-signer.js';
import { AGENTS, matrixUserAgent } from '../scan/agents/table.js';
import { DIRECTORY_MEDIA_TYPE, DIRECTORY_PATH } from '../bot-auth/directory.js';
import { RENDER_BUDGET, RENDERED_PRODUCT_PAGES } from '../scan/fetching/render.js';
import { SCANNER_TOKEN } from '../scan/documents/robots.js';
import { html, layout, PRODUCT_NAME, sendPage, type SafeHtml } from './html.js';
import { COPY_SCRIPT_SRC } from './console/layout.js';

type BotConfig = Pick<Config, 'BASE_URL' | 'SCAN_MAX_REQUESTS' | 'SIGN_REQUESTS' | 'AGENTS_MAX_REQUESTS' | 'RENDER_TIMEOUT_MS'>;

export function renderBotPage(config: BotConfig): SafeHtml {
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
  <p>Every request carries one of three User-Agent strings, and each names the scanner and links to this page (on a scan of a store's root, the requests made as each AI agent carry that agent's own string followed by the scanner's name: see "Asking as each AI agent" below):</p>
  <p class="snippet-label">Most requests</p>
  <pre class="snippet"><code data-testid="ua-neutral">${NEUTRAL_UA(base)}</code></pre>
  <p class="snippet-label">Two requests for your home page and first product page, to see whether AI agents get the same page as people</p>
  <pre class="snippet"><code data-testid="ua-probe">${AGENT_PROBE_UA(base)}</code></pre>
  <p class="snippet-label">The browser view: everything the headless browser loads (its Chromium version in place of &lt;version&gt;)</p>
  <pre class="snippet"><code data-testid="ua-browser">${BROWSER_UA(base, '<version>')}</code></pre>
  <p>In robots.txt it answers to the token <code>${SCANNER_TOKEN}</code>.</p>
</section>
<section class="card" aria-labelledby="fetch-h">
  <h2 id="fetch-h">What it fetches</h2>
  <p>A scan reads your store twice: as crawlers and retrieval fetchers do, then as agents that shop in a browser do.</p>
  <h3 class="sub-h">Raw requests, as crawlers see the store</h3>
  <ul>
    <li>Your home page, <code>robots.txt</code>, sitemaps, <code>llms.txt</code> and the agent documents under <code>/.well-known/</code> (commerce profiles, MCP server card and catalog, API catalog).</li>
    <li>Up to two product pages (trying at most five product links), only where your robots.txt lets <code>${SCANNER_TOKEN}</code> in, and the first of them once more asking for Markdown.</li>
    <li>The read-only MCP calls (<code>server/discover</code> or <code>initialize</code>, then <code>tools/list</code>) to an MCP endpoint your store announces: the only POSTs.</li>
    <li>At most <strong data-testid="raw-requests">${config.SCAN_MAX_REQUESTS}</strong> requests per scan, redirects included, each with a size and time cap. These requests run no scripts and load no images or styles.</li>
  </ul>
  <h3 class="sub-h">The browser view, as browser agents see it</h3>
  <ul>
    <li>Where this service has a headless Chromium, the scan then opens the address it was given and at most <strong data-testid="browser-product-pages">${RENDERED_PRODUCT_PAGES}</strong> of the product pages above in it, with scripts on, and reads them as a browser agent would.</li>
    <li>The browser loads what those pages load, as any visitor's browser does: scripts, styles, images, fonts and the requests the scripts make. At most <strong data-testid="browser-requests">${RENDER_BUDGET.maxRequests}</strong> requests and ${RENDER_BUDGET.maxBytes / 1024 / 1024} MiB per scan, within ${Math.round(config.RENDER_TIMEOUT_MS / 1000)} seconds.</li>
    <li>It clicks nothing, types nothing, submits no form, accepts no cookie notice and keeps no other window open.</li>
  </ul>
  <p>Neither ever requests a cart, checkout or account page, places an order or sends personal data.</p>
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
${signedSection(config)}
${agentsSection(config)}
<script src="${COPY_SCRIPT_SRC}"></script>`,
  );
}

/** How a site verifies the scanner's signatures (Web Bot Auth) and lets it in on that basis. */
function signedSection(config: BotConfig): SafeHtml {
  const base = config.BASE_URL;
  if (!config.SIGN_REQUESTS) {
    return html`<section class="card" aria-labelledby="signed-h"><h2 id="signed-h">Signed requests</h2><p>This instance does not sign its requests: allow or refuse it by its User-Agent.</p></section>`;
  }
  const example = `Signature-Agent: sig1="${base}"\nSignature-Input: sig1=("@authority" "signature-agent";key="sig1");created=…;expires=…;keyid="…";alg="ed25519";nonce="…";tag="web-bot-auth"\nSignature: sig1=:…:`;
  return html`<section class="card" aria-labelledby="signed-h">
  <h2 id="signed-h">Signed requests (Web Bot Auth)</h2>
  <p>Every request in the scanner's own name is signed, so your CDN or firewall can tell it from anyone who copies the User-Agent. It follows the IETF Web Bot Auth draft: an HTTP Message Signature (RFC 9421, Ed25519) over the request's host and the <code>Signature-Agent</code> that names this service, valid ${SIGNATURE_TTL_MS / 60_000} minutes.</p>
  <pre class="snippet"><code data-testid="signature-example">${example}</code></pre>
  <h3 class="sub-h">Verify a request</h3>
  <ol>
    <li>Fetch the key directory named by <code>Signature-Agent</code>: <a href="${base}${DIRECTORY_PATH}">${base}${DIRECTORY_PATH}</a>, a JWK set served as <code>${DIRECTORY_MEDIA_TYPE}</code> and signed by every key it lists.</li>
    <li>Take the key whose JWK thumbprint (RFC 7638) is the signature's <code>keyid</code>.</li>
    <li>Check the Ed25519 signature over <code>@authority</code> and the <code>Signature-Agent</code> member, with <code>tag="web-bot-auth"</code>, between <code>created</code> and <code>expires</code>. Libraries do this for you, for example <code>web-bot-auth</code> on npm.</li>
  </ol>
  <h3 class="sub-h">Allow it on that basis</h3>
  <p>Where your CDN or firewall lets you allow requests by a verified signature (Cloudflare's signed-agent and verified-bot settings, a WAF skip rule, or your own middleware), add this directory. Keys rotate from time to time: a new key is listed here 6 minutes before it signs, and an old one stays listed until its signatures have expired.</p>
</section>`;
}

/** The requests a scan of a store's root sends as each AI agent. */
function agentsSection(config: BotConfig): SafeHtml {
  const asked = AGENTS.filter((a) => a.userAgent !== null);
  const names = asked.map((a) => a.name).join(', ');
  // Every string, not one example: an owner matching logs or writing an allow rule needs the exact text.
  const strings = asked.map((a) => html`<li><code data-testid="ua-agent">${matrixUserAgent(a, config.BASE_URL)}</code></li>`);
  return html`<section class="card" aria-labelledby="as-agents-h">
  <h2 id="as-agents-h">Asking as each AI agent</h2>
  <p>On a scan of a store's root the scanner also asks your home page and one product page as each AI agent that matters for shopping (${names}), to show you which of them your firewall lets in and whether they see the prices and stock people see. Each of those requests sends the agent's own User-Agent followed by ours:</p>
  <ul class="ua-list">${strings}</ul>
  <p>They are not signed (we cannot sign for those agents), at most two per agent and two at a time, at most <strong data-testid="agents-requests">${config.AGENTS_MAX_REQUESTS}</strong> per scan beside the ${config.SCAN_MAX_REQUESTS} of the scan itself; crawlers your robots.txt turns away are not asked, and once your store has answered the first agents as it answers a browser the others are sampled, not asked.${config.SIGN_REQUESTS ? ' Because this instance signs its own requests, one of those pages is also asked once unsigned with the scanner\'s own User-Agent, within the same cap, so the report can tell what the signature changes from what the agent\'s name changes.' : ''}</p>
</section>`;
}

export function botPage(config: BotConfig): RequestHandler {
  const page = renderBotPage(config);
  return (_req, res) => void sendPage(res, page, { script: true, cacheControl: 'public, max-age=3600' });
}
