// Microdata: the HTML "microdata" algorithm, itemref included, over the index page-markup.ts builds in its walk.
import type { DefaultTreeAdapterTypes as P5 } from 'parse5';
import type { Entity, EntityValue } from '../../artifacts.js';
import { attr, isElement, resolveUrl, textOf, type Budget } from './dom.js';
import { addProp, normaliseProp, normaliseType } from './entities.js';
import { MAX_DOM_DEPTH, MAX_ENTITIES } from './limits.js';

type Element = P5.Element;

export interface DomIndex {
  ids: Map<string, Element>; // first element per id, for itemref
  depth: Map<Element, number>; // depth of items and id'd elements, so crawls stop at the DOM cap too
  scopes: Element[]; // elements with itemscope, in document order
  order: Map<Element, number> | null; // document order, computed only when some item uses itemref
}

// Microdata value rules (HTML "microdata" §5.2.4), plus the `content` attribute on any element, which Google and
// extruct accept and many stores use (<span itemprop="price" content="34.99">).
const SRC_ELEMENTS = new Set(['audio', 'embed', 'iframe', 'img', 'source', 'track', 'video']);
const HREF_ELEMENTS = new Set(['a', 'area', 'link']);

function microdataValue(el: Element, baseUrl: string | null, budget: Budget): string {
  const content = attr(el, 'content');
  if (content !== null) return content.trim();
  const tag = el.tagName;
  const urlAttr = SRC_ELEMENTS.has(tag) ? 'src' : HREF_ELEMENTS.has(tag) ? 'href' : tag === 'object' ? 'data' : null;
  if (urlAttr) {
    const v = attr(el, urlAttr);
    return v === null ? '' : (resolveUrl(v, baseUrl) ?? v.trim());
  }
  if (tag === 'data' || tag === 'meter') return (attr(el, 'value') ?? '').trim();
  if (tag === 'time') {
    const dt = attr(el, 'datetime');
    if (dt !== null) return dt.trim();
  }
  return textOf(el, budget);
}

export function microdataItems(index: DomIndex, baseUrl: string | null, budget: Budget): Entity[] {
  const entities = new Map<Element, Entity>();
  for (const el of index.scopes.slice(0, MAX_ENTITIES)) {
    const types = (attr(el, 'itemtype') ?? '')
      .slice(0, 1000)
      .split(/\s+/)
      .map(normaliseType)
      .filter((t): t is string => t !== null);
    entities.set(el, { types, props: {}, source: 'microdata' });
  }
  const nested = new Set<Element>();
  for (const [el, entity] of entities) {
    for (const propEl of itemProperties(el, index, budget)) {
      const names = (attr(propEl, 'itemprop') ?? '').slice(0, 1000).split(/\s+/).filter((x) => x !== '');
      const item = entities.get(propEl);
      if (item) nested.add(propEl);
      const value: EntityValue = item ?? microdataValue(propEl, baseUrl, budget);
      if (value === '') continue;
      for (const name of names) addProp(entity, normaliseProp(name), value);
    }
  }
  // An itemscope that is nobody's property is top-level, even when it carries a stray itemprop (Argos'
  // <div itemprop="mainEntityOfPage" itemscope> has no parent item); extruct and Google read it the same way.
  return [...entities].filter(([el]) => !nested.has(el)).map(([, e]) => e);
}

/**
 * The microdata "crawl the properties" algorithm (HTML §5.2.5), in tree order, with extruct's reading of itemref
 * to an element that is an item but no property (its own properties are pulled in).
 */
function itemProperties(root: Element, index: DomIndex, budget: Budget): Element[] {
  const found: Element[] = [];
  const memory = new Set<Element>([root]);
  const pending: Element[] = [];
  const depths: number[] = [];
  const pushChildren = (el: Element, depth: number): void => {
    if (depth >= MAX_DOM_DEPTH) return; // elements past the cap were never walked; they are not crawled either
    const kids = el.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) {
      const k = kids[i];
      if (isElement(k) && k.tagName !== 'template') {
        pending.push(k);
        depths.push(depth + 1);
      }
    }
  };
  const refs = (attr(root, 'itemref') ?? '').slice(0, 1000).split(/\s+/).filter((id) => id !== '');
  for (let r = refs.length - 1; r >= 0; r--) {
    const target = index.ids.get(refs[r]);
    if (!target) continue;
    const depth = index.depth.get(target) ?? MAX_DOM_DEPTH;
    if (attr(target, 'itemscope') !== null && attr(target, 'itemprop') === null) pushChildren(target, depth);
    else {
      pending.push(target);
      depths.push(depth);
    }
  }
  pushChildren(root, index.depth.get(root) ?? MAX_DOM_DEPTH);
  while (pending.length > 0 && budget.steps-- > 0) {
    const current = pending.pop() as Element;
    const depth = depths.pop() as number;
    if (memory.has(current)) continue;
    memory.add(current);
    if ((attr(current, 'itemprop') ?? '').trim() !== '') found.push(current);
    if (attr(current, 'itemscope') === null) pushChildren(current, depth);
  }
  // Without itemref the walk above already yields tree order.
  if (refs.length > 0 && index.order) {
    const order = index.order;
    found.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  }
  return found;
}
