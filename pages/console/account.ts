// The account page: sign out everywhere, and deleting the account (its keys are revoked, its sessions end,
// its scans stay in the public index without the link to it). Deleting asks for the address to be typed.
import { Router } from 'express';
import type { Repository } from '../../db/repo.js';
import type { Config } from '../../lib/config.js';
import { deleteAccount } from '../../accounts/account.js';
import { normaliseEmail } from '../../accounts/sign-in.js';
import { formatDate, html } from '../html.js';
import { consolePage, publicConsolePage, sendConsolePage, type SignedIn } from './layout.js';
import { clearSessionCookie, csrfField, requireAccount, sameSiteForm, signedIn, formFields } from './session.js';

function accountBody(who: SignedIn, error?: string) {
  return consolePage('Account', who, 'account', html`<h1>Account</h1>
<p>Signed in as <strong>${who.account.email}</strong>, member since ${formatDate(who.account.createdAt)}.</p>
<section class="card">
<h2>Sessions</h2>
<p>Signed in on another computer you no longer use? End every session of this account, this one included.</p>
<form method="post" action="/console/sign-out-everywhere">${csrfField(who.csrf)}<button class="button" type="submit">Sign out everywhere</button></form>
</section>
<section class="card danger-zone" aria-labelledby="delete-h">
<h2 id="delete-h">Delete the account</h2>
<p>This cannot be undone. Deleting the account removes:</p>
<ul>
  <li>your API keys, which stop working at once, and every session;</li>
  <li>your store claims and owner verifications, so your stores no longer show "Owner verified" from this account;</li>
  <li>your monitors (no more scheduled scans) and your webhook endpoints with their secrets and delivery logs.</li>
</ul>
<p>Your scans stay in the public readiness index, no longer linked to you.</p>
${error ? html`<p class="alert alert-error" role="alert">${error}</p>` : ''}
<form method="post" action="/console/account/delete">${csrfField(who.csrf)}
  <div class="field"><label for="confirm">Type your e-mail address to confirm</label> <input id="confirm" name="confirm" type="email" autocomplete="off"></div>
  <p><button class="button button-danger" type="submit">Delete my account</button></p>
</form>
</section>`);
}

export function accountRouter(deps: { db: Repository; config: Config }): Router {
  const router = Router();
  router.get('/console/account', requireAccount, (_req, res) => void sendConsolePage(res, accountBody(signedIn(res)!)));
  router.post('/console/account/delete', requireAccount, sameSiteForm(deps.config.BASE_URL, { csrf: true }), async (req, res) => {
    const who = signedIn(res)!;
    if (normaliseEmail(formFields(req).confirm) !== who.account.email) {
      return sendConsolePage(res, accountBody(who, 'The address typed is not this account’s: nothing was deleted.'), { status: 400 });
    }
    await deleteAccount(deps.db, who.account.id);
    clearSessionCookie(res, deps.config.BASE_URL);
    sendConsolePage(res, publicConsolePage('Account deleted', html`<h1>Your account is deleted</h1>
<p>Its keys no longer work and you are signed out. Your scans remain in the public index.</p>
<p><a class="button" href="/">Back to the home page</a></p>`));
  });
  return router;
}
