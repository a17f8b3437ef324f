// The machine-readable data a page carries, read the tolerant way agents and search engines read it: JSON-LD
// (lenient parse), microdata (HTML "microdata" algorithm incl. itemref) and RDFa Lite, all as Entity objects.
// Everything here is iterative and bounded (JSON depth 64, DOM depth 512, step budgets): hostile nesting cannot
// overflow the stack, and the entities it returns form a tree (no cycles), so they serialise safely.
import type { DefaultTreeAdapterTypes as P5 } from 'parse5';
import type { Entity, EntityValue } from './artifacts.js';

export const MAX_JSON_DEPTH = 64; // design/security.md R5
export const MAX_DOM_DEPTH = 512; // design/security.md R5
const MAX_ENTITIES = 5_000; // per page and source; a catalogue page has a few hundred at most
const MAX_TEXT_VALUE = 10_000; // characters kept from one text value
const MAX_STEPS = 2_000_000; // DOM node visits spent on microdata/RDFa crawling per page

type Element = P5.Element;
type Node = P5.Node;

// ---------------------------------------------------------------------------------------------------------------
// Lenient JSON

export type LenientJson =
  | { ok: true; value: unknown; repairs: string[]; truncated: boolean }
  | { ok: false; error: string };

interface JsonFrame {
  container: Record<string, unknown> | unknown[];
  isObject: boolean;
  key: string | null;
}

/**
 * Parses a JSON-LD block the way tolerant consumers do: HTML comment and CDATA wrappers, JS comments, raw control
 * characters in strings, single quotes, trailing or missing commas and several concatenated values are repaired
 * (and reported in `repairs`). Containers nested deeper than 64 are dropped (`truncated`). Unterminated input fails.
 */
export function parseJsonLenient(input: string): LenientJson {
  return new LenientParser(input).run();
}

class LenientParser {
  private pos = 0;
  private readonly repairs = new Set<string>();
  private readonly stack: JsonFrame[] = [];
  private discardDepth = 0; // open containers beyond MAX_JSON_DEPTH, skipped without building
  private truncated = false;
  private readonly top: unknown[] = [];
  private pendingComma = false; // a comma was seen since the last value
  private needComma = false; // a value just ended, so a separator should come before the next one

  constructor(private readonly s: string) {}

  run(): LenientJson {
    try {
      this.parseAll();
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
    if (this.stack.length > 0 || this.discardDepth > 0) return { ok: false, error: 'unterminated object or array' };
    if (this.top.length === 0) return { ok: false, error: 'no JSON value' };
    if (this.top.length > 1) this.repairs.add('concatenated values');
    const value = this.top.length === 1 ? this.top[0] : this.top;
    return { ok: true, value, repairs: [...this.repairs], truncated: this.truncated };
  }

  private fail(what: string): never {
    throw new Error(`${what} at offset ${this.pos}`);
  }

  private parseAll(): void {
    const s = this.s;
    for (;;) {
      this.skipTrivia();
      if (this.pos >= s.length) return;
      const ch = s[this.pos];
      const frame = this.stack[this.stack.length - 1];
      if (ch === ',') {
        if (this.pendingComma) this.repairs.add('extra comma');
        this.pendingComma = true;
        this.needComma = false;
        this.pos++;
        continue;
      }
      if (ch === '}' || ch === ']') {
        this.close(ch);
        continue;
      }
      if (ch === ':' && this.discardDepth > 0) {
        this.pos++; // keys inside a dropped container are read as plain strings
        continue;
      }
      if (this.discardDepth === 0 && frame?.isObject && frame.key === null) {
        this.readKey(frame);
        continue;
      }
      if (ch === ';' && this.stack.length === 0 && this.discardDepth === 0) {
        this.pos++; // "{…};" as pasted from a script
        this.repairs.add('semicolon');
        continue;
      }
      this.beforeValue();
      if (ch === '{' || ch === '[') this.open(ch === '{');
      else this.emit(this.readScalar());
    }
  }

  private beforeValue(): void {
    const frame = this.stack[this.stack.length - 1];
    if (this.needComma && this.discardDepth === 0 && frame && !frame.isObject) this.repairs.add('missing comma');
    this.pendingComma = false;
    this.needComma = false;
  }

  private open(isObject: boolean): void {
    this.pos++;
    this.needComma = false;
    if (this.discardDepth > 0 || this.stack.length >= MAX_JSON_DEPTH) {
      this.discardDepth++;
      this.truncated = true;
      return;
    }
    this.stack.push({ container: isObject ? {} : [], isObject, key: null });
  }

  private close(ch: string): void {
    this.pos++;
    if (this.pendingComma) this.repairs.add('trailing comma');
    this.pendingComma = false;
    if (this.discardDepth > 0) {
      this.discardDepth--;
      this.needComma = true;
      const parent = this.stack[this.stack.length - 1];
      if (this.discardDepth === 0 && parent?.isObject) parent.key = null; // the dropped value's key goes too
      return;
    }
    const frame = this.stack.pop();
    if (!frame) this.fail(`unexpected "${ch}"`);
    if (frame.isObject !== (ch === '}')) this.fail(`mismatched "${ch}"`);
    if (frame.isObject && frame.key !== null) this.fail(`missing value for "${frame.key.slice(0, 40)}"`);
    this.emit(frame.container, true);
  }

  private emit(value: unknown, fromClose = false): void {
    this.needComma = true;
    if (this.discardDepth > 0 && !fromClose) return;
    const frame = this.stack[this.stack.length - 1];
    if (!frame) {
      this.top.push(value);
      return;
    }
    if (!frame.isObject) {
      (frame.container as unknown[]).push(value);
      return;
    }
    const key = frame.key as string;
    frame.key = null;
    // Defined, not assigned: a "__proto__" key becomes an own property (as with JSON.parse), never the prototype.
    Object.defineProperty(frame.container, key, { value, enumerable: true, writable: true, configurable: true });
  }

  private readKey(frame: JsonFrame): void {
    if (this.needComma && !this.pendingComma) this.repairs.add('missing comma');
    this.pendingComma = false;
    this.needComma = false;
    const ch = this.s[this.pos];
    let key: string;
    if (ch === '"' || ch === "'") key = this.readString();
    else {
      const ident = this.readIdent();
      if (ident === '') this.fail(`unexpected "${ch}"`);
      this.repairs.add('unquoted key');
      key = ident;
    }
    this.skipTrivia();
    if (this.s[this.pos] !== ':') this.fail('expected ":"');
    this.pos++;
    frame.key = key;
  }

  private readScalar(): unknown {
    const s = this.s;
    const ch = s[this.pos];
    if (ch === '"' || ch === "'") return this.readString();
    if ((ch >= '0' && ch <= '9') || ch === '-' || ch === '+' || ch === '.') return this.readNumber();
    const ident = this.readIdent();
    switch (ident) {
      case 'true':
        return true;
      case 'false':
        return false;
      case 'null':
        return null;
      case 'undefined':
      case 'NaN':
      case 'Infinity':
        this.repairs.add('non-JSON literal');
        return null;
      default:
        return this.fail(`unexpected ${ident === '' ? `"${ch}"` : `"${ident.slice(0, 20)}"`}`);
    }
  }

  private readIdent(): string {
    const start = this.pos;
    const s = this.s;
    while (this.pos < s.length && /[A-Za-z0-9_$@-]/.test(s[this.pos])) this.pos++;
    return s.slice(start, this.pos);
  }

  private readNumber(): number {
    const s = this.s;
    const start = this.pos;
    if (s[this.pos] === '-' || s[this.pos] === '+') this.pos++;
    while (this.pos < s.length && /[0-9.eE+-]/.test(s[this.pos])) this.pos++;
    const text = s.slice(start, this.pos);
    const n = Number(text);
    if (!Number.isFinite(n)) this.fail(`bad number "${text.slice(0, 20)}"`);
    if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) this.repairs.add('non-JSON number');
    return n;
  }

  private readString(): string {
    const s = this.s;
    const quote = s[this.pos];
    if (quote === "'") this.repairs.add('single quotes');
    this.pos++;
    let out = '';
    let chunkStart = this.pos;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 0x5c /* \ */) {
        out += s.slice(chunkStart, this.pos) + this.readEscape();
        chunkStart = this.pos;
        continue;
      }
      if (s[this.pos] === quote) {
        out += s.slice(chunkStart, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) this.repairs.add('control characters in string');
      this.pos++;
    }
    return this.fail('unterminated string');
  }

  private readEscape(): string {
    const s = this.s;
    const e = s[this.pos + 1];
    this.pos += 2;
    switch (e) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'u': {
        const hex = s.slice(this.pos, this.pos + 4);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.pos += 4;
          return String.fromCharCode(parseInt(hex, 16));
        }
        this.repairs.add('bad escape');
        return 'u';
      }
      case '"':
      case '\\':
      case '/':
        return e;
      case undefined:
        return this.fail('unterminated string');
      default:
        this.repairs.add('bad escape'); // \' and friends: keep the character, as JS would
        return e;
    }
  }

  /** Whitespace, JS comments and the HTML comment / CDATA wrappers sites put around JSON-LD. */
  private skipTrivia(): void {
    const s = this.s;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff || c === 0xa0) {
        this.pos++;
      } else if (s.startsWith('//', this.pos)) {
        const end = s.indexOf('\n', this.pos);
        this.pos = end === -1 ? s.length : end + 1;
        this.repairs.add('comments');
      } else if (s.startsWith('/*', this.pos)) {
        const end = s.indexOf('*/', this.pos + 2);
        if (end === -1) this.fail('unterminated comment');
        this.pos = end + 2;
        this.repairs.add('comments');
      } else if (this.skipWrapper('<!--') || this.skipWrapper('-->') || this.skipWrapper('<![CDATA[') || this.skipWrapper(']]>')) {
        this.repairs.add('HTML comment or CDATA wrapper');
      } else {
        return;
      }
    }
  }

  private skipWrapper(token: string): boolean {
    if (!this.s.startsWith(token, this.pos)) return false;
    this.pos += token.length;
    return true;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Names

// Canonical spelling of the schema.org types this project reads, for repairing "product", "aggregaterating" …
const KNOWN_TYPES = [
  'Product', 'ProductGroup', 'ProductModel', 'IndividualProduct', 'SomeProducts', 'Vehicle', 'Car', 'Motorcycle',
  'Book', 'Offer', 'AggregateOffer', 'OfferCatalog', 'PriceSpecification', 'UnitPriceSpecification',
  'CompoundPriceSpecification', 'MonetaryAmount', 'AggregateRating', 'Rating', 'Review', 'Brand', 'Organization',
  'Corporation', 'OnlineStore', 'OnlineBusiness', 'LocalBusiness', 'Store', 'Person', 'Thing', 'ImageObject',
  'VideoObject', 'BreadcrumbList', 'ListItem', 'ItemList', 'WebSite', 'WebPage', 'ItemPage', 'SearchAction',
  'EntryPoint', 'PropertyValue', 'QuantitativeValue', 'MerchantReturnPolicy', 'OfferShippingDetails',
  'ShippingDeliveryTime', 'DefinedRegion', 'PostalAddress', 'ContactPoint', 'NewsArticle', 'Article', 'BlogPosting',
  'FAQPage', 'Question', 'Answer', 'SiteNavigationElement', 'Country', 'Place', 'ReserveAction', 'BuyAction',
];
const KNOWN_BY_LOWER = new Map(KNOWN_TYPES.map((t) => [t.toLowerCase(), t]));
const SCHEMA_PREFIX = /^(?:https?:\/\/(?:www\.)?(?:schema\.org|data-vocabulary\.org)\/|schema:)/i;

/** "http://schema.org/Product", "schema:Product", "product" → "Product"; other vocabularies are kept as written. */
export function normaliseType(raw: string): string | null {
  let t = raw.trim();
  if (t === '' || t.length > 200) return null;
  t = t.replace(SCHEMA_PREFIX, '').replace(/\/$/, '');
  if (t === '') return null;
  const known = KNOWN_BY_LOWER.get(t.toLowerCase());
  if (known) return known;
  if (/^[a-z][A-Za-z0-9]*$/.test(t)) return t[0].toUpperCase() + t.slice(1);
  return t;
}

/** Property names lose a schema.org prefix; their case is kept (helpers below match case-insensitively). */
export function normaliseProp(raw: string): string {
  return raw.trim().replace(SCHEMA_PREFIX, '');
}

// ---------------------------------------------------------------------------------------------------------------
// Entity helpers (case-insensitive, because real pages write "pricecurrency" and "productId")

/**
 * Appends a value under a property name. Names come from the page, so "__proto__", "constructor" and friends must
 * never hit the object's prototype chain: own properties only, defined rather than assigned.
 */
export function listFor<T>(map: Record<string, T[]>, key: string): T[] {
  if (Object.hasOwn(map, key)) return map[key];
  const list: T[] = [];
  Object.defineProperty(map, key, { value: list, enumerable: true, writable: true, configurable: true });
  return list;
}

function addProp(e: Entity, name: string, value: EntityValue): void {
  if (name !== '') listFor(e.props, name).push(value);
}

export function propValues(e: Entity, name: string): EntityValue[] {
  if (Object.hasOwn(e.props, name)) return e.props[name];
  const lower = name.toLowerCase();
  const out: EntityValue[] = [];
  for (const key of Object.keys(e.props)) {
    if (key.toLowerCase() === lower) for (const v of e.props[key]) out.push(v);
  }
  return out;
}

export function propStrings(e: Entity, name: string): string[] {
  return propValues(e, name).filter((v): v is string => typeof v === 'string');
}

export function propEntities(e: Entity, name: string): Entity[] {
  return propValues(e, name).filter((v): v is Entity => typeof v !== 'string');
}

export function firstString(e: Entity, name: string): string | null {
  for (const v of propValues(e, name)) if (typeof v === 'string' && v.trim() !== '') return v.trim();
  return null;
}

export function hasType(e: Entity, types: ReadonlySet<string>): boolean {
  return e.types.some((t) => types.has(t));
}

// ---------------------------------------------------------------------------------------------------------------
// JSON-LD → entities

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', euro: '€', pound: '£', yen: '¥', cent: '¢',
  copy: '©', reg: '®', trade: '™', hellip: '…', ndash: '–', mdash: '—', lsquo: '‘', rsquo: '’', ldquo: '“',
  rdquo: '”', laquo: '«', raquo: '»', deg: '°', times: '×', middot: '·', bull: '•',
};

/** Decodes the HTML entities some sites leave inside JSON-LD strings ("Black &amp; Silver"). */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    const name = Object.hasOwn(NAMED_ENTITIES, body) ? body : body.toLowerCase();
    return Object.hasOwn(NAMED_ENTITIES, name) ? NAMED_ENTITIES[name] : whole;
  });
}

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function isReference(o: JsonObject): boolean {
  const keys = Object.keys(o);
  return keys.length === 1 && keys[0] === '@id' && typeof o['@id'] === 'string';
}

function isNode(o: JsonObject): boolean {
  return Object.keys(o).some((k) => k !== '@context' && k !== '@graph' && k !== '@id');
}

/** Indexes nodes that define an @id, so {"@id": …} references elsewhere on the page can be followed. */
function indexIds(blocks: unknown[]): Map<string, JsonObject> {
  const ids = new Map<string, JsonObject>();
  const stack: { v: unknown; d: number }[] = blocks.map((v) => ({ v, d: 0 }));
  let steps = 0;
  while (stack.length > 0 && steps++ < 200_000) {
    const { v, d } = stack.pop() as { v: unknown; d: number };
    if (d > MAX_JSON_DEPTH) continue;
    if (Array.isArray(v)) {
      for (const x of v) stack.push({ v: x, d: d + 1 });
    } else if (isObject(v)) {
      const id = v['@id'];
      if (typeof id === 'string' && !isReference(v) && isNode(v) && !ids.has(id)) ids.set(id, v);
      for (const x of Object.values(v)) if (typeof x === 'object' && x !== null) stack.push({ v: x, d: d + 1 });
    }
  }
  return ids;
}

interface ConvertTask {
  json: JsonObject;
  entity: Entity;
  depth: number;
  path: readonly string[]; // @ids being expanded above this node (a reference back to one of them is a cycle)
}

/**
 * Turns parsed JSON-LD blocks into top-level entities: top-level arrays and @graph members become entities,
 * nested objects become nested entities, {"@id"} references are expanded (cycles and the entity budget stop it).
 */
export function jsonLdEntities(blocks: unknown[]): Entity[] {
  const ids = indexIds(blocks);
  const tops: Entity[] = [];
  const tasks: ConvertTask[] = [];
  let budget = MAX_ENTITIES;

  const newEntity = (json: JsonObject, depth: number, path: readonly string[]): Entity | null => {
    if (budget <= 0 || depth > MAX_JSON_DEPTH) return null;
    budget--;
    const entity: Entity = { types: jsonTypes(json['@type']), props: {}, source: 'json-ld' };
    const id = json['@id'];
    tasks.push({ json, entity, depth, path: typeof id === 'string' ? [...path, id] : path });
    return entity;
  };

  for (const node of topLevelNodes(blocks)) {
    const e = newEntity(node, 1, []);
    if (e) tops.push(e);
  }
  for (let i = 0; i < tasks.length; i++) {
    const task = tasks[i];
    for (const [key, raw] of Object.entries(task.json)) {
      if (key.startsWith('@')) continue;
      const values = jsonValues(raw, task, ids, newEntity);
      if (values.length > 0) {
        const name = normaliseProp(key);
        for (const v of values) addProp(task.entity, name, v);
      }
    }
  }
  return tops;
}

function* topLevelNodes(blocks: unknown[]): Generator<JsonObject> {
  // Depth-first in document order: a block's @graph members come before the next block's nodes.
  const stack: { v: unknown; d: number }[] = [];
  for (let i = blocks.length - 1; i >= 0; i--) stack.push({ v: blocks[i], d: 0 });
  let steps = 0;
  while (stack.length > 0 && steps++ < 100_000) {
    const { v, d } = stack.pop() as { v: unknown; d: number };
    if (d > MAX_JSON_DEPTH) continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], d: d + 1 });
    } else if (isObject(v)) {
      if (isNode(v) && !isReference(v)) yield v;
      const graph = v['@graph'];
      if (graph !== undefined) stack.push({ v: graph, d: d + 1 });
    }
  }
}

function jsonTypes(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : [raw];
  const out: string[] = [];
  for (const t of list) {
    if (typeof t !== 'string') continue;
    const n = normaliseType(t);
    if (n && !out.includes(n)) out.push(n);
  }
  return out;
}

function jsonValues(
  raw: unknown,
  task: ConvertTask,
  ids: Map<string, JsonObject>,
  newEntity: (json: JsonObject, depth: number, path: readonly string[]) => Entity | null,
): EntityValue[] {
  const out: EntityValue[] = [];
  const stack: { v: unknown; d: number }[] = [{ v: raw, d: 0 }];
  while (stack.length > 0) {
    const { v, d } = stack.pop() as { v: unknown; d: number };
    if (task.depth + d > MAX_JSON_DEPTH) continue;
    if (typeof v === 'string') {
      const s = decodeEntities(v).trim();
      if (s !== '') out.push(s);
    } else if (typeof v === 'number' || typeof v === 'boolean') {
      out.push(String(v));
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], d: d + 1 });
    } else if (isObject(v)) {
      if ('@value' in v) stack.push({ v: v['@value'], d: d + 1 });
      else if ('@list' in v || '@set' in v) stack.push({ v: v['@list'] ?? v['@set'], d: d + 1 });
      else if (isReference(v)) out.push(expandReference(v['@id'] as string, task, ids, newEntity));
      else if (isNode(v)) {
        const e = newEntity(v, task.depth + 1, task.path);
        if (e) out.push(e);
      }
    }
  }
  return out;
}

function expandReference(
  id: string,
  task: ConvertTask,
  ids: Map<string, JsonObject>,
  newEntity: (json: JsonObject, depth: number, path: readonly string[]) => Entity | null,
): EntityValue {
  const target = ids.get(id);
  if (!target || task.path.includes(id)) return id;
  return newEntity(target, task.depth + 1, task.path) ?? id;
}

// ---------------------------------------------------------------------------------------------------------------
// DOM helpers (kept here so html.ts can import this module without a cycle)

export function attr(el: Element, name: string): string | null {
  for (const a of el.attrs) if (a.name === name) return a.value;
  return null;
}

function isElement(n: Node): n is Element {
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

// ---------------------------------------------------------------------------------------------------------------
// Microdata and RDFa Lite

interface DomIndex {
  ids: Map<string, Element>; // first element per id, for itemref
  depth: Map<Element, number>; // depth of items and id'd elements, so crawls stop at the DOM cap too
  scopes: Element[]; // elements with itemscope, in document order
  order: Map<Element, number> | null; // document order, computed only when some item uses itemref
}

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

function parsePrefixes(value: string, inherited: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  const out = new Map(inherited);
  const parts = value.trim().slice(0, 2000).split(/\s+/);
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (parts[i].endsWith(':')) out.set(parts[i].slice(0, -1).toLowerCase(), parts[i + 1]);
  }
  return out;
}

/** RDFa Lite: typeof opens an entity, property adds a value to the nearest open one. Returns the new subject. */
function rdfaStep(
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

function microdataItems(index: DomIndex, baseUrl: string | null, budget: Budget): Entity[] {
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

// ---------------------------------------------------------------------------------------------------------------
// Final shape

/**
 * Makes the entity graph a bounded tree (an entity reached a second time, or nested deeper than 64, is replaced by
 * a copy without nested entities) and returns every entity in document order, parents before their children.
 */
export function flattenEntities(tops: Entity[]): Entity[] {
  const out: Entity[] = [];
  const claimed = new Set<Entity>(); // entities already placed in the tree
  const stack: { e: Entity; d: number }[] = [];
  for (let i = tops.length - 1; i >= 0; i--) {
    if (claimed.has(tops[i])) continue;
    claimed.add(tops[i]);
    stack.push({ e: tops[i], d: 1 });
  }
  while (stack.length > 0) {
    const { e, d } = stack.pop() as { e: Entity; d: number };
    out.push(e);
    const children: Entity[] = [];
    for (const key of Object.keys(e.props)) {
      e.props[key] = e.props[key].map((v) => {
        if (typeof v === 'string') return v;
        if (claimed.has(v) || d + 1 > MAX_JSON_DEPTH) return shallowCopy(v);
        claimed.add(v);
        children.push(v);
        return v;
      });
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push({ e: children[i], d: d + 1 });
  }
  return out;
}

function shallowCopy(e: Entity): Entity {
  const props: Record<string, EntityValue[]> = {};
  for (const [k, vs] of Object.entries(e.props)) {
    const strings = vs.filter((v): v is string => typeof v === 'string');
    for (const v of strings) listFor(props, k).push(v);
  }
  return { types: [...e.types], props, source: e.source };
}
