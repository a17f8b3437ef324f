// Owner verification: an account claims a host and gets a token; the host proves ownership by showing it, either
// as <meta name="store-readiness-verification" content="TOKEN"> in the <head> of its homepage or on a line of its
// own in a text/plain /.well-known/store-readiness.txt. Only answers the store itself gives count: a redirect may
// change scheme or add/drop www. but never leave the host, and a page that merely quotes the token (a soft-404
// echoing the path, a review in the body) proves nothing. Both are fetched with the scanner's fetcher (same
// address rules, size and time caps). Several accounts may verify one host; a failed check stores nothing.
import { randomBytes } from 'node:crypto';
import type { Config } from '../lib/config.js';
import { hostIdentity } from '../lib/hosts.js';
import { createFetcher, type LookupFunction } from '../outbound/fetch.js';
import { headMeta } from '../scan/documents/html.js';
import { normaliseScanUrl } from '../outbound/url.js';
import type { HttpResponse } from '../scan/artifacts.js';
import type { OwnershipClaim, VerificationMethod } from '../db/monitoring-repo.js';
import { periodOf, type Repository } from '../db/repo.js';
import { AppError } from '../lib/errors.js';

export const META_NAME = 'store-readiness-verification';
export const WELL_KNOWN_PATH = '/.well-known/store-readiness.txt';
const CHECK_TIMEOUT_MS = 15_000;
export const MAX_CLAIMS_PER_ACCOUNT = 20;
export const VERIFY_CHECKS_PER_HOUR = 10;
const HOUR_MS = 3_600_000;

export interface OwnershipDeps {
  db: Repository;
  config: Pick<Config, 'SCAN_ALLOW_PRIVATE' | 'BASE_URL'>;
  now?: () => Date;
  lookup?: LookupFunction; // test seam
  allowIPAddressList?: string[]; // test seam
}

/**
 * Claims the store at `url` for the account (or returns the claim it has): the token to publish. An account holds
 * at most MAX_CLAIMS_PER_ACCOUNT claims; an instance makes an account's claims one after another, so presses sent
 * together cannot pass the cap (instances sharing a MongoDB store could each add one past it at the same instant).
 */
export async function claimHost(deps: OwnershipDeps, accountId: string, url: string): Promise<OwnershipClaim> {
  const target = normaliseScanUrl(typeof url === 'string' ? url : '', { allowPrivate: deps.config.SCAN_ALLOW_PRIVATE });
  const host = hostIdentity(target);
  const now = (deps.now ?? (() => new Date()))();
  const { monitoring } = deps.db;
  return inTurn(deps.db, accountId, async () => {
    const held = await monitoring.getClaim(accountId, host);
    if (held) return held;
    if ((await monitoring.listClaims(accountId)).length >= MAX_CLAIMS_PER_ACCOUNT) {
      throw new AppError('INVALID_PARAMS', `An account can claim at most ${MAX_CLAIMS_PER_ACCOUNT} stores.`);
    }
    const token = `srv-${randomBytes(16).toString('hex')}`;
    return monitoring.putClaim({ accountId, host, origin: target.origin, token, createdAt: now, verifiedAt: null, method: null });
  });
}

/**
 * Takes one of the account's verification checks of this hour (every check fetches the store: a press is not
 * free for the site checked), or says when the next one is allowed. A refused press spends nothing.
 */
export async function takeVerifyCheck(db: Repository, accountId: string, now = new Date()): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  const hourEnds = (Math.floor(now.getTime() / HOUR_MS) + 1) * HOUR_MS;
  const key = `verify-check:${accountId}`;
  const used = await db.incrementUsage(key, periodOf(hourEnds));
  if (used <= VERIFY_CHECKS_PER_HOUR) return { ok: true };
  await db.incrementUsage(key, periodOf(hourEnds), -1);
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((hourEnds - now.getTime()) / 1000)) };
}

export type VerifyResult = { verified: true; method: VerificationMethod; claim: OwnershipClaim } | { verified: false; message: string };

/**
 * Looks for the token on the host; marks the claim verified when found. A verified claim whose site now answers
 * without the token loses its verification here too ("Check again" is a re-check like the scheduled one).
 */
export async function verifyHost(deps: OwnershipDeps, accountId: string, host: string): Promise<VerifyResult> {
  const claim = await deps.db.monitoring.getClaim(accountId, host);
  if (!claim) throw new AppError('NOT_FOUND', `This account has not claimed ${host}; claim it first to get a verification token.`);
  const method = await findToken(deps, claim);
  if (!method.found) {
    if (!claim.verifiedAt || !method.answered) return { verified: false, message: method.message };
    await deps.db.monitoring.clearVerified(accountId, host);
    return { verified: false, message: `${method.message} ${host} is no longer verified: publish the token again, then press Verify now.` };
  }
  const at = (deps.now ?? (() => new Date()))();
  await deps.db.monitoring.markVerified(accountId, host, at, method.found);
  return { verified: true, method: method.found, claim: (await deps.db.monitoring.getClaim(accountId, host))! };
}

/**
 * Checks again, before a scheduled scan, that the token is still on the site. Only a site that answered without
 * the token loses its verification; one that could not be read keeps it (the scan will say what is wrong).
 */
export async function recheckOwnership(deps: OwnershipDeps, claim: OwnershipClaim): Promise<'verified' | 'withdrawn' | 'unreadable'> {
  const result = await findToken(deps, claim);
  if (result.found) return 'verified';
  if (!result.answered) return 'unreadable';
  await deps.db.monitoring.clearVerified(claim.accountId, claim.host);
  return 'withdrawn';
}

async function findToken(
  deps: OwnershipDeps,
  claim: OwnershipClaim,
): Promise<{ found: VerificationMethod } | { found?: undefined; message: string; answered: boolean }> {
  const fetcher = createFetcher({
    allowPrivate: deps.config.SCAN_ALLOW_PRIVATE,
    allowIPAddressList: deps.allowIPAddressList,
    // As for scans: the test allow-list admits its fixture's port; production allows 80 and 443 only.
    allowedPorts: deps.config.SCAN_ALLOW_PRIVATE || deps.allowIPAddressList?.length ? 'any' : [80, 443],
    maxRequests: 8,
    deadlineMs: CHECK_TIMEOUT_MS,
    lookup: deps.lookup,
    baseUrl: deps.config.BASE_URL,
  });
  const home = await fetcher.fetch(`${claim.origin}/`, { kind: 'html' });
  const homeLeft = home.ok && leftTheStore(claim, home.res);
  if (home.ok && !homeLeft && headMeta(home.res.body, META_NAME).includes(claim.token)) return { found: 'meta' };
  const file = await fetcher.fetch(`${claim.origin}${WELL_KNOWN_PATH}`, { kind: 'text' });
  const fileRefusal = file.ok ? wellKnownRefusal(claim, file.res) : null;
  if (file.ok && !fileRefusal && file.res.body.split(/\r?\n/).some((line) => line.trim() === claim.token)) return { found: 'file' };
  const homeSaw = !home.ok
    ? `the homepage could not be read (${home.detail})`
    : homeLeft
      ? `the homepage redirected to another site (${new URL(home.res.url).host})`
      : 'the homepage has no matching store-readiness-verification meta tag in its <head>';
  const fileSaw = !file.ok
    ? `${WELL_KNOWN_PATH} could not be read (${file.detail})`
    : (fileRefusal ?? `${WELL_KNOWN_PATH} does not hold the token on a line of its own`);
  // The site spoke without the token only when both places answered for sure: a page, or 404/410. An error page,
  // a timeout or a refused connection at either is an outage, not a withdrawal.
  const sure = (r: typeof home) => r.ok || r.reason === 'missing';
  const answered = sure(home) && sure(file);
  return { message: `The verification token was not found: ${homeSaw}, and ${fileSaw}.`, answered };
}

/** Did the answer come from another site than the claimed one (any hop)? Scheme and www. may change, the host not. */
function leftTheStore(claim: OwnershipClaim, res: HttpResponse): boolean {
  return [...res.redirects, res.url].some((hop) => !sameStore(claim.host, hop));
}

function sameStore(host: string, href: string): boolean {
  try {
    return hostIdentity(new URL(href)) === host;
  } catch {
    return false;
  }
}

/** Why a 2xx answer for the well-known file is not the file the owner published, or null when it is. */
function wellKnownRefusal(claim: OwnershipClaim, res: HttpResponse): string | null {
  if (leftTheStore(claim, res)) return `${WELL_KNOWN_PATH} redirected to another site (${new URL(res.url).host})`;
  const landed = new URL(res.url);
  if (landed.pathname !== WELL_KNOWN_PATH || landed.search !== '') return `${WELL_KNOWN_PATH} redirected to ${landed.pathname.slice(0, 100)}, not the file itself`;
  // A soft-404 page or a page that quotes the token is HTML; the file is plain text.
  if (res.contentType !== 'text/plain') return `${WELL_KNOWN_PATH} answered ${res.contentType || 'no content type'}, not text/plain`;
  return null;
}

/**
 * Each account's claims made one after another (the count and the insert are two steps), per database handle: an app
 * opens its own, so two apps in one process keep separate queues and a queue goes when its handle does.
 */
const claimingByDb = new WeakMap<Repository, Map<string, Promise<unknown>>>();

async function inTurn<T>(db: Repository, accountId: string, run: () => Promise<T>): Promise<T> {
  let claiming = claimingByDb.get(db);
  if (!claiming) claimingByDb.set(db, (claiming = new Map()));
  const queue = claiming;
  const mine = (queue.get(accountId) ?? Promise.resolve()).catch(() => undefined).then(run);
  queue.set(accountId, mine);
  try {
    return await mine;
  } finally {
    if (queue.get(accountId) === mine) queue.delete(accountId);
  }
}
