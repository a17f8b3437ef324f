// How checks word their evidence: short quotes of headers and page text, and one-line descriptions of fetches.
import type { Resource } from '../artifacts.js';
import { responseOf } from '../documents/resources.js';

export const NO_PRODUCT_PAGE = 'no product page found';
/** Evidence of a check that threw; score.ts never caps on it (our bug is not the store's block). */
export const INTERNAL_ERROR_EVIDENCE = 'The check could not evaluate this store (internal error).';
export const SNIPPET_MAX = 160;

/** One line, at most `max` characters, for quoting a header or a piece of a page in evidence. */
export function snippet(text: string | null | undefined, max = SNIPPET_MAX): string {
  if (!text) return '';
  const flat = text.slice(0, max * 4).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function quote(text: string | null | undefined, max = SNIPPET_MAX): string {
  return `"${snippet(text, max)}"`;
}

/** "https://shop.example/llms.txt → 200 text/plain" or "… → timeout (5 s)". */
export function describe(r: Resource): string {
  const res = responseOf(r);
  if (res) return `${res.url} → ${res.status}${res.contentType ? ` ${res.contentType}` : ''}`;
  if (r.ok) return r.res.url;
  const detail = r.detail && r.detail !== r.reason ? ` (${snippet(r.detail, 80)})` : '';
  return `${r.url} → ${r.reason === 'not-fetched' ? 'not fetched' : r.reason}${detail}`;
}
