// The overview's offer for the scans this browser ran before signing in (the cookie of scans-before-sign-in.ts):
// those that still belong to no one, and one form that adds them to the account. The POST takes the ids from the
// sealed cookie only, attaches those no account or key holds, clears the cookie and returns to the overview with
// a notice (a redirect, so reloading does not post again).
import { Router, type Request } from 'express';
import type { Repository } from '../../db/repo.js';
import { formatTime, gradePill, html, plural, type SafeHtml } from '../html.js';
import { csrfField, requireAccount, sameSiteForm, signedIn, type SignedIn } from './session.js';
import { forgetScansBeforeSignIn, scansBeforeSignIn, type ScansCookieDeps } from './scans-before-sign-in.js';

export const ATTACH_PATH = '/console/scans/attach';

/** The section, or nothing when this browser remembers no scan that is still free to add. */
export async function scansBeforeSignInSection(req: Request, deps: ScansCookieDeps & { db: Repository }, who: SignedIn): Promise<SafeHtml> {
  const ids = scansBeforeSignIn(req, deps);
  const scans = ids.length > 0 ? await deps.db.accounts.unownedScans(ids) : [];
  if (scans.length === 0) return html``;
  return html`<section class="card" aria-labelledby="before-h" data-testid="scans-before-sign-in">
  <h2 id="before-h">Scans from this browser before you signed in</h2>
  <p>Add them to your account to see them with your other scans and compare later scans of the same store.</p>
  <div class="table-wrap"><table class="ranking console-scans">
    <thead><tr><th scope="col">Scanned</th><th scope="col">Store</th><th scope="col" class="num">Score</th><th scope="col">Grade</th></tr></thead>
    <tbody>
    ${scans.map(
      (s) => html`<tr data-scan-id="${s.id}">
      <td>${formatTime(s.createdAt)}</td>
      <td class="store-host"><a href="/r/${s.id}">${s.host}</a></td>
      <td class="num score">${s.score}</td>
      <td>${gradePill(s.grade)}</td>
    </tr>`,
    )}
    </tbody>
  </table></div>
  <form method="post" action="${ATTACH_PATH}">${csrfField(who.csrf)}<button class="button button-primary" type="submit">Add them to my account</button></form>
</section>`;
}

/** The notice after the POST: its count comes from the redirect, so only 0 to SCANS_KEPT mean anything. */
export function attachedNotice(value: unknown): SafeHtml {
  if (typeof value !== 'string' || !/^(?:10|\d)$/.test(value)) return html``;
  const n = Number(value);
  return n > 0
    ? html`<p class="alert alert-ok" role="status">${plural(n, 'scan')} from this browser ${n === 1 ? 'is' : 'are'} now in your account.</p>`
    : html`<p class="alert alert-ok" role="status">Nothing was added: those scans were removed or already belong to an account.</p>`;
}

export function attachScansRouter(deps: ScansCookieDeps & { db: Repository }): Router {
  const router = Router();
  router.post(ATTACH_PATH, requireAccount, sameSiteForm(deps.config.BASE_URL, { csrf: true }), async (req, res) => {
    const who = signedIn(res)!;
    const added = await deps.db.accounts.attachScansToAccount(who.account.id, scansBeforeSignIn(req, deps));
    forgetScansBeforeSignIn(res, deps.config.BASE_URL);
    res.redirect(303, `/console?attached=${added}`);
  });
  return router;
}
