// The entity model every reader produces and every consumer reads: type and property names in schema.org spelling,
// case-insensitive accessors (real pages write "pricecurrency" and "productId"), and the final tree shape.
import type { Entity, EntityValue } from '../../artifacts.js';
import { MAX_JSON_DEPTH } from './limits.js';

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
// Accessors (property names compared without case when the exact name is absent)

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

export function addProp(e: Entity, name: string, value: EntityValue): void {
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

/** Exact and cheap: the readers store types as normaliseType spells them, and callers name them the same way. */
export function hasType(e: Entity, types: ReadonlySet<string>): boolean {
  return e.types.some((t) => types.has(t));
}

/** The entities carrying one of the types, compared without case (types outside the known list keep their spelling). */
export function entitiesOf(entities: readonly Entity[], types: readonly string[]): Entity[] {
  const wanted = new Set(types.map((t) => t.toLowerCase()));
  return entities.filter((e) => e.types.some((t) => wanted.has(t.toLowerCase())));
}

/** First non-empty string value of a property (an entity's `name`, `url` or `@id` when the value is a node). */
export function propText(e: Entity, name: string): string | null {
  for (const v of propValues(e, name)) {
    if (typeof v === 'string') {
      if (v.trim() !== '') return v.trim();
    } else {
      const inner = propText(v, 'name') ?? propText(v, 'url') ?? propText(v, 'value');
      if (inner) return inner;
    }
  }
  return null;
}

export function hasProp(e: Entity, name: string): boolean {
  return propValues(e, name).some((v) => (typeof v === 'string' ? v.trim() !== '' : true));
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
