// Which scan of a store is its public score (index row, rank, badge, verify, MCP reads): only a scan of the
// store's entry point. Anyone may scan any page of any store, so a scan of a contact page, a login wall or a
// query-string variant must not replace the store's listing (docs/decisions.md, "API").
import { hostIdentity } from './hosts.js';

/** True when `scanned` (the normalised URL the caller asked for) is the store's entry point: the site root with no query. */
export function isPublicEntry(scanned: URL): boolean {
  return scanned.pathname + scanned.search === '/';
}

/** The sentence a non-entry scan carries in its result and on its report page. */
export function notPublicEntryNote(scanned: URL): string {
  const entry = new URL('/', scanned.origin).href;
  return `This scan of ${scanned.href} is not the store's public score: only a scan of its entry point (${entry}) updates the readiness index, badge and verification.`;
}

export interface EntryFacts {
  /** The normalised URL the caller asked for. */
  scanned: URL;
  /** Where its homepage ended after redirects (null when it gave no answer). */
  landed: URL | null;
  /** The URL asked by the scan that is the store's public entry now, if it has one. */
  entryUrl: URL | null;
  /** Origins the store's verified owners claimed: their own spelling of the store's root. */
  ownerOrigins: readonly string[];
}

/**
 * Does this scan become the store's public entry? docs/decisions.md "The store's own root and owner verification": only a scan of the root
 * (isPublicEntry) that the store itself answered, and only from its own root — the host as the index files it
 * (no "www.", no trailing dot) or an origin a verified owner claimed. Another spelling of the host counts only when
 * it redirects there. Over http the own root counts unless the entry was taken over https and this answer stayed
 * on http (the https site is the store; its http side may answer something else). A root redirecting to another
 * site is the entry of neither.
 */
export function entryVerdict(facts: EntryFacts): { publicEntry: boolean; note: string | null } {
  const { scanned, landed } = facts;
  if (!isPublicEntry(scanned)) return { publicEntry: false, note: notPublicEntryNote(scanned) };
  if (landed && hostIdentity(landed) !== hostIdentity(scanned)) {
    return {
      publicEntry: false,
      note: `The root of ${scanned.host} redirects to another site (${landed.host}): this scan is the public score of neither. Scan ${landed.origin}/ to score that site.`,
    };
  }
  const ownRoot = ownRootOf(scanned);
  const isOwnRoot = (u: URL) => u.hostname === ownRoot.hostname || facts.ownerOrigins.includes(u.origin);
  if (!isOwnRoot(scanned) && !(landed && isOwnRoot(landed))) {
    return {
      publicEntry: false,
      note: `This scan of ${scanned.href} is not the store's public score: ${scanned.host} is another spelling of the store's address that does not lead to its own root (${ownRoot.href}); only a scan of that root updates the readiness index, badge and verification.`,
    };
  }
  const entryOverHttps = facts.entryUrl?.protocol === 'https:' && isOwnRoot(facts.entryUrl);
  if (scanned.protocol === 'http:' && entryOverHttps && landed?.protocol !== 'https:') {
    return {
      publicEntry: false,
      note: `This scan of ${scanned.href} is not the store's public score: the store answers over https, and its http address answered without leading there; only a scan of ${ownRoot.href.replace(/^http:/, 'https:')} updates the readiness index, badge and verification.`,
    };
  }
  return { publicEntry: true, note: null };
}

/** The store's own root for a scanned URL: same scheme and port, the host as the index files it. */
function ownRootOf(scanned: URL): URL {
  const own = new URL('/', scanned);
  let host = own.hostname.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.startsWith('www.')) host = host.slice(4);
  own.hostname = host;
  return own;
}
