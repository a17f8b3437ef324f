// The machine-readable data a page carries, read the tolerant way agents and search engines read it: JSON-LD
// (lenient parse), microdata (HTML "microdata" algorithm incl. itemref) and RDFa Lite, all as Entity objects.
// Everything here is iterative and bounded (limits.ts): hostile nesting cannot overflow the stack, and the entities
// it returns form a tree (no cycles), so they serialise safely.
export { MAX_DOM_DEPTH, MAX_JSON_DEPTH } from './limits.js';
export { parseJsonLenient, type LenientJson } from './lenient-json.js';
export { decodeEntities, jsonLdEntities } from './json-ld.js';
export { domEntities } from './page-markup.js';
export { INLINE_ELEMENTS, attr, collapse, resolveUrl, textOf, type Budget } from './dom.js';
export {
  entitiesOf,
  firstString,
  flattenEntities,
  hasProp,
  hasType,
  listFor,
  normaliseProp,
  normaliseType,
  propEntities,
  propStrings,
  propText,
  propValues,
} from './entities.js';
