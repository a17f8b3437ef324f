// Sessions and CSRF for the console pages: loadSession finds who is signed in from the session cookie,
// requireAccount sends everyone else to the sign-in page, and sameSiteForm refuses (403, before any change)
// a POST from another site or without the session's CSRF token. Every console form carries csrfField.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Repository } from '../../db/repo.js';
import { csrfTokenOf, resumeSession, type LiveSession } from '../../accounts/sessions.js';
import { sameSecret } from '../../accounts/secrets.js';
import { cookieOf, fromOwnSite, sessionCookie } from '../../lib/same-site.js';
import { html, type SafeHtml } from '../html.js';
import { AppError } from '../../lib/errors.js';
import type { AccountRecord } from '../../db/accounts-repo.js';

/** Who is signed in, as every console page needs it: the account and the CSRF token of its forms. */
export interface SignedIn {
  account: AccountRecord;
  csrf: string;
}

export interface ConsoleLocals extends SignedIn {
  session: LiveSession;
}

/** Who is signed in on this request, or undefined. */
export const signedIn = (res: Response): ConsoleLocals | undefined => res.locals.console;

/** The fields of a posted console form (parsed on /console paths only); empty when nothing was posted. */
export const formFields = (req: { body?: unknown }): Record<string, unknown> => (req.body ?? {}) as Record<string, unknown>;

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${token}">`;
}

export function setSessionCookie(res: Response, baseUrl: string, token: string, expiresAt: Date): void {
  const { name, secure } = sessionCookie(baseUrl);
  res.cookie(name, token, { httpOnly: true, sameSite: 'lax', path: '/', secure, expires: expiresAt });
}

export function clearSessionCookie(res: Response, baseUrl: string): void {
  const { name, secure } = sessionCookie(baseUrl);
  res.clearCookie(name, { httpOnly: true, sameSite: 'lax', path: '/', secure });
}

/** Resolves the session cookie (sliding its end) into res.locals.console; a dead cookie is cleared. */
export function loadSession(db: Repository, baseUrl: string): RequestHandler {
  return async (req, res, next) => {
    const token = cookieOf(req, sessionCookie(baseUrl).name);
    if (token === undefined) return next();
    const session = await resumeSession(db, token);
    if (!session) {
      clearSessionCookie(res, baseUrl);
      return next();
    }
    res.locals.console = { account: session.account, csrf: csrfTokenOf(session.token), session } satisfies ConsoleLocals;
    setSessionCookie(res, baseUrl, session.token, session.expiresAt);
    next();
  };
}

/** The signed-in account of a request outside the console (the home page says who scans), or null. */
export async function accountOfRequest(db: Repository, req: Request, baseUrl: string): Promise<AccountRecord | null> {
  const token = cookieOf(req, sessionCookie(baseUrl).name);
  return token === undefined ? null : ((await resumeSession(db, token))?.account ?? null);
}

/** Only paths of this site, so a sign-in link can never send anyone elsewhere. */
const RETURN_TO = /^\/(?:console(?:\/[A-Za-z0-9/_-]*)?(?:\?[A-Za-z0-9=&._%-]*)?|r\/\d{1,15})$/;
export const safeReturnTo = (value: unknown): string | null =>
  typeof value === 'string' && value.length <= 200 && RETURN_TO.test(value) ? value : null;

/** Signed-out visitors go to the sign-in page and come back here afterwards. */
export const requireAccount: RequestHandler = (req, res, next) => {
  if (signedIn(res)) return next();
  const back = req.method === 'GET' ? safeReturnTo(req.originalUrl) : null;
  res.setHeader('Cache-Control', 'no-store');
  res.redirect(303, back && back !== '/console' ? `/console/sign-in?next=${encodeURIComponent(back)}` : '/console/sign-in');
};

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super('INVALID_PARAMS', message);
  }
  override get status(): number {
    return 403;
  }
}

/** A state-changing console POST: from this site, and (when signed in) with the session's CSRF token. */
export function sameSiteForm(baseUrl: string, opts: { csrf: boolean }): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!fromOwnSite(req, baseUrl)) return next(new ForbiddenError('This form can only be sent from this site’s own pages.'));
    if (!opts.csrf) return next();
    const who = signedIn(res);
    const sent = formFields(req).csrf;
    if (!who || typeof sent !== 'string' || !sameSecret(sent, who.csrf)) {
      return next(new ForbiddenError('This form has expired or did not come from this site. Reload the page and try again.'));
    }
    next();
  };
}
