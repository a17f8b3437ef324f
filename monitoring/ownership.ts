// Owner verification: an account claims a host and gets a token; the host proves ownership by showing it, either
// as <meta name="store-readiness-verification" content="TOKEN"> on its homepage or on a line of
// /.well-known/store-readiness.txt. Both are fetched with the scanner's fetcher (same address rules, size and
// time caps). Several accounts may verify one host; a failed check stores nothing.
import { randomBytes } from 'node:crypto';
import type { Config } from '../lib/config.js';
import { hostIdentity } from '../lib/hosts.js';
import { createFetcher, type LookupFunction } from '../scan/fetch.js';
import { metaContent, parsePage } from '../scan/html.js';
import { normaliseScanUrl } from '../scan/url.js';
import type { OwnershipClaim, VerificationMethod } from '../store/monitoring-repo.js';
import type { StoreRepo } from '../store/repo.js';
import { AppError } from '../lib/errors.js';

export const META_NAME = 'store-readiness-verification';
export const WELL_KNOWN_PATH = '/.well-known/store-readiness.txt';
const CHECK_TIMEOUT_MS = 15_000;

export interface OwnershipDeps {
  store: StoreRepo;
  config: Pick<Config, 'SCAN_ALLOW_PRIVATE' | 'BASE_URL'>;
  now?: () => Date;
  lookup?: LookupFunction; // test seam
  allowIPAddressList?: string[]; // test seam
}

/** Claims the store at `url` for the account (or returns the claim it has): the token to publish. */
export async function claimHost(deps: OwnershipDeps, accountId: string, url: string): Promise<OwnershipClaim> {
  const target = normaliseScanUrl(typeof url === 'string' ? url : '', { allowPrivate: deps.config.SCAN_ALLOW_PRIVATE });
  return deps.store.monitoring.putClaim({
    accountId,
    host: hostIdentity(target),
    origin: target.origin,
    token: `srv-${randomBytes(16).toString('hex')}`,
    createdAt: (deps.now ?? (() => new Date()))(),
    verifiedAt: null,
    method: null,
  });
}

export type VerifyResult = { verified: true; method: VerificationMethod; claim: OwnershipClaim } | { verified: false; message: string };

/** Looks for the token on the host; marks the claim verified when found. */
export async function verifyHost(deps: OwnershipDeps, accountId: string, host: string): Promise<VerifyResult> {
  const claim = await deps.store.monitoring.getClaim(accountId, host);
  if (!claim) throw new AppError('NOT_FOUND', `This account has not claimed ${host}; claim it first to get a verification token.`);
  const method = await findToken(deps, claim);
  if (!method.found) return { verified: false, message: method.message };
  const at = (deps.now ?? (() => new Date()))();
  await deps.store.monitoring.markVerified(accountId, host, at, method.found);
  return { verified: true, method: method.found, claim: (await deps.store.monitoring.getClaim(accountId, host))! };
}

/**
 * Checks again, before a scheduled scan, that the token is still on the site. Only a site that answered without
 * the token loses its verification; one that could not be read keeps it (the scan will say what is wrong).
 */
export async function recheckOwnership(deps: OwnershipDeps, claim: OwnershipClaim): Promise<'verified' | 'withdrawn' | 'unreadable'> {
  const result = await findToken(deps, claim);
  if (result.found) return 'verified';
  if (!result.answered) return 'unreadable';
  await deps.store.monitoring.clearVerified(claim.accountId, claim.host);
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
  if (home.ok) {
    const page = parsePage(home.res.body, home.res.url);
    if (metaContent(page.meta, META_NAME) === claim.token) return { found: 'meta' };
  }
  const file = await fetcher.fetch(`${claim.origin}${WELL_KNOWN_PATH}`, { kind: 'text' });
  if (file.ok && file.res.body.split(/\r?\n/).some((line) => line.trim() === claim.token)) return { found: 'file' };
  const homeSaw = home.ok ? 'the homepage has no matching store-readiness-verification meta tag' : `the homepage could not be read (${home.detail})`;
  const fileSaw = file.ok ? `${WELL_KNOWN_PATH} does not hold the token on a line` : `${WELL_KNOWN_PATH} could not be read (${file.detail})`;
  const answered = home.res !== undefined || file.res !== undefined; // the site spoke, without the token
  return { message: `The verification token was not found: ${homeSaw}, and ${fileSaw}.`, answered };
}
