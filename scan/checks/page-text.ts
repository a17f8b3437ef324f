// Looking things up in page text and links (prices are read by scan/products/price.ts, stock by scan/products/availability.ts).
import type { LinkInfo } from '../artifacts.js';

/** Whitespace-collapsed lower case, for comparing names with page text. */
export function normText(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Where the product name first appears in a normalised text, or -1. Only the first 40 characters are compared:
 * pages often show the name without the variant suffix the markup adds ("… - Murum black").
 */
export function nameIndex(normalisedText: string, names: readonly (string | null | undefined)[]): { name: string; at: number } | null {
  for (const n of names) {
    if (typeof n !== 'string') continue;
    const key = normText(n).slice(0, 40).trim();
    if (key.length < 2) continue;
    const at = normalisedText.indexOf(key);
    if (at >= 0) return { name: n.trim(), at };
  }
  return null;
}

/** Anchor text plus URL path (no query: "?return_to=" is not a returns page), lower case, for keyword lookups. */
export function linkHaystack(l: LinkInfo): string {
  let path = l.href;
  if (l.url) {
    try {
      path = new URL(l.url).pathname;
    } catch {
      path = l.url;
    }
  }
  return `${l.text.slice(0, 200)} ${path.split('?')[0].slice(0, 300)}`.toLowerCase();
}

/** The first phrase found in a lower-case text, or null. */
export function findPhrase(text: string, phrases: readonly string[]): string | null {
  for (const p of phrases) if (text.includes(p)) return p;
  return null;
}
