// Sign-in pages: the e-mail form, the "check your mail" answer (the same whether or not the address has an
// account), the confirm page opened from the link (it names the address and only its POST uses the token),
// and sign-out here or everywhere.
import { Router, type Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Repository } from '../../db/repo.js';
import type { Config } from '../../lib/config.js';
import type { Mailer } from '../../accounts/mailer.js';
import { confirmSignIn, hasHiddenCharacters, normaliseEmail, previewSignIn, requestSignIn } from '../../accounts/sign-in.js';
import { endAllSessions, endSession, startSession } from '../../accounts/sessions.js';
import { html, plural } from '../html.js';
import { publicConsolePage, sendConsolePage } from './layout.js';
import { clearSessionCookie, requireAccount, safeReturnTo, sameSiteForm, setSessionCookie, signedIn, formFields } from './session.js';

export interface SignInDeps {
  db: Repository;
  config: Config;
  mailer: Mailer;
}

const one = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function signInForm(next: string | null, message?: string, email = '') {
  return publicConsolePage(
    'Sign in',
    html`<h1>Sign in to the console</h1>
<p>The console holds your Pro API keys and every scan you ran. We mail you a sign-in link: no password.</p>
${message ? html`<p class="alert alert-error" role="alert">${message}</p>` : ''}
<form method="post" action="/console/sign-in">
  <div class="field"><label for="email">E-mail address</label>
  <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${email}"></div>
  ${next ? html`<input type="hidden" name="next" value="${next}">` : ''}
  <p><button class="button button-primary" type="submit">Send sign-in link</button></p>
</form>`,
  );
}

export function signInRouter(deps: SignInDeps): Router {
  const { db, config, mailer } = deps;
  const router = Router();
  const fromSite = sameSiteForm(config.BASE_URL, { csrf: false });
  const withCsrf = sameSiteForm(config.BASE_URL, { csrf: true });

  router.get('/console/sign-in', (req, res) => {
    if (signedIn(res)) return void res.redirect(303, safeReturnTo(one(req.query.next)) ?? '/console');
    sendConsolePage(res, signInForm(safeReturnTo(one(req.query.next))));
  });

  router.post('/console/sign-in', fromSite, async (req, res) => {
    const body = formFields(req);
    const next = safeReturnTo(one(body.next));
    const email = normaliseEmail(body.email);
    if (!email) {
      // What was typed comes back for correction, unless it holds characters that would not show as they are.
      const typed = one(body.email)?.slice(0, 254);
      const message = 'Enter an e-mail address such as you@your-store.example (plain letters before the @; no invisible or direction-changing characters).';
      return sendConsolePage(res, signInForm(next, message, typed && !hasHiddenCharacters(typed) ? typed : ''), { status: 400 });
    }
    const result = await requestSignIn(
      { db, mailer, baseUrl: config.BASE_URL, limits: { perAddress: config.SIGN_IN_MAILS_PER_ADDRESS_PER_HOUR, perIp: config.SIGN_IN_MAILS_PER_IP_PER_HOUR } },
      { email, ip: ipKeyOf(req), returnTo: next },
    );
    if (result.outcome === 'limited') {
      return sendConsolePage(
        res,
        publicConsolePage('Too many sign-in mails', html`<h1>Too many sign-in mails</h1>
<p>We have sent as many sign-in links as we send in an hour for this address or from this network. Please use a link already sent, or try again in ${plural(Math.max(1, Math.ceil(result.retryAfterSeconds / 60)), 'minute')}.</p>`),
        { status: 429, headers: { 'Retry-After': String(result.retryAfterSeconds) } },
      );
    }
    if (result.outcome === 'mail-failed') {
      req.log?.error({ err: result.error }, 'sign-in mail could not be sent');
      return sendConsolePage(
        res,
        publicConsolePage('Mail not sent', html`<h1>We could not send the mail</h1>
<p>Our mail server did not take the message. Nothing was sent; please try again in a few minutes.</p>
<p><a class="button" href="/console/sign-in">Back</a></p>`),
        { status: 503, headers: { 'Retry-After': '60' } },
      );
    }
    sendConsolePage(
      res,
      publicConsolePage('Check your mail', html`<h1>Check your mail</h1>
<p>If this address can sign in, a link is on its way to it. The link works once, within 15 minutes.</p>
<p>Nothing there after a few minutes? Look in the spam folder, or <a href="/console/sign-in">send another link</a>.</p>`),
    );
  });

  // Opening the link never signs in: it shows which address would be signed in, with a button.
  router.get('/console/sign-in/confirm', async (req, res) => {
    const token = one(req.query.token);
    const pending = await previewSignIn(db, token);
    const headers = { 'Referrer-Policy': 'no-referrer' };
    if (!pending) return sendConsolePage(res, expiredLinkPage(), { status: 400, headers });
    sendConsolePage(
      res,
      publicConsolePage('Confirm sign-in', html`<h1>Sign in as ${pending.email}?</h1>
<p>Only continue if you asked for this link yourself. If someone sent it to you, close this page.</p>
<form method="post" action="/console/sign-in/confirm">
  <input type="hidden" name="token" value="${token ?? ''}">
  <input type="hidden" name="email" value="${pending.email}">
  <p><button class="button button-primary" type="submit">Sign in</button></p>
</form>`),
      { headers },
    );
  });

  router.post('/console/sign-in/confirm', fromSite, async (req, res) => {
    const body = formFields(req);
    const done = await confirmSignIn(db, body.token, normaliseEmail(body.email));
    if (!done) return sendConsolePage(res, expiredLinkPage(), { status: 400, headers: { 'Referrer-Policy': 'no-referrer' } });
    // A new session id at every sign-in; any session this browser had is ended first.
    const previous = signedIn(res);
    if (previous) await endSession(db, previous.session);
    const session = await startSession(db, done.account);
    setSessionCookie(res, config.BASE_URL, session.token, session.expiresAt);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, safeReturnTo(done.returnTo) ?? '/console');
  });

  router.post('/console/sign-out', requireAccount, withCsrf, async (_req, res) => {
    await endSession(db, signedIn(res)!.session);
    clearSessionCookie(res, config.BASE_URL);
    res.redirect(303, '/console/sign-in');
  });

  router.post('/console/sign-out-everywhere', requireAccount, withCsrf, async (_req, res) => {
    await endAllSessions(db, signedIn(res)!.account.id);
    clearSessionCookie(res, config.BASE_URL);
    res.redirect(303, '/console/sign-in');
  });
  return router;
}

function expiredLinkPage() {
  return publicConsolePage('Link not valid', html`<h1>This sign-in link does not work</h1>
<p>Links work once, within 15 minutes, for the address they were sent to. This one was used, has expired or was copied incompletely.</p>
<p><a class="button button-primary" href="/console/sign-in">Send a new link</a></p>`);
}

/** The client's address as the limits count it: one IPv6 /56 is one client. */
const ipKeyOf = (req: Request): string => ipKeyGenerator(req.ip ?? '', 56);
