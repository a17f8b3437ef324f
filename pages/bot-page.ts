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
    <li>Never a cart, checkout or account page, and never a form. The only POSTs are the two read-only MCP calls (<code>initialize</code>, <code>tools/list</code>) to an MCP endpoint your store announces. The buying journey below is the one exception: it walks to your checkout in a browser and stops there.</li>
  </ul>
</section>
<section class="card" aria-labelledby="journey-h">
  <h2 id="journey-h">The buying journey</h2>
  <p>Where our service has a browser, a scan of your store's home page also walks one product to your checkout the way a browser agent does, in headless Chromium, and reports whether an agent can buy there. It is not counted in the score.</p>
  <ul>
    <li>It opens your home page, types the product's name into your site search and presses Enter, opens the product page, presses "Accept" or "Close" on a cookie notice or pop-up that covers the buy button, chooses the first available size or colour where one is required, presses "Add to cart", opens the cart and presses "Checkout".</li>
    <li>It stops as soon as it sees the checkout, a sign-in page or a bot check. From then on the tab sends nothing: every request the page would make is refused.</li>
    <li>It never types anything but the product's name, and only into your search field; never fills in or submits a form with an e-mail address, an address, a password or card details; never presses "Place order", "Pay" or an express payment button. No order is ever placed.</li>
    <li>Where your store has an MCP server, it calls one read-only catalog tool with the product's name (at most three requests), never a tool about carts, checkout, orders or payment.</li>
    <li>It walks a store at most once every 10 minutes; later scans reuse the walk. It needs about 20 to 60 browser requests, within the same budget of 300 per scan as the browser view.</li>
    <li>To keep it off your store, give our scanner a group of its own in robots.txt that disallows your product pages or <code>/cart</code> (see below). The <code>*</code> group's rules for carts, meant for crawlers, do not stop it, as they do not stop a browser agent sent by a shopper.</li>
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
