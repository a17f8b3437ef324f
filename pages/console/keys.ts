// The keys page: the account's Pro keys (id, name, created, last used, scans in 30 days, state), a form to
// create one (shown once, with a copy button) and a revoke button per active key with a confirmation step.
import { Router } from 'express';
import type { Repository } from '../../db/repo.js';
import type { Config } from '../../lib/config.js';
import { AppError } from '../../lib/errors.js';
import { accountKeys, createAccountKey, firstSendOfForm, keyName, MAX_ACTIVE_KEYS, revokeAccountKey, type AccountKey } from '../../accounts/console-keys.js';
import { isSecretShaped, newSecret } from '../../accounts/secrets.js';
import { formatDate, formatTime, html, type SafeHtml } from '../html.js';
import { consolePage, sendConsolePage } from './layout.js';
import { csrfField, requireAccount, sameSiteForm, signedIn, type ConsoleLocals, formFields } from './session.js';

const KEY_ID = /^[0-9a-f]{12}$/;

function keysTable(keys: AccountKey[]): SafeHtml {
  if (keys.length === 0) return html`<p class="empty">No keys yet. Create one below to call the API as Pro.</p>`;
  return html`<div class="table-wrap"><table class="ranking console-keys">
<thead><tr><th scope="col">Key id</th><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col" class="num">Scans, 30 days</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>
${keys.map(
  (k) => html`<tr data-key-id="${k.id}">
  <td><code>${k.id}</code></td>
  <td>${k.name}</td>
  <td>${formatDate(k.createdAt)}</td>
  <td>${k.lastUsedAt ? formatTime(k.lastUsedAt) : html`<span class="muted">never</span>`}</td>
  <td class="num">${k.scansLast30Days}</td>
  <td class="key-state">${k.revokedAt ? html`revoked ${formatDate(k.revokedAt)}` : 'active'}</td>
  <td>${k.revokedAt ? '' : html`<a class="button button-quiet" href="/console/keys/${k.id}/revoke">Revoke</a>`}</td>
</tr>`,
)}
</tbody></table></div>`;
}

async function renderKeys(db: Repository, who: ConsoleLocals, extra: { created?: { key: string; id: string }; error?: string } = {}) {
  const keys = await accountKeys(db, who.account.id);
  const active = keys.filter((k) => !k.revokedAt).length;
  return consolePage('API keys', who, 'keys', html`<h1>API keys</h1>
<p>Send a key as <code>Authorization: Bearer &lt;key&gt;</code>. It raises your scan quota, links every scan to this console, and opens the bulk read and the agent brief. See <a href="/auth.md">the API key guide</a>.</p>
${extra.created
  ? html`<div class="card" id="new-key" role="status">
  <h2>Your new key</h2>
  <p>Copy it now: it is shown only this once. We keep only a hash of it.</p>
  <p><input class="key-once" id="new-key-value" readonly value="${extra.created.key}" aria-label="New API key" autofocus> <button class="button" type="button" data-copy="new-key-value">Copy</button></p>
</div>`
  : ''}
${extra.error ? html`<p class="alert alert-error" role="alert">${extra.error}</p>` : ''}
${keysTable(keys)}
<h2>Create a key</h2>
<p class="muted">${active} of ${MAX_ACTIVE_KEYS} active keys in use.</p>
<form method="post" action="/console/keys">
  ${csrfField(who.csrf)}
  <input type="hidden" name="request" value="${newSecret()}">
  <div class="field"><label for="name">Name</label> <input id="name" name="name" maxlength="60" placeholder="e.g. CI pipeline"></div>
  <p><button class="button button-primary" type="submit">Create key</button></p>
</form>`);
}

export function keysRouter(deps: { db: Repository; config: Config }): Router {
  const { db } = deps;
  const router = Router();
  const form = sameSiteForm(deps.config.BASE_URL, { csrf: true });

  router.get('/console/keys', requireAccount, async (_req, res) => {
    sendConsolePage(res, await renderKeys(db, signedIn(res)!));
  });

  router.post('/console/keys', requireAccount, form, async (req, res) => {
    const who = signedIn(res)!;
    const now = new Date();
    const body = formFields(req);
    if (isSecretShaped(body.request) && !(await firstSendOfForm(db, who.account.id, body.request, now))) {
      const error = 'This form was already sent, and its key was shown then. Create a new key if you did not copy it (and revoke the other).';
      return sendConsolePage(res, await renderKeys(db, who, { error }), { status: 409 });
    }
    try {
      const { key, record } = await createAccountKey(db, who.account, keyName(body.name, now), now);
      sendConsolePage(res, await renderKeys(db, who, { created: { key, id: record.id } }), { status: 201 });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      sendConsolePage(res, await renderKeys(db, who, { error: err.message }), { status: 409 });
    }
  });

  // The confirmation step: a page naming the key, whose button sends the revoke.
  router.get('/console/keys/:id/revoke', requireAccount, async (req, res) => {
    const who = signedIn(res)!;
    const key = (await accountKeys(db, who.account.id)).find((k) => k.id === req.params.id && !k.revokedAt);
    if (!key) return void res.redirect(303, '/console/keys');
    sendConsolePage(res, consolePage('Revoke key', who, 'keys', html`<section class="card">
<h1>Revoke key <code>${key.id}</code> (${key.name})?</h1>
<p>Every call made with it will be refused at once, on every server. This cannot be undone; you can create a new key afterwards.</p>
<form method="post" action="/console/keys/${key.id}/revoke">${csrfField(who.csrf)}
  <button class="button button-primary" type="submit">Revoke key</button> <a class="button button-quiet" href="/console/keys">Keep it</a>
</form></section>`));
  });

  router.post('/console/keys/:id/revoke', requireAccount, form, async (req, res) => {
    const who = signedIn(res)!;
    const id = String(req.params.id);
    const done = KEY_ID.test(id) && (await revokeAccountKey(db, who.account.id, id));
    if (!done) {
      return sendConsolePage(res, await renderKeys(db, who, { error: 'There is no such key in this account.' }), { status: 404 });
    }
    res.redirect(303, '/console/keys');
  });
  return router;
}
