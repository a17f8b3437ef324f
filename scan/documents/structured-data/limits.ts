// Caps that keep hostile markup cheap: every walk over JSON or the DOM is iterative and stops at these bounds, so
// deep nesting cannot overflow the stack and one page cannot spend unbounded work.
export const MAX_JSON_DEPTH = 64; // docs/security.md R5
export const MAX_DOM_DEPTH = 512; // docs/security.md R5
export const MAX_ENTITIES = 5_000; // per page and source; a catalogue page has a few hundred at most
export const MAX_TEXT_VALUE = 10_000; // characters kept from one text value
export const MAX_STEPS = 2_000_000; // DOM node visits spent on microdata/RDFa crawling per page
