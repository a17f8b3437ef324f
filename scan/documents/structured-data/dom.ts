// DOM helpers shared by the microdata and RDFa readers and by html.ts: attributes, URL resolution and bounded text.
import type { DefaultTreeAdapterTypes as P5 } from 'parse5';
import { MAX_DOM_DEPTH, MAX_STEPS, MAX_TEXT_VALUE } from './limits.js';

type Element = P5.Element;
type Node = P5.Node;

export function attr(el: Element, name: string): string | null {
  for (const a of el.attrs) if (a.name === name) return a.value;
  return null;
}

export function isElement(n: Node): n is Element {
  return (n as Element).tagName !== undefined;
}

/** Resolves a URL against the page; null when it cannot be parsed. */
export function resolveUrl(href: string, base: string | null): string | null {
  try {
    return new URL(href.trim(), base ?? undefined).href;
  } catch {
    return null;
  }
}

const TEXT_SKIP = new Set(['script', 'style', 'template', 'noscript']);
// Elements that flow inside a line of text; every other element (and <br>) separates words, as in rendered text.
export const INLINE_ELEMENTS: ReadonlySet<string> = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'img', 'ins', 'kbd',
  'label', 'mark', 'q', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var',
  'nobr', 'big', 'output', 'meta', 'link',
]);

export interface Budget {
  steps: number;
}

/** Text of an element's subtree, whitespace collapsed, capped; the walk spends the shared step budget. */
export function textOf(el: Element, budget: Budget = { steps: MAX_STEPS }, maxDepth = MAX_DOM_DEPTH): string {
  const parts: string[] = [];
  let len = 0;
  const stack: ({ n: Node; d: number } | null)[] = [{ n: el, d: 0 }]; // null = a word break after an element
  while (stack.length > 0 && len < MAX_TEXT_VALUE && budget.steps-- > 0) {
    const item = stack.pop() as { n: Node; d: number } | null;
    if (item === null) {
      parts.push(' ');
      continue;
    }
    const { n, d } = item;
    if (n.nodeName === '#text') {
      const v = (n as P5.TextNode).value;
      parts.push(v);
      len += v.length;
      continue;
    }
    if (!isElement(n) || TEXT_SKIP.has(n.tagName) || d >= maxDepth) continue;
    const breaks = !INLINE_ELEMENTS.has(n.tagName);
    if (breaks) {
      parts.push(' ');
      stack.push(null);
    }
    const kids = n.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ n: kids[i], d: d + 1 });
  }
  return collapse(parts.join('')).slice(0, MAX_TEXT_VALUE);
}

export function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
