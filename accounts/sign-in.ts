// Sign-in by e-mail link: a 256-bit token mailed as a link, stored only as its hash, bound to the address,
// single use, valid 15 minutes. Opening the link only shows a confirm page; the confirm POST consumes it, so
// mail scanners that prefetch links neither burn it nor sign anyone in. The first sign-in creates the account.
import { periodOf, type StoreRepo } from '../store/repo.js';
import type { AccountRecord } from '../store/accounts-repo.js';
import type { Mailer } from './mailer.js';
import { newId, newSecret, sha256Hex, isSecretShaped } from './secrets.js';

export const SIGN_IN_TOKEN_MS = 15 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/** A plain address, lower-cased; null for anything that cannot be one (the form says so, sends nothing). */
export function normaliseEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !/^[^\s@<>()",;:\\[\]]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/.test(email)) return null;
  return email;
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
 * Mails a sign-in link unless the address or the client has had its mails for this hour. Whether an account
 * exists changes nothing here, so the answer never tells.
 */
export async function requestSignIn(
  deps: { store: StoreRepo; mailer: Mailer; baseUrl: string; limits: SignInLimits },
  input: { email: string; ip: string; returnTo: string | null },
  now = new Date(),
): Promise<SignInRequest> {
  const { store } = deps;
  const { period, retryAfterSeconds } = hourWindow(now.getTime());
  const byAddress = `sign-in-mail:addr:${sha256Hex(input.email)}`;
  const byIp = `sign-in-mail:ip:${input.ip}`;
  const [sentToAddress, sentFromIp] = await Promise.all([store.getUsage(byAddress, period), store.getUsage(byIp, period)]);
  if (sentToAddress >= deps.limits.perAddress || sentFromIp >= deps.limits.perIp) return { outcome: 'limited', retryAfterSeconds };

  const token = newSecret();
  await store.accounts.putSignInToken({
    tokenHash: sha256Hex(token),
    email: input.email,
    returnTo: input.returnTo,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SIGN_IN_TOKEN_MS),
  });
  await Promise.all([store.incrementUsage(byAddress, period), store.incrementUsage(byIp, period)]);
  const link = `${deps.baseUrl}/console/sign-in/confirm?token=${token}`;
  try {
    await deps.mailer.send({ to: input.email, subject: 'Your Store Readiness sign-in link', text: signInText(link) });
  } catch (error) {
    await store.accounts.consumeSignInToken(sha256Hex(token), input.email, now).catch(() => null); // a link nobody got
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
export async function previewSignIn(store: StoreRepo, token: unknown, now = new Date()): Promise<{ email: string } | null> {
  if (!isSecretShaped(token)) return null;
  const rec = await store.accounts.peekSignInToken(sha256Hex(token), now);
  return rec ? { email: rec.email } : null;
}

/** Consumes the token for this address and returns its account (created on first sign-in), or null. */
export async function confirmSignIn(
  store: StoreRepo,
  token: unknown,
  email: string | null,
  now = new Date(),
): Promise<{ account: AccountRecord; returnTo: string | null } | null> {
  if (!isSecretShaped(token) || email === null) return null;
  const rec = await store.accounts.consumeSignInToken(sha256Hex(token), email, now);
  if (!rec) return null;
  const account = await store.accounts.ensureAccount(rec.email, now, newId('acct'));
  return { account, returnTo: rec.returnTo };
}
