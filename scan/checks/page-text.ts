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

/**
 * Anchor text plus URL path (no query: "?return_to=" is not a returns page), lower case, for keyword lookups.
 * Several checks look through every link of every sampled page (thousands on a large page), so each link's
 * haystack is made once per scan.
 */
export function linkHaystack(l: LinkInfo): string {
  let hay = haystacks.get(l);
  if (hay === undefined) {
    hay = `${l.text.slice(0, 200)} ${pathOf(l).split('?')[0].slice(0, 300)}`.toLowerCase();
    haystacks.set(l, hay);
  }
  return hay;
}

const haystacks = new WeakMap<LinkInfo, string>();

/** The link's path: read off the absolute URL as the parser wrote it (parsing it again costs more than the lookup). */
function pathOf(l: LinkInfo): string {
  if (!l.url) return l.href;
  const http = /^https?:\/\/[^/?#]*(\/[^?#]*)?/i.exec(l.url);
  if (http) return http[1] ?? '/';
  try {
    return new URL(l.url).pathname;
  } catch {
    return l.url;
  }
}

/** The first phrase found in a lower-case text, or null. */
export function findPhrase(text: string, phrases: readonly string[]): string | null {
  for (const p of phrases) if (text.includes(p)) return p;
  return null;
}
