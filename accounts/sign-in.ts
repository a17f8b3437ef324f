// Sign-in by e-mail link: a 256-bit token mailed as a link, stored only as its hash, bound to the address,
// single use, valid 15 minutes. Opening the link only shows a confirm page; the confirm POST consumes it, so
// mail scanners that prefetch links neither burn it nor sign anyone in. The first sign-in creates the account.
import { domainToASCII } from 'node:url';
import { periodOf, type Repository } from '../db/repo.js';
import type { AccountRecord } from '../db/accounts-repo.js';
import type { Mailer } from './mailer.js';
import { newId, newSecret, sha256Hex, isSecretShaped } from './secrets.js';

export const SIGN_IN_TOKEN_MS = 15 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/**
 * Characters no address may hold, anywhere: controls, format characters (bidi overrides and isolates, zero-width
 * joiners and spaces, the BOM), line and paragraph separators, and the blank-looking fillers and variation
 * selectors that show as nothing. Such an address would read differently on the confirm page than it routes.
 */
const HIDDEN_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0\u2800]|\p{Variation_Selector}/u;
/** True when the text holds a character that shows as nothing or reorders what follows. */
export const hasHiddenCharacters = (text: string): boolean => HIDDEN_CHARACTERS.test(text);

/** RFC 5322 dot-atom of ASCII letters, digits and the printable specials: no quoted or international local parts. */
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const ASCII_DOMAIN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/**
 * A plain address, lower-cased, its domain in IDNA (xn--) form; null for anything that cannot be one or that
 * holds hidden characters (the form says so, sends nothing). The local part must be ASCII.
 */
export function normaliseEmail(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 320) return null;
  const trimmed = value.trim();
  if (HIDDEN_CHARACTERS.test(trimmed)) return null;
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return null;
  const local = trimmed.slice(0, at).toLowerCase();
  const domain = domainToASCII(trimmed.slice(at + 1)); // IDNA/UTS #46; '' when the name is not a valid one
  const email = `${local}@${domain}`;
  if (local.length > 64 || email.length > 254 || !LOCAL_PART.test(local) || !ASCII_DOMAIN.test(domain)) return null;
  return email;
}

/**
 * The mailbox an address delivers to, for the per-address mail limit: `box+anything@d` is `box@d`, so
 * sub-addresses cannot multiply the mails one inbox receives.
 */
export function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@');
  const plus = email.indexOf('+');
  return plus > 0 && plus < at ? email.slice(0, plus) + email.slice(at) : email;
}

export interface SignInLimits {
  perAddress: number;
  perIp: number;
}

export type SignInRequest =
  | { outcome: 'sent' }
  | { outcome: 'limited'; retryAfterSeconds: number }
  | { outcome: 'mail-failed'; error: unknown };

/** Hour windows on the shared usage counters; the period is the window's end, as the API limiters write it. */
function hourWindow(now: number): { period: string; retryAfterSeconds: number } {
  const end = (Math.floor(now / HOUR) + 1) * HOUR;
  return { period: periodOf(end), retryAfterSeconds: Math.max(1, Math.ceil((end - now) / 1000)) };
}

/**
 * Mails a sign-in link unless the mailbox (sub-addresses counted with it) or the client has had its mails for
 * this hour. Whether an account exists changes nothing here, so the answer never tells.
 */
export async function requestSignIn(
  deps: { db: Repository; mailer: Mailer; baseUrl: string; limits: SignInLimits },
  input: { email: string; ip: string; returnTo: string | null },
  now = new Date(),
): Promise<SignInRequest> {
  const { db } = deps;
  const { period, retryAfterSeconds } = hourWindow(now.getTime());
  const byAddress = `sign-in-mail:addr:${sha256Hex(mailboxOf(input.email))}`;
  const byIp = `sign-in-mail:ip:${input.ip}`;
  const [sentToAddress, sentFromIp] = await Promise.all([db.getUsage(byAddress, period), db.getUsage(byIp, period)]);
  if (sentToAddress >= deps.limits.perAddress || sentFromIp >= deps.limits.perIp) return { outcome: 'limited', retryAfterSeconds };

  const token = newSecret();
  await db.accounts.putSignInToken({
    tokenHash: sha256Hex(token),
    email: input.email,
    returnTo: input.returnTo,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SIGN_IN_TOKEN_MS),
  });
  await Promise.all([db.incrementUsage(byAddress, period), db.incrementUsage(byIp, period)]);
  const link = `${deps.baseUrl}/console/sign-in/confirm?token=${token}`;
  try {
    await deps.mailer.send({ to: input.email, subject: 'Your Store Readiness sign-in link', text: signInText(link) });
  } catch (error) {
    await db.accounts.consumeSignInToken(sha256Hex(token), input.email, now).catch(() => null); // a link nobody got
    return { outcome: 'mail-failed', error };
  }
  return { outcome: 'sent' };
}

function signInText(link: string): string {
  return [
    'Hello,',
    '',
    'Open this link to sign in to the Store Readiness console:',
    '',
    link,
    '',
    'The link works once, within 15 minutes. If you did not ask for it, ignore this mail: nothing happens without it.',
  ].join('\n');
}

/** The address a token would sign in, for the confirm page; null when it is unknown, used or expired. */
export async function previewSignIn(db: Repository, token: unknown, now = new Date()): Promise<{ email: string } | null> {
  if (!isSecretShaped(token)) return null;
  const rec = await db.accounts.peekSignInToken(sha256Hex(token), now);
  return rec ? { email: rec.email } : null;
}

/** Consumes the token for this address and returns its account (created on first sign-in), or null. */
export async function confirmSignIn(
  db: Repository,
  token: unknown,
  email: string | null,
  now = new Date(),
): Promise<{ account: AccountRecord; returnTo: string | null } | null> {
  if (!isSecretShaped(token) || email === null) return null;
  const rec = await db.accounts.consumeSignInToken(sha256Hex(token), email, now);
  if (!rec) return null;
  const account = await db.accounts.ensureAccount(rec.email, now, newId('acct'));
  return { account, returnTo: rec.returnTo };
}
