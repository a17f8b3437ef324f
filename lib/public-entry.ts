// Which scan of a store is its public score (index row, rank, badge, verify, MCP reads): only a scan of the
// store's entry point. Anyone may scan any page of any store, so a scan of a contact page, a login wall or a
// query-string variant must not replace the store's listing (docs/decisions.md, "API").

/**
 * True when `scanned` (the normalised URL the caller asked for) is the store's entry point: the site root with no
 * query, or, once a verified owner has set one, exactly the owner's entry path (and query).
 */
export function isPublicEntry(scanned: URL, ownerEntryPath?: string | null): boolean {
  const asked = scanned.pathname + scanned.search;
  if (ownerEntryPath) return asked === ownerEntryPath;
  return asked === '/';
}

/** The sentence a non-entry scan carries in its result and on its report page. */
export function notPublicEntryNote(scanned: URL, ownerEntryPath?: string | null): string {
  const entry = new URL(ownerEntryPath || '/', scanned.origin).href;
  return `This scan of ${scanned.href} is not the store's public score: only a scan of its entry point (${entry}) updates the readiness index, badge and verification.`;
}
