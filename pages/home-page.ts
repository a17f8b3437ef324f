// GET / (what the service does, the scan form, the top of the index, developer links; Markdown on request) and
// POST /scan, the form's target: it runs the scan_store tool behind the same auth and scan limiter as
// GET /api/v1/scan, then 303s to the new report. Errors re-render this page in plain words with the error's status.
// As on the API, only a form that starts a scan spends quota: the fields are checked before the limiter counts.
import type { RequestHandler } from 'express';
import { AppError, GENERIC_INTERNAL_MESSAGE } from '../lib/errors.js';
import { answerableError } from '../lib/http-errors.js';
import type { ServiceMetrics } from '../lib/metrics.js';
import { VERTICALS } from '../schemas/params.js';
import { PILLARS } from '../scan/checks/pillars.js';
import { pillarMax } from '../scan/checks/rubric.js';
import { CHECKS } from '../scan/checks/registry.js';
import { scanStore } from '../tools/scan-store.js';
import { invoke } from '../tools/invoke.js';
import type { SurfaceDeps } from '../http/guards.js';
import { requestContext, runGuard } from '../http/request-context.js';
import { crossSiteRefusal } from '../lib/cross-site.js';
import { GRADE_MEANING, PRODUCT_NAME, SCAN_SCRIPT_PATH, SCAN_SCRIPT_VERSION, gradePill, html, layout, sendPage, verticalLabel, type GradeLetter, type SafeHtml } from './html.js';
import { mdText, negotiatedHeaders, sendMarkdown, wantsMarkdown } from './markdown.js';
import { API_CATALOG_PATH } from '../lib/links.js';
import { CHANGELOG_PATH } from '../lib/links.js';
import { MCP_PATH } from '../lib/links.js';
import type { RankRow } from '../db/repo.js';
import { accountOfRequest } from './console/session.js';
import { rememberScanBeforeSignIn, type ScansCookieDeps } from './console/scans-before-sign-in.js';

/** docs/checks.md §6. */
const GRADE_BANDS: [GradeLetter, string][] = [
  ['A', '85–100'],
  ['B', '70–84'],
  ['C', '55–69'],
  ['D', '40–54'],
  ['E', '0–39'],
];

export interface HomeForm {
  url?: string;
  vertical?: string;
}

interface PlainError {
  status: number;
  headline: string;
  detail?: string;
  /** The next step, when there is one to link to. */
  next?: { href: string; label: string };
  headers?: Record<string, string>;
}

const minutes = (seconds: number): string => {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} seconds`;
  const m = Math.ceil(seconds / 60);
  return m === 1 ? 'a minute' : `${m} minutes`;
};

/** What went wrong, for a merchant rather than a program: one headline, one line of detail at most. */
export function plainError(err: AppError, form: HomeForm): PlainError {
  const base = { status: err.status, headers: err.headers };
  switch (err.code) {
    case 'MISSING_URL':
      return { ...base, headline: 'Enter your store’s address to scan it, for example https://shop.example.com.' };
    case 'INVALID_URL':
      return { ...base, headline: 'We can’t scan that address.', detail: err.message };
    case 'INVALID_PARAMS':
      return { ...base, headline: 'Something in the form is not right.', detail: err.message };
    case 'SCANNER_BUSY':
      return { ...base, headline: 'The scanner is busy right now.', detail: 'Every scanning place is taken. Nothing was scanned and nothing was counted; try again in a few seconds.' };
    case 'CROSS_SITE_REFUSED':
      return { ...base, headline: 'Scans can only be started from this site’s own form.', detail: 'Another site sent this form; nothing was scanned and nothing was counted.' };
    case 'RATE_LIMITED': {
      const retry = Number(err.headers?.['Retry-After']);
      return {
        ...base,
        headline: 'You have reached the scan limit for now.',
        detail: `Scans are limited per hour to keep the service fair for everyone.${
          Number.isFinite(retry) && retry > 0 ? ` You can scan again in ${minutes(retry)}.` : ' Please try again later.'
        } Reports and the index stay available meanwhile. Signed in, you scan on your account’s larger monthly quota.`,
        next: { href: '/console/sign-in', label: 'Sign in for a larger quota' },
      };
    }
    case 'SCAN_TIMEOUT':
      return {
        ...base,
        headline: 'Your store took too long to answer.',
        detail: 'We could not get the home page in time. Check that the store is online and not behind a password page, then try again.',
      };
    case 'STORE_UNREACHABLE':
      return { ...base, headline: `We could not reach ${hostOf(form.url) ?? 'that store'}.`, detail: unreachableDetail(err.message) };
    case 'SERVICE_UNAVAILABLE':
      return { ...base, headline: 'We are busy right now.', detail: 'Too many scans are running at once. Please try again in a minute.' };
    case 'UNAUTHORIZED':
      return { ...base, headline: 'Your API key was not accepted.', detail: err.message };
    case 'PAYLOAD_TOO_LARGE':
    case 'INVALID_BODY':
      return { ...base, headline: 'The form could not be read.', detail: 'Please type the store address again.' };
    default:
      return { ...base, headline: 'Something went wrong on our side.', detail: GENERIC_INTERNAL_MESSAGE };
  }
}

/** The scanner's reason, read for the step that fixes it: a certificate, a name, a closed port. */
function unreachableDetail(message: string): string {
  // A TLS handshake answered by a plain-HTTP server fails with a protocol error, not a certificate one.
  if (/EPROTO|wrong version number|packet length too long|http request/i.test(message)) {
    return 'The address did not answer over HTTPS: a plain-HTTP server answers this way. Type the address without https:// (we then try https, then http) or with http://, then scan again.';
  }
  if (/certificate|CERT_|SSL|TLS|self[- ]signed/i.test(message)) {
    return 'The store’s HTTPS certificate could not be trusted (expired, self-signed or issued for another name). Open the address in a browser: if it warns too, renew or fix the certificate, then scan again.';
  }
  if (/ENOTFOUND|EAI_AGAIN|getaddrinfo|not resolve/i.test(message)) {
    return 'That name does not resolve to any server. Check the address for typos, or that the domain is set up.';
  }
  if (/ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|socket hang up/i.test(message)) {
    return 'The server refused or dropped the connection. Check the address and that the store is online, then scan again.';
  }
  return 'The store did not answer our request. Check the address and that the site is online, then scan again.';
}

function hostOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(/^https?:\/\//i.test(url.trim()) ? url.trim() : `https://${url.trim()}`).host || null;
  } catch {
    return null;
  }
}

const one = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export const HOME_TITLE = `${PRODUCT_NAME}: is your store ready for AI shopping agents?`;

/** GET / as Markdown: what the service is, how to scan and read scores, the top of the index, the documents. */
export function renderHomeMarkdown(top: RankRow[], baseUrl: string): string {
  return [
    `# ${HOME_TITLE}`,
    '',
    `> Lighthouse for agentic commerce. ${PRODUCT_NAME} reads a store the way ChatGPT, Claude and Perplexity shopping agents do and scores whether they can find, understand and buy there: a score out of 100, a grade from A to E and prioritised fixes, kept in a public readiness index.`,
    '',
    '## Use it',
    '',
    `- Read stored scores through the MCP server at ${baseUrl}${MCP_PATH} (Streamable HTTP, no key); it never scans.`,
    `- Merchants scan their own store: \`GET ${baseUrl}/api/v1/scan?url=https://your-store.example\` (a few seconds, JSON), or the form on this page.`,
    `- Every store's report: \`${baseUrl}/r/{scan_id}\`, also as Markdown with \`Accept: text/markdown\`.`,
    '',
    '## Top of the readiness index',
    '',
    ...(top.length === 0
      ? ['No store has been scanned yet.']
      : [
          '| Rank | Store | Score | Grade |',
          '|---|---|---|---|',
          ...top.map((r) => `| ${r.rank} | [${mdText(r.host, 253)}](${baseUrl}/r/${r.scanId}) | ${r.score} | ${mdText(r.grade, 1)} |`),
        ]),
    '',
    `[The whole index](${baseUrl}/index)`,
    '',
    '## Grades',
    '',
    ...GRADE_BANDS.map(([g, range]) => `- **${g}** (${range}): ${GRADE_MEANING[g]}`),
    '',
    '## For developers and agents',
    '',
    `- [llms.txt](${baseUrl}/llms.txt): how agents should use this service.`,
    `- [REST API](${baseUrl}/api/v1): the discovery document; [OpenAPI 3.1](${baseUrl}/openapi.json).`,
    `- [API catalog](${baseUrl}${API_CATALOG_PATH}) and [MCP server card](${baseUrl}/.well-known/mcp/server-card.json).`,
    `- [Authentication and limits](${baseUrl}/auth.md) and the [changelog](${baseUrl}${CHANGELOG_PATH}).`,
    '',
  ].join('\n');
}

export async function renderHomePage(
  deps: Pick<SurfaceDeps, 'db'>,
  form: HomeForm,
  error?: PlainError,
  signedInAs?: string,
): Promise<SafeHtml> {
  const top = await deps.db.topStores({ limit: 10 });
  const vertical = form.vertical && (VERTICALS as readonly string[]).includes(form.vertical) ? form.vertical : '';
  const body = html`
<section class="card home-hero">
  <div class="home-top">
    <div class="home-intro">
      <p class="eyebrow">Lighthouse for agentic commerce</p>
      <h1>Can AI shopping agents buy from your store?</h1>
      <p class="lead">${PRODUCT_NAME} visits your store the way ChatGPT, Claude and Perplexity shopping agents do and checks whether they can find your products, understand them and buy. You get a score out of 100, a grade from A to E and a prioritised list of fixes, usually within a few seconds.</p>
    </div>
    <ol class="steps" aria-label="How it works">
      <li><div><strong>Enter your store’s address</strong><span>Any public storefront: Shopify, WooCommerce or your own.</span></div></li>
      <li><div><strong>We read it like an agent</strong><span>robots.txt, product pages, structured data, policies and agent protocols.</span></div></li>
      <li><div><strong>Get your score and fixes</strong><span>A shareable report, a badge for your site and the fixes that win the most points.</span></div></li>
    </ol>
  </div>
  ${error
    ? html`<div class="alert alert-error" role="alert" id="scan-error">
    <p class="alert-title"><span aria-hidden="true">!</span> ${error.headline}</p>
    ${error.detail ? html`<p>${error.detail}</p>` : ''}
    ${error.next ? html`<p><a href="${error.next.href}">${error.next.label}</a></p>` : ''}
  </div>`
    : ''}
  <form class="scan-form" method="post" action="/scan">
    <div class="field field-url">
      <label for="url">Your store’s address</label>
      <input id="url" name="url" type="text" inputmode="url" autocomplete="url" spellcheck="false" autocapitalize="off" required maxlength="2048" placeholder="https://your-store.com" value="${form.url ?? ''}"${error ? html` aria-describedby="scan-error"` : ''}>
    </div>
    <div class="field field-vertical">
      <label for="vertical">Category <span class="optional">(optional)</span></label>
      <select id="vertical" name="vertical">
        <option value="">Any category</option>
        ${VERTICALS.map((v) => html`<option value="${v}"${v === vertical ? html` selected` : ''}>${verticalLabel(v)}</option>`)}
      </select>
    </div>
    <button class="button button-primary" type="submit">Scan my store</button>
  </form>
  <p class="scan-progress" id="scan-progress" role="status" aria-live="polite" hidden></p>
  ${signedInAs ? html`<p class="muted small" id="signed-in-scan">Signed in as ${signedInAs}: your scans use your Pro quota and appear in <a href="/console/scans">your console</a>.</p>` : ''}
  <p class="small muted">Free, no sign-up. Meant for your own store: we read public pages only, as crawlers do (raw HTML, no scripts) and as browser agents do (a headless browser with scripts on), never a login, a cart or a checkout, and publish the score in the readiness index. <a href="/bot">What our scanner fetches</a>.</p>
</section>

<div class="grid grid-2">
  <section class="card" aria-labelledby="top-h">
    <h2 id="top-h">Top of the readiness index</h2>
    ${top.length === 0
      ? html`<p class="empty">No store has been scanned yet. Be the first!</p>`
      : html`<table class="ranking">
      <thead><tr><th scope="col">Rank</th><th scope="col">Store</th><th scope="col" class="num">Score</th></tr></thead>
      <tbody>${top.map(
        (row) => html`<tr>
          <td>#${row.rank}</td>
          <td><a href="/r/${row.scanId}">${row.host}</a></td>
          <td class="num">${row.score} ${gradePill(row.grade)}</td>
        </tr>`,
      )}</tbody>
    </table>`}
    <p><a href="/index">See the full readiness index</a></p>
  </section>
  <section class="card" aria-labelledby="what-h">
    <h2 id="what-h">What we check</h2>
    <ul class="pillar-summary">
      ${PILLARS.map((p) => html`<li><span>${p.label}</span><span class="muted">${pillarMax(p.id)} pts</span></li>`)}
    </ul>
    <p class="muted small">${CHECKS.length} checks from raw HTTP: robots.txt rules for live agents, bot walls, sitemaps and llms.txt, Product structured data (price, stock, identifiers), return and shipping policies, agent protocols (UCP, ACP, MCP) and a buy path an agent can hand off. Blocking the agents outright caps the score at 35. <a href="/checks">Every check explained</a>.</p>
    <h3 class="sub-h">What the grades mean</h3>
    <ul class="grade-legend">
      ${GRADE_BANDS.map(([g, range]) => html`<li>${gradePill(g)}<span class="grade-range">${range}</span><span>${GRADE_MEANING[g]}</span></li>`)}
    </ul>
  </section>
</div>

<section class="card dev-links" aria-labelledby="dev-h">
  <h2 id="dev-h">For developers and agents</h2>
  <ul class="link-grid">
    <li><a href="/api/v1"><strong>REST API</strong><span>Discovery document, /api/v1</span></a></li>
    <li><a href="/openapi.json"><strong>OpenAPI 3.1</strong><span>/openapi.json</span></a></li>
    <li><a href="/mcp"><strong>MCP server</strong><span>Streamable HTTP at /mcp, no key</span></a></li>
    <li><a href="/llms.txt"><strong>llms.txt</strong><span>The site summary for models</span></a></li>
    <li><a href="/auth.md"><strong>API keys</strong><span>Pro quotas, bulk reads, agent briefs</span></a></li>
    <li><a href="/.well-known/mcp/server-card.json"><strong>MCP server card</strong><span>/.well-known/mcp/server-card.json</span></a></li>
  </ul>
</section>
<script src="${SCAN_SCRIPT_PATH}?v=${SCAN_SCRIPT_VERSION}"></script>`;
  return layout(
    {
      title: HOME_TITLE,
      description: 'Scan your store and get a 0–100 agent-readiness score, a grade A–E and prioritised fixes.',
      alternates: [{ type: 'text/markdown', href: '/' }],
      nav: 'home',
    },
    body,
  );
}

/**
 * GET /: the home page; ?url= and ?vertical= prefill the form (the report's "re-scan" link), nothing runs.
 * `Accept: text/markdown` gets the Markdown rendering instead.
 */
export function homePage(deps: SurfaceDeps): RequestHandler {
  const base = deps.config.BASE_URL;
  return async (req, res) => {
    if (wantsMarkdown(req)) {
      const top = await deps.db.topStores({ limit: 10 });
      sendMarkdown(res, renderHomeMarkdown(top, base), { headers: negotiatedHeaders(base, '/', 'text/markdown') });
      return;
    }
    const form = { url: one(req.query.url)?.slice(0, 2048), vertical: one(req.query.vertical) };
    // Signed in, the page names the account: it is then private to that browser.
    const account = await accountOfRequest(deps.db, req, deps.config.BASE_URL);
    sendPage(res, await renderHomePage(deps, form, undefined, account?.email), {
      form: true,
      script: true,
      headers: negotiatedHeaders(base, '/', 'text/html'),
      ...(account ? { cacheControl: 'private, no-store' } : {}),
    });
  };
}

/** POST /scan (application/x-www-form-urlencoded): scan, then 303 to /r/<id>; errors re-render the home page. */
export function scanFromForm(deps: SurfaceDeps & ScansCookieDeps): RequestHandler {
  // Guards run inside the handler, so their refusals (next(err)) re-render this page instead of JSON.
  const guards = [deps.guards.auth('optional'), deps.guards.limit('scan')];
  const peek = deps.guards.peek('scan');
  return async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const form: HomeForm = { url: one(body.url)?.trim().slice(0, 4096), vertical: one(body.vertical) || undefined };
    try {
      // A form posted from another site would spend the visitor's scan quota: browsers tell us, so refuse it.
      const crossSite = crossSiteRefusal(req, deps.config.BASE_URL);
      if (crossSite) throw crossSite;
      if (!form.url) throw new AppError('MISSING_URL', 'url is required.');
      const { value } = await invoke(scanStore, { url: form.url, ...(form.vertical ? { vertical: form.vertical } : {}) }, {
        context: () => requestContext(req, res, deps),
        count: async () => {
          for (const guard of guards) await runGuard(guard, req, res);
        },
        invalid: (issues) =>
          issues[0]?.path[0] === 'vertical'
            ? new AppError('INVALID_PARAMS', `Choose a category from the list (${VERTICALS.map(verticalLabel).join(', ')}), or leave it empty.`)
            : new AppError('INVALID_URL', issues[0]?.message ?? 'This is not a valid URL.'),
      });
      const result = value as { scan_id: number };
      if (res.headersSent || res.destroyed) return;
      rememberScanBeforeSignIn(req, res, deps, Number(result.scan_id)); // signed out: the console offers it after sign-in
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(303, `/r/${Number(result.scan_id)}`);
    } catch (err) {
      if (res.headersSent || res.destroyed) return;
      await runGuard(peek, req, res).catch(() => undefined); // a refusal before the limiter: its headers, nothing spent
      const shown = answerableError(err, { log: req.log, metrics: req.app.locals.metrics as ServiceMetrics | undefined });
      const plain = plainError(shown, form);
      sendPage(res, await renderHomePage(deps, form, plain), {
        status: plain.status,
        form: true,
        script: true,
        cacheControl: 'no-store',
        headers: plain.headers,
      });
    }
  };
}
