// One walk over a parsed page that indexes its microdata items and reads its RDFa Lite entities on the way.
import type { DefaultTreeAdapterTypes as P5 } from 'parse5';
import type { Entity } from '../../artifacts.js';
import { isElement, type Budget } from './dom.js';
import { MAX_DOM_DEPTH, MAX_ENTITIES, MAX_STEPS } from './limits.js';
import { microdataItems, type DomIndex } from './microdata.js';
import { parsePrefixes, rdfaStep } from './rdfa.js';

type Element = P5.Element;
type Node = P5.Node;

/** Microdata and RDFa Lite items of a document, top-level entities only (nested ones hang off their props). */
export function domEntities(doc: P5.Document, baseUrl: string | null): { microdata: Entity[]; rdfa: Entity[] } {
  const budget: Budget = { steps: MAX_STEPS };
  const { index, rdfa, itemref } = walkDom(doc, baseUrl, budget);
  if (itemref) index.order = documentOrder(doc);
  return { microdata: microdataItems(index, baseUrl, budget), rdfa };
}

// One pass over the elements; per element only a scan of its attributes, RDFa context carried on the stack.
function walkDom(doc: P5.Document, baseUrl: string | null, budget: Budget): { index: DomIndex; rdfa: Entity[]; itemref: boolean } {
  const index: DomIndex = { ids: new Map(), depth: new Map(), scopes: [], order: null };
  const rdfa: Entity[] = [];
  let rdfaCount = 0;
  let itemref = false;
  const nodes: Node[] = [doc];
  const depths: number[] = [0];
  const subjects: (Entity | null)[] = [null];
  const prefixStack: ReadonlyMap<string, string>[] = [new Map()];
  while (nodes.length > 0) {
    const n = nodes.pop() as Node;
    const depth = depths.pop() as number;
    let subject = subjects.pop() as Entity | null;
    let prefixes = prefixStack.pop() as ReadonlyMap<string, string>;
    if (isElement(n)) {
      if (n.tagName === 'template') continue; // inert content
      let rdfaAttrs = false;
      for (const a of n.attrs) {
        switch (a.name) {
          case 'id':
            if (a.value !== '' && !index.ids.has(a.value)) {
              index.ids.set(a.value, n);
              index.depth.set(n, depth);
            }
            break;
          case 'itemscope':
            index.scopes.push(n);
            index.depth.set(n, depth);
            break;
          case 'itemref':
            itemref = true;
            break;
          case 'prefix':
            prefixes = parsePrefixes(a.value, prefixes);
            break;
          case 'typeof':
          case 'property':
            rdfaAttrs = true;
            break;
        }
      }
      if (rdfaAttrs && rdfaCount < MAX_ENTITIES) {
        const next = rdfaStep(n, subject, prefixes, baseUrl, budget, rdfa);
        if (next !== subject) rdfaCount++;
        subject = next;
      }
      if (depth >= MAX_DOM_DEPTH) continue;
    }
    const kids = (n as P5.ParentNode).childNodes;
    if (!kids) continue;
    for (let i = kids.length - 1; i >= 0; i--) {
      if (!isElement(kids[i])) continue;
      nodes.push(kids[i]);
      depths.push(depth + 1);
      subjects.push(subject);
      prefixStack.push(prefixes);
    }
  }
  return { index, rdfa, itemref };
}

function documentOrder(doc: P5.Document): Map<Element, number> {
  const order = new Map<Element, number>();
  const nodes: Node[] = [doc];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const n = nodes.pop() as Node;
    const depth = depths.pop() as number;
    if (isElement(n)) order.set(n, order.size);
    const kids = (n as P5.ParentNode).childNodes;
    if (!kids || depth >= MAX_DOM_DEPTH) continue;
    for (let i = kids.length - 1; i >= 0; i--) {
      if (isElement(kids[i])) {
        nodes.push(kids[i]);
        depths.push(depth + 1);
      }
    }
  }
  return order;
}
