// The scans a browser ran from the home form before signing in, kept in a cookie so that the console can offer to
// add them to the account. The cookie is sealed by the service's secret box (AES-256-GCM under SECRETS_KEY, bound
// to this cookie's purpose): its tag authenticates the ids, so nobody can add a scan id to the list or replay a
// list past its age. A value that does not open is simply no list: never an error.
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { SecretBox } from '../../monitoring/secrets.js';
import type { Caller } from '../../tools/tool.js';
import { cookieOf, sessionCookie } from '../../lib/same-site.js';

/** How many scans the cookie remembers: the latest ones. */
export const SCANS_KEPT = 10;
/** A week: long enough to come back and sign in, short enough that a shared browser forgets. */
export const SCANS_COOKIE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Sealed under this label, a value cannot pass for a webhook secret, nor one of those for this cookie. */
const SEALED_FOR = 'cookie:scans-before-sign-in';

export interface ScansCookieDeps {
  box: SecretBox;
  config: { BASE_URL: string };
}

const Remembered = z.object({
  ids: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).max(SCANS_KEPT),
  /** When the list was last written: the cookie's own Max-Age, kept inside the seal. */
  at: z.number(),
});

/** The cookie's name and whether it is Secure: `__Host-` by the session cookie's rule (lib/same-site.ts). */
export function scansCookie(baseUrl: string): { name: string; secure: boolean } {
  const { secure } = sessionCookie(baseUrl);
  return { name: secure ? '__Host-sr_scans_before_sign_in' : 'sr_scans_before_sign_in', secure };
}

/** The scan ids this browser remembers, oldest first; empty when there is no cookie or it does not open. */
export function scansBeforeSignIn(req: Request, deps: ScansCookieDeps, now = Date.now()): number[] {
  const value = cookieOf(req, scansCookie(deps.config.BASE_URL).name);
  if (!value || value.length > 1024) return [];
  let parsed;
  try {
    parsed = Remembered.safeParse(JSON.parse(deps.box.open(value, SEALED_FOR)));
  } catch {
    return []; // tampered, sealed under another key, or not ours at all
  }
  if (!parsed.success || now - parsed.data.at > SCANS_COOKIE_MAX_AGE_MS || parsed.data.at > now + 60_000) return [];
  return parsed.data.ids;
}

/** After a scan from the home form that no account or key holds: add it to the browser's list. */
export function rememberScanBeforeSignIn(req: Request, res: Response, deps: ScansCookieDeps, scanId: number): void {
  const caller = res.locals.caller as Caller | undefined;
  if (caller?.accountId || caller?.keyId || !Number.isSafeInteger(scanId) || scanId <= 0) return;
  const ids = [...scansBeforeSignIn(req, deps).filter((id) => id !== scanId), scanId].slice(-SCANS_KEPT);
  const { name, secure } = scansCookie(deps.config.BASE_URL);
  const sealed = deps.box.seal(JSON.stringify({ ids, at: Date.now() }), SEALED_FOR);
  // The sealed text is base64 and colons, all valid cookie characters: sent as it is, read back as it is.
  res.cookie(name, sealed, { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: SCANS_COOKIE_MAX_AGE_MS, encode: String });
}

export function forgetScansBeforeSignIn(res: Response, baseUrl: string): void {
  const { name, secure } = scansCookie(baseUrl);
  res.clearCookie(name, { httpOnly: true, sameSite: 'lax', path: '/', secure });
}
