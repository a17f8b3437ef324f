// Browsers say where a request comes from (Sec-Fetch-Site, Origin); a scan started by another site's page (an
// <img> or a form pointing at the scan endpoint) would spend its visitors' quota and scan what that site chose.
// Clients that send neither header (curl, SDKs, agents) are not browsers and are never refused here.
import type { Request } from 'express';
import { AppError } from './errors.js';

/** The refusal for a cross-site browser request, or null. `baseUrl` is BASE_URL; the request's own origin counts too. */
export function crossSiteRefusal(req: Request, baseUrl: string): AppError | null {
  if (isCrossSite(req, baseUrl)) {
    return new AppError(
      'CROSS_SITE_REFUSED',
      'Scans cannot be started by another site’s page. Use the form on this site, or call the API directly (no browser).',
    );
  }
  return null;
}

// Sec-Fetch-Site, when a browser sends it, is its own verdict. `same-site` is refused as the console does: a sibling
// subdomain (any page of the same registrable domain) is another site's page here. `Origin: null` is what a
// same-origin form sends from a page with Referrer-Policy: no-referrer (ours), so only without that verdict does it
// count as foreign.
function isCrossSite(req: Request, baseUrl: string): boolean {
  const site = req.get('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = req.get('origin')?.toLowerCase();
  if (origin === undefined) return false;
  if (origin === 'null') return site === undefined;
  return !ownOrigins(req, baseUrl).has(origin);
}

function ownOrigins(req: Request, baseUrl: string): Set<string> {
  const own = new Set<string>();
  try {
    own.add(new URL(baseUrl).origin.toLowerCase());
  } catch {
    /* BASE_URL is validated at start-up; nothing to add otherwise */
  }
  const host = req.get('host');
  if (host) own.add(`${req.protocol}://${host}`.toLowerCase());
  return own;
}
