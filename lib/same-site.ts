// Where a browser request comes from, as the browser tells it (Sec-Fetch-Site, else Origin), and the one
// cookie the console sets. Used wherever a session may act: console forms and the few API reads a session
// may carry. A request from another site never acts with a session.
import type { Request } from 'express';

/** The service's own origins: BASE_URL's, and the Host the request was sent to (a deployment under two names). */
function ownOrigins(req: Request, baseUrl: string): string[] {
  const origins = [new URL(baseUrl).origin];
  const host = req.get('host');
  if (host) origins.push(`${req.protocol}://${host}`);
  return origins;
}

/**
 * True when the browser says the request comes from our own pages. `none` (typed address, bookmark) counts
 * for reads only; a request with neither header counts only when it is a read, as no current browser sends a
 * state-changing request without Origin.
 */
export function fromOwnSite(req: Request, baseUrl: string): boolean {
  const read = req.method === 'GET' || req.method === 'HEAD';
  const site = req.get('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin' || (read && site === 'none');
  const origin = req.get('origin');
  if (origin !== undefined) return ownOrigins(req, baseUrl).includes(origin);
  return read;
}

/**
 * The session cookie's name. `__Host-` makes browsers refuse it unless it is Secure, host-only and Path=/, so a
 * sibling subdomain cannot plant one that shadows ours. Browsers take Secure cookies from https and from
 * loopback http (http://localhost in development); only a plain-http BASE_URL elsewhere uses the bare name.
 */
export const SESSION_COOKIE = '__Host-sr_session';
const PLAIN_HTTP_SESSION_COOKIE = 'sr_session';

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** The session cookie's name and whether it is Secure, for the service at BASE_URL. */
export function sessionCookie(baseUrl: string): { name: string; secure: boolean } {
  const url = new URL(baseUrl);
  const secure = url.protocol === 'https:' || LOOPBACK_HOST.test(url.hostname);
  return secure ? { name: SESSION_COOKIE, secure } : { name: PLAIN_HTTP_SESSION_COOKIE, secure };
}

/** The value of one cookie of the request, or undefined. */
export function cookieOf(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
