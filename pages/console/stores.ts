// The stores page: the hosts this account claimed, each with its verification token (to publish as a meta tag or
// in /.well-known/store-readiness.txt) and its state, a form to claim a store, and a "Verify now" button per host.
import { Router } from 'express';
import type { StoreRepo } from '../../store/repo.js';
import type { Config } from '../../lib/config.js';
import { AppError } from '../../lib/errors.js';
import { claimHost, META_NAME, verifyHost, WELL_KNOWN_PATH } from '../../monitoring/ownership.js';
import type { OwnershipClaim } from '../../store/monitoring-repo.js';
import { formatDate, html, type SafeHtml } from '../html.js';
import { consolePage, sendConsolePage } from './layout.js';
import { csrfField, requireAccount, sameSiteForm, signedIn, type ConsoleLocals } from './session.js';

interface Notice {
  error?: string;
  ok?: string;
}

function claimCard(c: OwnershipClaim, csrf: string): SafeHtml {
  return html`<section class="card" data-host="${c.host}">
  <h2>${c.host}</h2>
  ${c.verifiedAt
    ? html`<p class="status status-pass" data-testid="verified-state">Owner verified since ${formatDate(c.verifiedAt)} (${c.method === 'meta' ? 'meta tag' : 'well-known file'})</p>`
    : html`<p class="status status-partial" data-testid="verified-state">Not verified yet</p>`}
  <p>Verification token: <code data-testid="verification-token">${c.token}</code></p>
  <details${c.verifiedAt ? '' : html` open`}><summary>How to verify</summary>
    <p>Either add this tag to the <code>&lt;head&gt;</code> of your homepage:</p>
    <pre class="snippet"><code>&lt;meta name="${META_NAME}" content="${c.token}"&gt;</code></pre>
    <p>or serve <code>${c.origin}${WELL_KNOWN_PATH}</code> with the token on a line of its own. Keep it there: monitoring runs only while you are verified.</p>
  </details>
  <form method="post" action="/console/stores/verify">${csrfField(csrf)}<input type="hidden" name="host" value="${c.host}">
    <button class="button${c.verifiedAt ? ' button-quiet' : ' button-primary'}" type="submit">${c.verifiedAt ? 'Check again' : 'Verify now'}</button>
  </form>
</section>`;
}

async function renderStores(store: StoreRepo, who: ConsoleLocals, notice: Notice = {}): Promise<SafeHtml> {
  const claims = await store.monitoring.listClaims(who.account.id);
  return consolePage('Stores', who, 'stores', html`<h1>Your stores</h1>
<p>Prove you own a store to monitor it, receive its webhooks and show "owner verified" on its public report.</p>
${notice.error ? html`<p class="alert alert-error" role="alert">${notice.error}</p>` : ''}
${notice.ok ? html`<p class="alert" role="status">${notice.ok}</p>` : ''}
${claims.length === 0 ? html`<p class="empty">No stores yet. Claim one below.</p>` : claims.map((c) => claimCard(c, who.csrf))}
<h2>Claim a store</h2>
<form method="post" action="/console/stores">
  ${csrfField(who.csrf)}
  <div class="field"><label for="url">Store address</label> <input id="url" name="url" maxlength="2048" placeholder="https://shop.example.com" required></div>
  <p><button class="button button-primary" type="submit">Get a verification token</button></p>
</form>`);
}

export function storesRouter(deps: { store: StoreRepo; config: Config }): Router {
  const { store, config } = deps;
  const router = Router();
  const form = sameSiteForm(config.BASE_URL, { csrf: true });
  const body = (req: { body?: unknown }) => (req.body ?? {}) as Record<string, unknown>;

  router.get('/console/stores', requireAccount, async (_req, res) => {
    sendConsolePage(res, await renderStores(store, signedIn(res)!));
  });

  router.post('/console/stores', requireAccount, form, async (req, res) => {
    const who = signedIn(res)!;
    try {
      const claim = await claimHost({ store, config }, who.account.id, String(body(req).url ?? ''));
      sendConsolePage(res, await renderStores(store, who, { ok: `Publish the token for ${claim.host}, then press Verify now.` }), { status: 201 });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      sendConsolePage(res, await renderStores(store, who, { error: err.message }), { status: 400 });
    }
  });

  router.post('/console/stores/verify', requireAccount, form, async (req, res) => {
    const who = signedIn(res)!;
    const host = String(body(req).host ?? '');
    const claim = host ? await store.monitoring.getClaim(who.account.id, host) : null;
    if (!claim) return sendConsolePage(res, await renderStores(store, who, { error: 'This account has not claimed that store.' }), { status: 404 });
    const result = await verifyHost({ store, config }, who.account.id, claim.host);
    if (!result.verified) return sendConsolePage(res, await renderStores(store, who, { error: result.message }), { status: 422 });
    sendConsolePage(res, await renderStores(store, who, { ok: `${claim.host} is verified.` }));
  });
  return router;
}
