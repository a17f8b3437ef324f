// The stores page: the hosts this account claimed, each with its verification token (to publish as a meta tag or
// in /.well-known/store-readiness.txt) and its state, a form to claim a store, and a "Verify now" button per host.
// A verified owner of a listed store sets its vertical here (scans never change it; docs/decisions.md "API").
import { Router } from 'express';
import type { LatestEntry, Repository } from '../../db/repo.js';
import { VERTICALS } from '../../schemas/params.js';
import type { Config } from '../../lib/config.js';
import { AppError } from '../../lib/errors.js';
import { claimHost, META_NAME, takeVerifyCheck, verifyHost, VERIFY_CHECKS_PER_HOUR, WELL_KNOWN_PATH } from '../../monitoring/ownership.js';
import type { AppState } from '../../tools/app-state.js';
import type { OwnershipClaim } from '../../db/monitoring-repo.js';
import { formatDate, html, verticalLabel, type SafeHtml } from '../html.js';
import { consolePage, sendConsolePage } from './layout.js';
import { csrfField, requireAccount, sameSiteForm, signedIn, type ConsoleLocals, formFields } from './session.js';

interface Notice {
  error?: string;
  ok?: string;
}

// Only for a verified owner; the store needs an index entry (a scan of its entry point) to have a vertical.
function verticalForm(c: OwnershipClaim, listed: LatestEntry | undefined, csrf: string): SafeHtml {
  if (!c.verifiedAt) return html``;
  if (!listed) return html`<p data-testid="vertical">Not in the public index yet: scan its homepage to list it, then choose its category here.</p>`;
  return html`<form method="post" action="/console/stores/vertical" data-testid="vertical">${csrfField(csrf)}<input type="hidden" name="host" value="${c.host}">
    <label for="vertical-${c.host}">Category in the public index</label>
    <select id="vertical-${c.host}" name="vertical">${VERTICALS.map((v) => html`<option value="${v}"${v === listed.vertical ? html` selected` : ''}>${verticalLabel(v)}</option>`)}</select>
    <button class="button button-quiet" type="submit">Set category</button>
  </form>`;
}

function claimCard(c: OwnershipClaim, listed: LatestEntry | undefined, csrf: string): SafeHtml {
  return html`<section class="card" data-host="${c.host}">
  <h2>${c.host}</h2>
  ${c.verifiedAt
    ? html`<p class="status status-pass" data-testid="verified-state">Owner verified since ${formatDate(c.verifiedAt)} (${c.method === 'meta' ? 'meta tag' : 'well-known file'})</p>`
    : html`<p class="status status-partial" data-testid="verified-state">Not verified yet</p>`}
  <p>Verification token: <code data-testid="verification-token">${c.token}</code></p>
  <details${c.verifiedAt ? '' : html` open`}><summary>How to verify</summary>
    <p>Either add this tag to the <code>&lt;head&gt;</code> of your homepage:</p>
    <pre class="snippet"><code>&lt;meta name="${META_NAME}" content="${c.token}"&gt;</code></pre>
    <p>or serve <code>${c.origin}${WELL_KNOWN_PATH}</code> as <code>text/plain</code> with the token on a line of its own. Keep it there: we check again every day, and monitoring, webhooks and the vertical last only while you are verified.</p>
  </details>
  <form method="post" action="/console/stores/verify">${csrfField(csrf)}<input type="hidden" name="host" value="${c.host}">
    <button class="button${c.verifiedAt ? ' button-quiet' : ' button-primary'}" type="submit">${c.verifiedAt ? 'Check again' : 'Verify now'}</button>
  </form>
  ${verticalForm(c, listed, csrf)}
</section>`;
}

async function renderStores(db: Repository, who: ConsoleLocals, notice: Notice = {}): Promise<SafeHtml> {
  const claims = await db.monitoring.listClaims(who.account.id);
  const listed = await db.latestByHosts(claims.filter((c) => c.verifiedAt).map((c) => c.host));
  return consolePage('Stores', who, 'stores', html`<h1>Your stores</h1>
<p>Prove you own a store to monitor it, receive its webhooks and show “Owner verified” on its public report.</p>
${notice.error ? html`<p class="alert alert-error" role="alert">${notice.error}</p>` : ''}
${notice.ok ? html`<p class="alert alert-ok" role="status">${notice.ok}</p>` : ''}
${claims.length === 0 ? html`<p class="empty">No stores yet. Claim one below.</p>` : claims.map((c) => claimCard(c, listed.get(c.host), who.csrf))}
<h2>Claim a store</h2>
<form method="post" action="/console/stores">
  ${csrfField(who.csrf)}
  <div class="field"><label for="url">Store address</label> <input id="url" name="url" maxlength="2048" placeholder="https://shop.example.com" required></div>
  <p><button class="button button-primary" type="submit">Get a verification token</button></p>
</form>`);
}

export function storesRouter(deps: { db: Repository; config: Config; state: AppState }): Router {
  const { db, config } = deps;
  const router = Router();
  const form = sameSiteForm(config.BASE_URL, { csrf: true });

  // After a successful "Verify now" the browser comes here by a redirect, so reloading does not post again; the
  // notice names the host only when it is one of this account's verified stores.
  router.get('/console/stores', requireAccount, async (req, res) => {
    const who = signedIn(res)!;
    const host = typeof req.query.verified === 'string' ? req.query.verified : '';
    const claim = host ? await db.monitoring.getClaim(who.account.id, host) : null;
    sendConsolePage(res, await renderStores(db, who, claim?.verifiedAt ? { ok: `${claim.host} is verified.` } : {}));
  });

  router.post('/console/stores', requireAccount, form, async (req, res) => {
    const who = signedIn(res)!;
    try {
      const claim = await claimHost({ db, config }, who.account.id, String(formFields(req).url ?? ''));
      sendConsolePage(res, await renderStores(db, who, { ok: `Publish the token for ${claim.host}, then press Verify now.` }), { status: 201 });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      sendConsolePage(res, await renderStores(db, who, { error: err.message }), { status: 400 });
    }
  });

  router.post('/console/stores/verify', requireAccount, form, async (req, res) => {
    const who = signedIn(res)!;
    const host = String(formFields(req).host ?? '');
    const claim = host ? await db.monitoring.getClaim(who.account.id, host) : null;
    if (!claim) return sendConsolePage(res, await renderStores(db, who, { error: 'This account has not claimed that store.' }), { status: 404 });
    // A check fetches the store as a scan does: it takes a place within the scan bound, and the account's hourly
    // checks; a refusal (busy scanner, checks used up) fetches nothing and spends nothing.
    let place;
    try {
      place = deps.state.scanGate.reserve();
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return sendConsolePage(res, await renderStores(db, who, { error: err.message }), { status: 503, headers: err.headers });
    }
    const allowed = await takeVerifyCheck(db, who.account.id);
    if (!allowed.ok) {
      place.release();
      const error = `This account has used its ${VERIFY_CHECKS_PER_HOUR} verification checks of this hour. Try again in ${Math.ceil(allowed.retryAfterSeconds / 60)} minutes.`;
      return sendConsolePage(res, await renderStores(db, who, { error }), { status: 429, headers: { 'Retry-After': String(allowed.retryAfterSeconds) } });
    }
    const result = await place.run(() => verifyHost({ db, config }, who.account.id, claim.host));
    if (!result.verified) return sendConsolePage(res, await renderStores(db, who, { error: result.message }), { status: 422 });
    res.redirect(303, `/console/stores?verified=${encodeURIComponent(claim.host)}`);
  });

  // Only the verified owner of a listed store; every refusal changes nothing stored.
  router.post('/console/stores/vertical', requireAccount, form, async (req, res) => {
    const who = signedIn(res)!;
    const refuse = async (status: number, error: string) => sendConsolePage(res, await renderStores(db, who, { error }), { status });
    const host = String(formFields(req).host ?? '');
    const claim = host ? await db.monitoring.getClaim(who.account.id, host) : null;
    if (!claim) return refuse(404, 'This account has not claimed that store.');
    if (!claim.verifiedAt) return refuse(403, `Verify that you own ${claim.host} before setting its category.`);
    const vertical = String(formFields(req).vertical ?? '');
    let done;
    try {
      done = await db.setVertical(claim.host, vertical);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return refuse(400, err.message);
    }
    if (!done) return refuse(409, `${claim.host} is not in the public index (never scanned at its homepage, or delisted).`);
    sendConsolePage(res, await renderStores(db, who, { ok: `${claim.host} is now listed in ${verticalLabel(vertical)}.` }));
  });
  return router;
}
