// The structure of a page, as a small fixed-size signature, and pages grouped by it: pages made from one template
// share most of their element structure whatever their text. The structure is the set of parent > child element
// pairs, each element named by its tag and class tokens with digits dropped ("product-1234" and "product-77" are one
// name); the signature is a MinHash of that set (Broder 1997): 32 numbers whose share of equal positions estimates
// the share of pairs two pages have in common (Jaccard similarity). 128 bytes a page, however large the page.
import type { DefaultTreeAdapterTypes as P5 } from 'parse5';

export const SIGNATURE_SIZE = 32;
/** Pages at least this similar in structure are one template (measured: product pages of one theme ≥ 0.8, two themes ≤ 0.4). */
export const SAME_TEMPLATE = 0.7;
const MAX_ELEMENTS = 20_000;
const MAX_DEPTH = 256;

type Element = P5.Element;

function nameOf(el: Element): string {
  const cls = el.attrs.find((a) => a.name === 'class')?.value ?? '';
  const tokens = cls.slice(0, 300).toLowerCase().replace(/\d+/g, '').split(/\s+/).filter((t) => t !== '' && t !== '-' && t !== '_');
  return tokens.length === 0 ? el.tagName : `${el.tagName}.${[...new Set(tokens)].sort().slice(0, 8).join('.')}`;
}

/** FNV-1a, 32 bits. */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** One of SIGNATURE_SIZE independent hashes of a 32-bit value (a murmur3 finaliser of the value mixed with a seed). */
function mix(h: number, seed: number): number {
  let x = (h ^ Math.imul(seed + 1, 0x9e3779b1)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** The MinHash signature of the page's parent > child element pairs (an explicit stack, bounded in elements and depth). */
export function structureSignature(doc: P5.Document): number[] {
  const pairs = new Set<number>();
  const stack: { node: P5.Node; parent: string; depth: number }[] = [{ node: doc, parent: '#document', depth: 0 }];
  let seen = 0;
  while (stack.length > 0 && seen < MAX_ELEMENTS) {
    const { node, parent, depth } = stack.pop()!;
    let name = parent;
    if ('tagName' in node) {
      seen++;
      name = nameOf(node as Element);
      pairs.add(fnv(`${parent}>${name}`));
    }
    if (depth >= MAX_DEPTH || !('childNodes' in node)) continue;
    for (const child of (node as P5.ParentNode).childNodes) if ('tagName' in child) stack.push({ node: child, parent: name, depth: depth + 1 });
  }
  const signature = new Array<number>(SIGNATURE_SIZE).fill(0xffffffff);
  for (const pair of pairs) {
    for (let i = 0; i < SIGNATURE_SIZE; i++) {
      const v = mix(pair, i);
      if (v < signature[i]) signature[i] = v;
    }
  }
  return signature;
}

/** Estimated share of structure two pages have in common, 0 to 1. */
export function similarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  return same / a.length;
}

/**
 * Groups signatures into templates, greedily in the order given: a page joins the first template whose first page it
 * resembles at least `threshold`, else starts a new one. Returns each page's template number (0, 1, …, in order of
 * first appearance). Linear in pages × templates; a store has a handful of product templates.
 */
export function groupByTemplate(signatures: readonly (readonly number[] | null)[], threshold = SAME_TEMPLATE): number[] {
  const heads: (readonly number[])[] = [];
  return signatures.map((sig) => {
    if (!sig) return -1;
    const found = heads.findIndex((head) => similarity(head, sig) >= threshold);
    if (found >= 0) return found;
    heads.push(sig);
    return heads.length - 1;
  });
}
