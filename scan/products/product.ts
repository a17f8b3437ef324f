// What a shopping agent can learn about the product on a page, and from where: the richest Product entity
// (JSON-LD, then microdata, then RDFa), then OpenGraph / meta tags, then the visible text, each fact with its source.
// Reads PageFacts only (no DOM, no network); every regex is linear and runs on capped text.
import type { AvailabilityBasis, Entity, EntityValue, Fact, FactSource, PageFacts, ProductFacts } from '../artifacts.js';
import { collapse, firstString, hasType, propEntities, propStrings, propValues, resolveUrl } from '../documents/structured-data/index.js';
import { currencySignals, elementPrice, findPrices, impliedCurrency, normaliseCurrency, parseStructuredPrice, priceMentions, sellingPriceOf, type SellingPrice } from './price.js';
import { choosePrice, type BuyBoxPrices } from './price-choice.js';
import { attributeCodes } from './attribute-codes.js';
import { shownCode } from './item-codes.js';
import { agreeingStatus, availabilityKind, availabilityState, bestAvailability, normaliseAvailability } from './availability.js';
import { asideLines, buyBoxAvailability, buyBoxWindow, priceBeforeTitle } from './buy-box.js';
import { gtinValid } from './identifiers.js';
import { brandInBreadcrumbs, brandInLabelSentence, brandNextToTitle, isSellerName, latinBrandInTitle, sellerNames, titleNamesBrand, titlePrefixLinked } from './brand-text.js';
import { ID_LABELS, PLACEHOLDER, rowValue, identifierEntities, labelRegex, labelledBy, labelledIdentifiers, labelledValues, markupIdentifiers, mergeIdentifiers, metaIdentifiers, urlIdentifiers, urlProductId, type ProductIdentifier } from './identifier-labels.js';
import { TITLE_WINDOW, hasPurchaseControl, isProductEntity, metaPrice, ogProduct, recognizeProductPage, titleIndex, type Recognition } from './recognize.js';

const OFFER_TYPES: ReadonlySet<string> = new Set(['Offer', 'AggregateOffer']);
const BRAND_TYPES: ReadonlySet<string> = new Set([
  'Brand', 'Organization', 'Corporation', 'OnlineStore', 'OnlineBusiness', 'LocalBusiness', 'Store',
]);
const ATTRIBUTE_PROPS = ['color', 'size', 'material', 'pattern', 'category', 'additionalProperty', 'variesBy'];
const SOURCE_ORDER: readonly Entity['source'][] = ['json-ld', 'microdata', 'rdfa'];

// ---------------------------------------------------------------------------------------------------------------
// Entry points

/** docs/checks.md §2, widened: markup, OpenGraph product tags, or what the page shows (scan/products/recognize.ts). */
export function isProductPage(page: PageFacts): boolean {
  return recognizeProductPage(page).isProduct;
}

/**
 * Product facts with their sources, or null when the page is not a product page. A product page without any
 * markup still yields what its visible text says (source html; `markup` is then 'none').
 */
export function extractProduct(page: PageFacts, recognition: Recognition = recognizeProductPage(page)): ProductFacts | null {
  if (!recognition.isProduct) return null;
  const choice = chooseProduct(page.entities);
  const readings: Reading[] = [];
  if (choice) {
    readings.push(entityReading(choice.entity, choice.members, page));
    for (const other of secondaryProducts(page.entities, choice)) readings.push(entityReading(other, [other], page));
  }
  readings.push(metaReading(page), plainMetaReading(page));
  readings.push(htmlReading(page, readings));
  return assemble(page, readings, choice);
}

// ---------------------------------------------------------------------------------------------------------------
// Choosing the product entity

interface Choice {
  entity: Entity;
  members: Entity[]; // the entity plus its variants (hasVariant, or same-name siblings: one node per variant)
  offers: Entity[];
}

/** How much an agent learns from the entity (a group counts what its variants add). */
function richness(e: Entity): number {
  const members = [e, ...propEntities(e, 'hasVariant')];
  const fields = ['name', 'image', 'description', 'brand', 'sku', 'gtin13', 'gtin', 'mpn', 'aggregateRating'];
  let score = fields.filter((f) => members.some((m) => propValues(m, f).length > 0)).length;
  const offers = members.flatMap(offersOf);
  if (offers.length > 0) score += 2;
  if (offers.some((o) => priceCandidates(o).length > 0)) score += 2;
  if (propEntities(e, 'hasVariant').length > 0) score += 2;
  return score;
}

/** JSON-LD first, then microdata, then RDFa; within a source the richest entity (earliest on ties). */
function chooseProduct(entities: readonly Entity[]): Choice | null {
  for (const source of SOURCE_ORDER) {
    let candidates = entities.filter(
      (e) => e.source === source && isProductEntity(e) && (firstString(e, 'name') !== null || offersOf(e).length > 0),
    );
    if (candidates.length === 0) continue;
    // A ProductGroup's variants are read through the group, never instead of it.
    const variants = new Set(candidates.flatMap((c) => propEntities(c, 'hasVariant')));
    const groups = candidates.filter((c) => !variants.has(c));
    if (groups.length > 0) candidates = groups;
    let best = candidates[0];
    let bestScore = richness(best);
    for (const c of candidates.slice(1)) {
      const s = richness(c);
      if (s > bestScore) [best, bestScore] = [c, s];
    }
    const members = groupMembers(best, candidates);
    return { entity: best, members, offers: members.flatMap(offersOf) };
  }
  return null;
}

/** A ProductGroup's variants, or sibling Product nodes with the same name (stores emit one node per variant). */
function groupMembers(best: Entity, candidates: readonly Entity[]): Entity[] {
  const variants = propEntities(best, 'hasVariant').filter(isProductEntity);
  if (variants.length > 0) return offersOf(best).length > 0 ? [best] : [best, ...variants];
  const name = normName(firstString(best, 'name'));
  if (name === '') return [best];
  return [best, ...candidates.filter((c) => c !== best && normName(firstString(c, 'name')) === name)];
}

/** Other sources' product entity for the same product (e.g. microdata next to a thinner JSON-LD block). */
function secondaryProducts(entities: readonly Entity[], choice: Choice): Entity[] {
  const name = normName(firstString(choice.entity, 'name'));
  const out: Entity[] = [];
  for (const source of SOURCE_ORDER) {
    if (source === choice.entity.source) continue;
    const same = entities.filter((e) => e.source === source && isProductEntity(e) && namesMatch(name, normName(firstString(e, 'name'))));
    if (same.length > 0) out.push(same.reduce((a, b) => (richness(b) > richness(a) ? b : a)));
  }
  return out;
}

function normName(s: string | null): string {
  return collapse(s ?? '').toLowerCase();
}

function namesMatch(a: string, b: string): boolean {
  if (a === '' || b === '') return false;
  return a === b || (a.length >= 8 && b.includes(a)) || (b.length >= 8 && a.includes(b));
}

function offersOf(e: Entity): Entity[] {
  const out: Entity[] = [];
  for (const o of propEntities(e, 'offers')) {
    out.push(o);
    for (const inner of propEntities(o, 'offers')) out.push(inner); // AggregateOffer.offers
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Readings: what one source says; assemble() takes each fact from the first reading that has it

interface Reading {
  source: FactSource;
  name?: string;
  description?: string;
  images?: string[];
  price?: SellingPrice;
  /** Body reading only: the amounts its buy box shows, to weigh a markup price against. */
  buyBox?: BuyBoxPrices;
  currency?: string;
  availability?: string;
  availabilityBasis?: AvailabilityBasis; // body readings only
  brand?: { value: string; isEntity: boolean };
  gtin?: string;
  mpn?: string;
  sku?: string;
  identifiers?: ProductIdentifier[];
  /** Body reading only: the SKU and part number its labelled rows print (not its data attributes). */
  labelledCodes?: { sku?: string; mpn?: string };
}

function entityReading(e: Entity, members: readonly Entity[], page: PageFacts): Reading {
  const offers = members.flatMap(offersOf);
  const r: Reading = { source: e.source };
  r.name = cleanText(firstString(e, 'name'), 500);
  r.description = cleanText(stripTags(firstString(e, 'description')), 5_000);
  const images = imageUrls(members.flatMap((m) => propValues(m, 'image')).slice(0, 200), page.url);
  if (images.length > 0) r.images = images;
  r.price = cheapestOffer([...offers, ...members]);
  r.currency = firstOf(offers, 'priceCurrency') ?? firstOfSpecs(offers, 'priceCurrency') ?? firstOf(members, 'priceCurrency') ?? undefined;
  r.availability = bestAvailability([...offers.flatMap((o) => propStrings(o, 'availability')), ...members.flatMap((m) => propStrings(m, 'availability'))]);
  r.brand = brandOf(members);
  r.gtin = gtinOf(members, offers);
  r.mpn = firstOf(members, 'mpn') ?? firstOf(offers, 'mpn') ?? undefined;
  r.sku = firstOf(members, 'sku') ?? firstOf(offers, 'sku') ?? undefined;
  r.identifiers = markupIdentifiers(identifierEntities(members));
  return r;
}

function firstOf(entities: readonly Entity[], prop: string): string | null {
  for (const e of entities) {
    const v = firstString(e, prop);
    if (v !== null) return v;
  }
  return null;
}

function firstOfSpecs(offers: readonly Entity[], prop: string): string | null {
  return firstOf(offers.flatMap((o) => propEntities(o, 'priceSpecification')), prop);
}

/** Each offer's selling price: price, lowPrice, or a priceSpecification that is not a list/strike-through price. */
function priceCandidates(o: Entity): { text: string; currency: string | null }[] {
  const currency = firstString(o, 'priceCurrency');
  const out: { text: string; currency: string | null }[] = [];
  for (const prop of ['price', 'lowPrice']) {
    for (const text of propStrings(o, prop)) out.push({ text, currency });
  }
  if (out.length > 0) return out;
  for (const spec of propEntities(o, 'priceSpecification')) {
    const kind = (firstString(spec, 'priceType') ?? '').toLowerCase();
    if (/listprice|strikethrough|msrp|srp/.test(kind)) continue;
    for (const text of [...propStrings(spec, 'price'), ...propStrings(spec, 'minPrice')]) {
      out.push({ text, currency: firstString(spec, 'priceCurrency') ?? currency });
    }
  }
  return out;
}

/**
 * The lowest positive price over the offers a buyer can take now (a sale offer next to a list-price offer, variant
 * ranges): an offer stated out of stock is no price to pay, unless every offer is.
 */
function cheapestOffer(offers: readonly Entity[]): Reading['price'] {
  const open = offers.filter((o) => !propStrings(o, 'availability').some((v) => availabilityKind(availabilityState(v) ?? v) === 'unavailable'));
  return lowestPrice(open.some((o) => priceCandidates(o).length > 0) ? open : offers);
}

function lowestPrice(offers: readonly Entity[]): Reading['price'] {
  let best: Reading['price'];
  let zero: Reading['price'];
  let unreadable: Reading['price']; // "Call for price": kept as priceText only
  for (const o of offers) {
    for (const c of priceCandidates(o)) {
      const value = parseStructuredPrice(c.text, c.currency);
      if (value === null) unreadable ??= { value: Number.NaN, text: c.text, currency: c.currency };
      else if (value === 0) zero ??= { value: 0, text: c.text, currency: c.currency };
      else if (best === undefined || value < best.value) best = { value, text: c.text, currency: c.currency };
    }
  }
  return best ?? zero ?? unreadable;
}

function brandOf(members: readonly Entity[]): Reading['brand'] {
  for (const m of members) {
    for (const v of propValues(m, 'brand')) {
      if (typeof v === 'string') {
        const s = cleanBrand(v);
        if (s) return { value: s, isEntity: false };
      } else {
        const name = cleanBrand(firstString(v, 'name') ?? '');
        if (name) return { value: name, isEntity: hasType(v, BRAND_TYPES) };
      }
    }
  }
  return undefined;
}

// "Ver mais artigos da Marca: Panasonic": a label sentence around the brand; an agent reads the part after the colon.
function cleanBrand(raw: string): string | undefined {
  let s = collapse(raw);
  if (s.length > 25 && s.includes(':')) s = s.slice(s.lastIndexOf(':') + 1).trim();
  // "Unbranded", "Generic", "N/A": the shop says there is no brand.
  return s !== '' && s.length <= 100 && !PLACEHOLDER.test(s) ? s : undefined;
}

const GTIN_PROPS = ['gtin', 'gtin13', 'gtin12', 'gtin14', 'gtin8', 'isbn'];

function gtinOf(members: readonly Entity[], offers: readonly Entity[]): string | undefined {
  for (const group of [members, offers]) {
    for (const prop of GTIN_PROPS) {
      const v = firstOf(group, prop);
      if (v !== null) return v;
    }
  }
  // productID / identifier holding a bare, check-digit-valid GTIN ("identifier": "8592733020681").
  for (const m of members) {
    for (const v of [...propValues(m, 'productID'), ...propValues(m, 'identifier')]) {
      const text = typeof v === 'string' ? v : identifierValue(v);
      const bare = text?.replace(/^(?:gtin\d*|ean|upc|isbn):/i, '');
      if (bare && gtinValid(bare)) return bare;
    }
  }
  return undefined;
}

function identifierValue(e: Entity): string | null {
  const kind = (firstString(e, 'propertyID') ?? '').toLowerCase();
  return /gtin|ean|upc|isbn/.test(kind) ? firstString(e, 'value') : null;
}

function imageUrls(values: readonly EntityValue[], pageUrl: string): string[] {
  const out: string[] = [];
  for (const v of values) {
    const raw = typeof v === 'string' ? v : (firstString(v, 'contentUrl') ?? firstString(v, 'url'));
    const abs = raw ? httpUrl(raw, pageUrl) : null;
    if (abs && !out.includes(abs)) out.push(abs);
  }
  return out;
}

function httpUrl(raw: string, base: string): string | null {
  const abs = resolveUrl(raw, resolveUrl(base, null));
  return abs !== null && /^https?:\/\//.test(abs) ? abs : null;
}

function metaFirst(meta: Record<string, string[]>, ...keys: string[]): string | null {
  for (const k of keys) for (const v of meta[k] ?? []) if (v.trim() !== '') return v.trim();
  return null;
}

/** OpenGraph product tags (source opengraph), then plain meta tags such as description and Twitter labels. */
function metaReading(page: PageFacts): Reading {
  const m = page.meta;
  const r: Reading = { source: 'opengraph' };
  r.name = cleanText(metaFirst(m, 'og:title'), 500);
  r.description = cleanText(metaFirst(m, 'og:description'), 5_000);
  const images = imageUrls(['og:image', 'og:image:secure_url', 'og:image:url'].flatMap((k) => m[k] ?? []), page.url);
  if (images.length > 0) r.images = images;
  const amount = metaPrice(m);
  if (amount !== null) {
    const currency = metaFirst(m, 'product:price:currency', 'og:price:currency', 'product:sale_price:currency');
    // The currency tells "12.990" in pesos (no decimals) from 12.99 in euros.
    const value = parseStructuredPrice(amount, currency);
    r.price = { value: value ?? Number.NaN, text: amount, currency };
  }
  r.currency = metaFirst(m, 'product:price:currency', 'og:price:currency') ?? undefined;
  r.availability = metaFirst(m, 'product:availability', 'og:availability') ?? undefined;
  const brand = cleanBrand(metaFirst(m, 'product:brand', 'og:brand') ?? '');
  if (brand) r.brand = { value: brand, isEntity: false };
  r.gtin = metaFirst(m, 'product:gtin', 'product:ean', 'product:upc', 'product:isbn', 'og:upc', 'og:ean', 'book:isbn') ?? undefined;
  r.mpn = metaFirst(m, 'product:mfr_part_no') ?? undefined;
  r.sku = metaFirst(m, 'product:retailer_item_id', 'product:sku', 'og:sku') ?? undefined;
  r.identifiers = metaIdentifiers(m);
  return r;
}

/** Facts that are in plain meta tags only (source meta): description, Twitter's "Price" label. */
function plainMetaReading(page: PageFacts): Reading {
  const r: Reading = { source: 'meta' };
  r.description = cleanText(page.metaDescription, 5_000);
  for (let i = 1; i <= 4; i++) {
    const label = metaFirst(page.meta, `twitter:label${i}`) ?? '';
    const data = metaFirst(page.meta, `twitter:data${i}`);
    if (data === null || !/price|preis|prix|prezzo|precio|preço|cena|hind|pris/i.test(label.slice(0, 50))) continue;
    const found = findPrices(data.slice(0, 100))[0];
    if (found) r.price = found;
    break;
  }
  return r;
}

// ---------------------------------------------------------------------------------------------------------------
// Assembling the facts

function assemble(page: PageFacts, readings: Reading[], choice: Choice | null): ProductFacts {
  const pick = <K extends keyof Reading>(key: K): { value: NonNullable<Reading[K]>; source: FactSource } | null => {
    for (const r of readings) {
      const v = r[key];
      if (v !== undefined && v !== null && v !== '') return { value: v as NonNullable<Reading[K]>, source: r.source };
    }
    return null;
  };
  const signals = currencySignals(page);
  const { price, markupPrice } = decidePrice(pick('price'), pick('currency'), readings, page, signals);
  const currencyRaw = price?.value.currency ? { value: price.value.currency, source: price.source } : pick('currency');
  const brand = pick('brand');
  const gtin = pick('gtin');
  const members = choice?.members ?? [];
  const availability = pick('availability');
  const body = readings.find((r) => r.source === 'html');
  const availabilityBasis = availability?.source === 'html' ? body?.availabilityBasis : undefined;
  const labelledCodes = body?.labelledCodes;
  const sku = shownCode(pick('sku'), labelledCodes?.sku, page.visibleText) ?? urlSku(page.url);
  return {
    url: page.url,
    markup: choice ? choice.entity.source : ogProduct(page.meta) || metaPrice(page.meta) !== null ? 'opengraph' : 'none',
    name: fact(pick('name')),
    description: fact(pick('description')),
    images: fact(pick('images')),
    price: price && !Number.isNaN(price.value.value) ? { value: price.value.value, source: price.source } : null,
    ...(markupPrice ? { markupPrice } : {}),
    priceText: price ? { value: collapse(price.value.text).slice(0, 200), source: price.source } : null,
    ...(price?.value.period ? { pricePeriod: { value: price.value.period, source: price.source } } : {}),
    ...(price?.value.exclTax !== undefined ? { priceExclTax: { value: price.value.exclTax, source: price.source } } : {}),
    currency: currencyRaw ? { value: normaliseCurrency(currencyRaw.value, signals), source: currencyRaw.source } : null,
    availability: availability ? { value: availabilityState(availability.value) ?? availability.value, source: availability.source } : null,
    // A markup value that is no schema.org term, kept as published for the availability check.
    ...(availability && availability.source !== 'html' && normaliseAvailability(availability.value) === null
      ? { availabilityRaw: { value: availability.value.trim().slice(0, 100), source: availability.source } }
      : {}),
    ...(availabilityBasis ? { availabilityBasis } : {}),
    brand: brand ? { value: brand.value.value, source: brand.source } : null,
    brandIsEntity: brand?.value.isEntity ?? false,
    gtin: fact(gtin),
    gtinValid: gtin !== null && gtinValid(gtin.value),
    mpn: fact(shownCode(pick('mpn'), labelledCodes?.mpn, page.visibleText)),
    sku: fact(sku),
    identifiers: allIdentifiers(page, readings, sku),
    attributes: ATTRIBUTE_PROPS.filter((p) => members.some((m) => propValues(m, p).length > 0)),
    hasReviews: members.some(hasReviews),
    offerEntities: choice ? choice.offers.filter((o) => hasType(o, OFFER_TYPES) || o.types.length === 0) : [],
    product: choice?.entity ?? null,
  };
}

type PickedPrice = { value: SellingPrice; source: FactSource } | null;

/**
 * The markup's price, unless the buy box says otherwise (scan/products/price-choice.ts): then the page's price, or
 * none when nothing decides; `markupPrice` keeps what the markup said, for the checks that judge the markup.
 */
function decidePrice(
  picked: PickedPrice,
  currency: { value: string; source: FactSource } | null,
  readings: readonly Reading[],
  page: PageFacts,
  signals: ReadonlySet<string>,
): { price: PickedPrice; markupPrice?: NonNullable<ProductFacts['markupPrice']> } {
  const box = readings.find((r) => r.source === 'html')?.buyBox;
  if (!picked || picked.source === 'html' || Number.isNaN(picked.value.value) || !box) return { price: picked };
  // A buy box in another currency (a converter, a second store) says nothing about the markup's amount.
  const ours = normaliseCurrency(picked.value.currency ?? currency?.value ?? '', signals);
  const theirs = normaliseCurrency(box.selling.currency ?? '', signals);
  if (ours !== '' && theirs !== '' && ours !== theirs) return { price: picked };
  const choice = choosePrice(picked.value.value, box, page.visibleText);
  if (choice.take === 'markup') return { price: picked };
  const markupPrice = { value: picked.value.value, source: picked.source, read: choice.take, why: choice.why };
  return { price: choice.take === 'page' ? { value: box.selling, source: 'html' } : null, markupPrice };
}

/** Markup and labelled codes in reading order, then the URL's product id where the page shows the same value. */
function allIdentifiers(page: PageFacts, readings: readonly Reading[], sku: Fact<string> | null): ProductIdentifier[] {
  const found = mergeIdentifiers(...readings.map((r) => r.identifiers ?? []));
  const fromUrl = sku?.source === 'url' ? [{ value: sku.value, kind: 'retailer_code' as const, source: 'url' as const }] : [];
  return mergeIdentifiers(found, urlIdentifiers(page.url, page.visibleText, found), fromUrl);
}

/** Where the page gives no code of its own, the product id its address carries is the item's SKU (source url). */
function urlSku(pageUrl: string): { value: string; source: FactSource } | null {
  const id = urlProductId(pageUrl);
  return id ? { value: id, source: 'url' } : null;
}

function fact<T>(picked: { value: T; source: FactSource } | null): Fact<T> | null {
  return picked ? { value: picked.value, source: picked.source } : null;
}

function hasReviews(e: Entity): boolean {
  const rated = propEntities(e, 'aggregateRating').some(
    (r) => firstString(r, 'ratingValue') !== null && (firstString(r, 'reviewCount') ?? firstString(r, 'ratingCount')) !== null,
  );
  return rated || propValues(e, 'review').length > 0;
}

function cleanText(s: string | null, max: number): string | undefined {
  const t = collapse(s ?? '').slice(0, max);
  return t === '' ? undefined : t;
}

function stripTags(s: string | null): string | null {
  return s === null ? null : s.slice(0, 50_000).replace(/<[^>]{0,2000}>/g, ' ');
}

// ---------------------------------------------------------------------------------------------------------------
// The visible page, read the way an agent reads it

// Labels of spec tables and product info blocks, at the start of a line, in the languages seen in stores.
const LABELS = {
  brand: [
    'brand', 'brand name', 'marca', 'marque', 'marke', 'merk', 'märke', 'mærke', 'marka', 'marchio', 'značka', 'znamka',
    'kaubamärk', 'prekės ženklas', 'zīmols', 'make', 'make / manufacturer', 'бренд', 'марка', '品牌', 'ブランド', '브랜드',
  ],
  maker: [
    'manufacturer', 'hersteller', 'fabricante', 'produttore', 'fabricant', 'fabrikant', 'proizvajalec', 'výrobca', 'výrobce',
    'producent', 'producer', 'tillverkare', 'gyártó', 'producător', 'tootja', 'valmistaja', 'ražotājs', 'gamintojas', 'производитель', '製造商', 'メーカー',
  ],
  sku: [...ID_LABELS.sku, ...ID_LABELS.retailer_code, ...ID_LABELS.asin],
  gtin: ID_LABELS.gtin,
};

const LABEL_RE = {
  brand: labelRegex(LABELS.brand, false),
  maker: labelRegex(LABELS.maker, false),
  sku: labelRegex(LABELS.sku, true),
  gtin: labelRegex(LABELS.gtin, false),
};

type LabelKind = keyof typeof LABEL_RE;

/** The first labelled value that passes the field's shape check, preferring those after the product title. */
function labelled(text: string, kind: LabelKind, anchor: number): string | undefined {
  const shape = kind === 'gtin' ? 'gtin' : kind === 'sku' ? 'code' : (raw: string) => nameValue(raw);
  let first: string | undefined;
  for (const v of labelledBy(text, LABEL_RE[kind], shape)) {
    if (v.index >= anchor) return v.value;
    // Before the title only "Label: value" counts; "Brand Outlet" up there is a menu, not a spec row.
    if (v.separated) first ??= v.value;
  }
  return first;
}

function notSeller(brand: string | undefined, sellers: ReadonlySet<string>): string | undefined {
  return brand !== undefined && !isSellerName(brand, sellers) && !PLACEHOLDER.test(brand.trim()) ? brand : undefined;
}

/**
 * The part number: rows labelled as one ("MPN:\nFake Wounds" may be words) or as a model number, in document order,
 * the first after the title (before it only "Label: value" rows).
 */
function partNumber(text: string, anchor: number): string | undefined {
  const rows = [...labelledValues(text, 'mpn'), ...labelledValues(text, 'model')].sort((a, b) => a.index - b.index);
  return (rows.find((v) => v.index >= anchor) ?? rows.find((v) => v.separated))?.value;
}

/** A brand or maker value: a short name as written ("Acme Inc."), not a sentence. */
function nameValue(raw: string): string | undefined {
  const v = rowValue(raw).replace(/[;,]+$/, '').trim();
  return v === '' || v.length > 60 || PLACEHOLDER.test(v) ? undefined : v;
}

/** What the body says (source html): title, a price near it, stock wording or a buy button, labelled codes. */
function htmlReading(page: PageFacts, earlier: readonly Reading[]): Reading {
  const text = page.visibleText;
  const name = earlier.find((r) => r.name && r.source !== 'opengraph')?.name ?? null;
  const anchor = titleIndex(page, name);
  const r: Reading = { source: 'html' };
  if (page.h1) r.name = cleanText(page.h1, 500);
  if (anchor >= 0) {
    const window = buyBoxWindow(text, anchor, TITLE_WINDOW);
    const signals = currencySignals(page);
    const implied = earlier.find((e) => e.currency)?.currency ?? impliedCurrency(signals);
    const mentions = priceMentions(window, signals, true);
    const selling = sellingPriceOf(window, mentions);
    if (selling) r.buyBox = { selling, mentions };
    const price = selling ?? elementPrice(page.priceTexts ?? [], signals, implied) ?? priceBeforeTitle(text, anchor, signals);
    if (price) r.price = price;
    // An agent takes a buy button, or a price with no stock warning near the title, as "can be bought now".
    const stated = buyBoxAvailability(window, agreeingStatus, asideLines(text, page.asideTexts ?? []));
    const guess: AvailabilityBasis | null = hasPurchaseControl(page) ? 'buy_button' : r.price ? 'price' : null;
    if (stated) [r.availability, r.availabilityBasis] = [stated, 'text'];
    else if (guess) [r.availability, r.availabilityBasis] = ['InStock', guess];
  }
  const from = Math.max(anchor, 0);
  const title = name ?? page.h1;
  const sellers = sellerNames(text);
  // A brand row says so itself (a brand may sell its own goods); the weaker readings never take a seller's name.
  const brand =
    labelled(text, 'brand', from) ??
    labelled(text, 'maker', from) ??
    [
      () => brandInLabelSentence(text, title),
      () => brandFromLinks(page, title),
      () => brandInBreadcrumbs(page.breadcrumbs ?? [], title),
      () => titlePrefixLinked(title, page.links),
      () => brandNextToTitle(text, anchor, title),
      () => latinBrandInTitle(title),
    ].reduce<
      string | undefined
    >((found, next) => found ?? notSeller(next(), sellers), undefined);
  if (brand) r.brand = { value: brand, isEntity: false };
  // Labelled rows first; then the codes the page keeps in data attributes and hidden inputs of its forms.
  const coded = attributeCodes(page);
  r.labelledCodes = { sku: labelled(text, 'sku', from), mpn: partNumber(text, from) };
  r.gtin = labelled(text, 'gtin', from) ?? coded.gtin;
  r.mpn = r.labelledCodes.mpn ?? coded.mpn;
  r.sku = r.labelledCodes.sku ?? coded.sku;
  r.identifiers = labelledIdentifiers(text, from);
  return r;
}

// Brand pages a product links to (/brands/acme, /marca/acme, OpenCart's manufacturer_id) and store bylines
// ("Visit the Acme Store", "Brand: Acme").
const BRAND_PATH = /\/(?:brands?|marcas?|marques?|marken?|merken?|manufacturers?|hersteller|fabricantes?|producenci|designers?|vendors?)\/[^/]+|[?&](?:brand|manufacturer_id|manufacturer)=[^&]+/i;
const BYLINE = /^(?:visit the (.{1,40}) store|brand:\s*(.{1,40})|marke:\s*(.{1,40})|marque\s?:\s*(.{1,40})|marca:\s*(.{1,40})|besuche den (.{1,40})-store|visiter la boutique (.{1,40})|visita lo store di (.{1,40})|visita la tienda de (.{1,40}))$/i;
const GENERIC_BRAND_TEXT = /^(?:brands?|all brands|shop by brand|more|see all|view all|marcas|marques|marken|hersteller|manufacturers?)$/i;

/** A brand named by a byline link, or by a brand-page link whose name the product title carries (or the only one). */
function brandFromLinks(page: PageFacts, productName: string | null): string | undefined {
  const byBrandPage = new Set<string>();
  for (const link of page.links.slice(0, 3_000)) {
    const text = link.text.trim();
    if (text === '' || text.length > 60) continue;
    const byline = BYLINE.exec(text);
    const named = byline?.slice(1).find((g) => g !== undefined)?.trim();
    if (named) return named;
    if (link.url && BRAND_PATH.test(link.url) && !GENERIC_BRAND_TEXT.test(text) && text.length <= 40) byBrandPage.add(text);
  }
  const inName = [...byBrandPage].find((b) => titleNamesBrand(productName ?? '', b));
  if (inName) return inName;
  return byBrandPage.size === 1 ? [...byBrandPage][0] : undefined;
}
