// RDFa Lite: typeof opens an entity, property adds a value to the nearest open one, prefix declares CURIE prefixes.
import type { DefaultTreeAdapterTypes as P5 } from 'parse5';
import type { Entity, EntityValue } from '../../artifacts.js';
import { attr, resolveUrl, textOf, type Budget } from './dom.js';
import { addProp, normaliseProp, normaliseType } from './entities.js';

type Element = P5.Element;

export function parsePrefixes(value: string, inherited: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  const out = new Map(inherited);
  const parts = value.trim().slice(0, 2000).split(/\s+/);
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (parts[i].endsWith(':')) out.set(parts[i].slice(0, -1).toLowerCase(), parts[i + 1]);
  }
  return out;
}

/** RDFa Lite: typeof opens an entity, property adds a value to the nearest open one. Returns the new subject. */
export function rdfaStep(
  el: Element,
  subject: Entity | null,
  prefixes: ReadonlyMap<string, string>,
  baseUrl: string | null,
  budget: Budget,
  tops: Entity[],
): Entity | null {
  const typeofAttr = attr(el, 'typeof');
  const propertyAttr = attr(el, 'property');
  let created: Entity | null = null;
  if (typeofAttr !== null) {
    const types = typeofAttr
      .slice(0, 1000)
      .split(/\s+/)
      .map((t) => normaliseType(expandCurie(t, prefixes)))
      .filter((t): t is string => t !== null);
    created = { types, props: {}, source: 'rdfa' };
  }
  if (propertyAttr !== null && subject !== null) {
    const value: EntityValue = created ?? rdfaValue(el, baseUrl, budget);
    for (const p of propertyAttr.slice(0, 1000).split(/\s+/)) {
      if (p === '' || value === '') continue;
      const name = normaliseProp(expandCurie(p, prefixes));
      addProp(subject, name, value);
    }
  } else if (created) {
    tops.push(created);
  }
  return created ?? subject;
}

function expandCurie(term: string, prefixes: ReadonlyMap<string, string>): string {
  const colon = term.indexOf(':');
  if (colon <= 0 || term.startsWith('http')) return term;
  const iri = prefixes.get(term.slice(0, colon).toLowerCase());
  return iri ? iri + term.slice(colon + 1) : term;
}

function rdfaValue(el: Element, baseUrl: string | null, budget: Budget): string {
  const content = attr(el, 'content');
  if (content !== null) return content.trim();
  for (const name of ['resource', 'href', 'src']) {
    const v = attr(el, name);
    if (v !== null) return resolveUrl(v, baseUrl) ?? v.trim();
  }
  const dt = attr(el, 'datetime');
  if (dt !== null) return dt.trim();
  return textOf(el, budget);
}
