// Every code a page gives its product, with what kind of code it is and where it was read: markup properties,
// labelled rows of the visible text ("Product code: 0638", "Art.-Nr. 123", "Артикул: 55"), and the product id in
// the URL when the page shows that same value. Agents match a product across stores by whichever code they hold,
// so the list keeps them all; the single sku / gtin / mpn facts stay in scan/products/product.ts. Pure functions over
// capped text; every regex is linear.
import type { Entity, ProductIdentifier, IdentifierKind } from '../artifacts.js';
import { escapeRe } from './price.js';
import { classifyGtin, gtinValid } from './identifiers.js';
import { firstString, propEntities, propValues } from '../documents/structured-data/index.js';

export type { ProductIdentifier, IdentifierKind };

/** Label words per kind, lower case, at the start of a line, in the languages seen in stores. */
export const ID_LABELS: Record<IdentifierKind, readonly string[]> = {
  sku: [
    'sku', 'article number', 'article no', 'art.-nr', 'art. nr', 'art.nr', 'art. no', 'artikel-nr', 'artikelnummer', 'artikel-nummer', 'artikelnr',
    'product code', 'item code', 'id produto', 'código', 'código do produto', 'código de producto', 'codice', 'codice articolo',
    'codice prodotto', 'numero articolo', 'référence', 'réf', 'ref', 'reference', 'tootekood', 'kód produktu', 'kód',
    'kod produktu', 'kod towaru', 'šifra', 'varenummer', 'varenr', 'tuotenumero', 'cikkszám', 'артикул', 'код товара',
    '商品編號', '商品番号', '货号', '상품번호', 'style number', 'style no', 'produkta kods', 'prekės kodas',
  ],
  retailer_code: [
    'item no', 'item number', 'item #', 'item id', 'product no', 'product number', 'product id', 'numero oggetto ebay',
    "numéro de l'objet ebay", 'ebay-artikelnummer', 'número de artículo de ebay', 'ad id', 'post id', 'listing id', 'web code',
    'catalogue number', 'catalog number', 'cat. no',
  ],
  asin: ['asin'],
  mpn: [
    'mpn', 'manufacturer part number', 'manufacturers part number', "manufacturer's part number", 'mfg part number',
    'mfr part number', 'mfr. part', 'mfr #', 'part number', 'herstellernummer', 'hersteller-artikelnummer', 'herstellerartikelnummer',
    'manufacturer code', 'manufacturer reference', 'référence fabricant', 'réf. fabricant', 'codice produttore', 'código de fabricante',
    'referencia del fabricante', 'fabrikantcode', 'kod producenta', 'kód výrobce', 'kód výrobcu', 'tillverkarens artikelnummer',
    'valmistajan koodi', 'tootja kood', 'ražotāja kods', 'gamintojo kodas', 'код производителя',
  ],
  model: [
    'model number', 'model no', 'item model number', 'model name / number', 'modelo', 'número de modelo', 'modello',
    'numero modello articolo', 'modèle', "numéro du modèle de l'article", 'modell', 'modellnummer', 'modelnummer', 'numer modelu',
    'model', 'модель', '型番', '型號',
  ],
  gtin: ['ean', 'ean13', 'ean-13', 'ean code', 'ean-code', 'ean-nummer', 'ean nummer', 'gtin', 'gtin13', 'upc', 'isbn', 'isbn-13', 'isbn13', 'barcode', 'código de barras', 'kod ean', 'jan'],
};

/**
 * A label at the start of a line, optional "(MPN)", optional ":" / "#" / ".", then the value on the same line or the
 * next one (groups 1–4: label, separator, line break, value); or a label glued to its value (groups 5 and 6), as spec
 * lists built of adjacent spans read: "BRANDJohn Boos".
 * With `leadingWord`, one short word may come first ("Amazon ASIN", "eBay item number").
 */
export function labelRegex(labels: readonly string[], leadingWord: boolean): RegExp {
  // "Model name / number" is also printed "model name/number".
  const alt = [...labels]
    .sort((a, b) => b.length - a.length)
    .map((l) => escapeRe(l).replace(/ \/ /g, ' ?/ ?'))
    .join('|');
  const lead = leadingWord ? String.raw`(?:[\p{L}\d-]{1,12} )?` : '';
  return new RegExp(
    String.raw`^[ \t〈(\[【]*${lead}(?:(${alt})(?=[\s:：#.(]|$)[ \t]*(?:\([^)\n]{0,30}\))?[ \t]*([:：#.]?)[ \t]*(\n?)[ \t]*([^\n]{1,80})|(${alt})([^\s:：#.(][^\n]{1,79}))`,
    'gimu',
  );
}

/** A glued label counts only in capitals before a capitalised word or a code: "BRANDJohn Boos", "NUMBERIST003-O". */
export function gluedValue(label: string, value: string): boolean {
  return /\p{L}/u.test(label) && label === label.toUpperCase() && /^(?:\p{Lu}\p{Ll}|[\p{Lu}\d-]*\d)/u.test(value);
}

export type ValueShape = 'gtin' | 'code' | 'model';

/** The value a label announces, cut to its code: digits for a GTIN, one code token, or a short model name. */
export function shapeValue(shape: ValueShape, raw: string): string | undefined {
  const s = raw.trim();
  if (shape === 'gtin') {
    const m = /^\d[\d -]{6,20}\d/.exec(s);
    const digits = m?.[0].replace(/[\s-]/g, '');
    return digits && [8, 12, 13, 14].includes(digits.length) ? digits : undefined;
  }
  if (shape === 'code') {
    // A code printed with spaces fills its cell: "Kód produktu: GARNI 570 EASY II" (capitals and digits only).
    if (s.length <= 30 && /\d/.test(s) && !/\p{Ll}/u.test(s) && /^[\p{Lu}\d][\p{Lu}\d._/-]*(?: [\p{Lu}\d._/-]+){1,4}$/u.test(s)) return s;
    const m = /^[\p{L}\d][\p{L}\d._/-]{0,63}/u.exec(s);
    return m && /\d/.test(m[0]) ? m[0].replace(/[.]+$/, '') : undefined;
  }
  const v = rowValue(s).replace(/[.;,]+$/, '').trim();
  if (v === '' || v.length > 60 || PLACEHOLDER.test(v)) return undefined;
  return /\d|\p{Lu}{2}/u.test(v) ? v : undefined;
}

// Item-specifics tables print several cells on one line: "Brand: Acme Type: Blood Theme: Halloween".
const NEXT_CELL = /\s+\p{Lu}[\p{L}'’ -]{1,30}[:：]\s/u;

// A name does not end in a joining word: "Brand: Fruit of the Loom Size: M" has the label "Size", not "Loom Size".
const JOINING_END = /\s(?:of|the|and|&|de|del|della|di|du|des|la|le|von|van|der|y|e|et|und)$/iu;
const NEXT_CAPITAL = /\s\p{Lu}/gu;

/** The value of one table cell: the text up to the next "Label:" printed on the same line. */
export function rowValue(raw: string): string {
  const s = raw.trim();
  const next = NEXT_CELL.exec(s);
  if (!next) return s;
  let cut = next.index;
  const colon = next.index + next[0].trimEnd().length - 1;
  // Move the cut to a later capitalised word of the label while the value would end in a joining word.
  NEXT_CAPITAL.lastIndex = cut + 1;
  while (JOINING_END.test(s.slice(0, cut).trimEnd())) {
    const later = NEXT_CAPITAL.exec(s);
    if (!later || later.index >= colon) break;
    cut = later.index;
  }
  return s.slice(0, cut).trim();
}

// What marketplaces fill a required cell with when there is nothing to say: no brand, no part number.
// Unfilled template variables ("$metabrand", "{{ product.vendor }}", "%brand%") are no value either.
export const PLACEHOLDER =
  /^(?:unbranded|generic|no name|unknown|brand not specified|does not apply|not applicable|n\/?a|none|no brand|non applicable|nicht zutreffend|markenlos|ohne marke|sans marque|sin marca|no aplica|senza marca|non applicabile|не применимо|без бренда|-+|\$[\w.]{1,40}|\{\{[^{}]{0,60}\}\}|%[\w.]{1,40}%)$/iu;

const SHAPE: Record<IdentifierKind, ValueShape> = { sku: 'code', retailer_code: 'code', asin: 'code', mpn: 'model', model: 'model', gtin: 'gtin' };
const LABEL_RE: Record<IdentifierKind, RegExp> = {
  sku: labelRegex(ID_LABELS.sku, true),
  retailer_code: labelRegex(ID_LABELS.retailer_code, true),
  asin: labelRegex(ID_LABELS.asin, true),
  mpn: labelRegex(ID_LABELS.mpn, true),
  model: labelRegex(ID_LABELS.model, false), // "Tesla Model S" in a title is a name, not a row
  gtin: labelRegex(ID_LABELS.gtin, false),
};
const KINDS: readonly IdentifierKind[] = ['gtin', 'asin', 'mpn', 'model', 'sku', 'retailer_code'];
const MAX_IDENTIFIERS = 30;
const MAX_MATCHES = 200;

export interface LabelledValue {
  value: string;
  index: number;
  /** "Label: value" or a value on the line under its label, as opposed to "Label value" on one line. */
  separated: boolean;
}

// English verbs among the labels ("Make Money with Us" in a footer): they announce a value only with a colon or with
// the value on the next line. "Modelo PA-849-2020-KIT" in a spec table needs neither.
const WORD_LABELS: ReadonlySet<string> = new Set(['make']);

/** Every labelled value of one kind that passes the kind's shape check, in document order. */
export function labelledValues(text: string, kind: IdentifierKind): LabelledValue[] {
  if (kind !== 'mpn') return labelledBy(text, LABEL_RE[kind], SHAPE[kind]);
  // A part number may be words ("MPN:\nFake Wounds") when its label says so with a colon or a line break.
  return labelledBy(text, LABEL_RE.mpn, nameShape).filter((v) => v.separated || /\d|\p{Lu}{2}/u.test(v.value));
}

function nameShape(raw: string): string | undefined {
  const v = rowValue(raw).replace(/[.;,]+$/, '').trim();
  return v === '' || v.length > 60 || PLACEHOLDER.test(v) ? undefined : v;
}

export function labelledBy(text: string, re: RegExp, shape: ValueShape | ((raw: string) => string | undefined)): LabelledValue[] {
  const out: LabelledValue[] = [];
  re.lastIndex = 0;
  let count = 0;
  for (let m = re.exec(text); m !== null && count++ < MAX_MATCHES; m = re.exec(text)) {
    const glued = m[5] !== undefined;
    if (glued && !gluedValue(m[5], m[6])) continue;
    const separator = glued ? '' : m[2];
    const sameLine = glued || m[3] === '';
    const raw = m[4] ?? m[6];
    const separated = separator !== '' || !sameLine;
    if (!separated && WORD_LABELS.has((m[1] ?? m[5]).toLowerCase())) continue;
    // Without a colon, a same-line value must look like a name or code, not prose ("Brand new for 2020").
    if (!separated && !/^[\p{Lu}\d]/u.test(raw)) continue;
    const value = typeof shape === 'function' ? shape(raw) : shapeValue(shape, raw);
    if (value !== undefined) out.push({ value, index: m.index, separated });
  }
  return out;
}

/**
 * Labelled values after the product title, and "Label: value" rows before it (a bare "Model S" up in the menu is a
 * link, not a spec row). Order: the kinds in KINDS order, each in document order; each value once.
 */
export function labelledIdentifiers(text: string, anchor: number): ProductIdentifier[] {
  const out: ProductIdentifier[] = [];
  for (const kind of KINDS) {
    for (const v of labelledValues(text, kind)) {
      if (v.index < anchor && !v.separated) continue;
      if (kind === 'asin' && !/^[A-Z0-9]{10}$/.test(v.value)) continue;
      // "Model year 2020" is a date, not a model.
      if (kind === 'model' && /^(?:year|jahr|année|año|anno|ano)\b/i.test(v.value)) continue;
      out.push({ value: v.value, kind, source: 'labelled_text' });
    }
  }
  return mergeIdentifiers(out);
}

// ---------------------------------------------------------------------------------------------------------------
// Markup

const MARKUP_PROPS: readonly [string, IdentifierKind][] = [
  ['gtin', 'gtin'], ['gtin13', 'gtin'], ['gtin12', 'gtin'], ['gtin14', 'gtin'], ['gtin8', 'gtin'], ['isbn', 'gtin'],
  ['sku', 'sku'], ['mpn', 'mpn'], ['model', 'model'],
];

/** Codes in the product entity, its variants and offers: sku, mpn, gtin*, isbn, model, productID / identifier. */
export function markupIdentifiers(entities: readonly Entity[]): ProductIdentifier[] {
  const out: ProductIdentifier[] = [];
  for (const e of entities) {
    for (const [prop, kind] of MARKUP_PROPS) {
      for (const v of propValues(e, prop)) {
        const text = typeof v === 'string' ? v.trim() : kind === 'model' ? firstString(v, 'name') : null;
        if (text) out.push({ value: text, kind, source: 'markup' });
      }
    }
    for (const v of [...propValues(e, 'productID'), ...propValues(e, 'identifier')]) {
      const text = typeof v === 'string' ? v.trim() : firstString(v, 'value');
      if (text) out.push(productIdReading(text, typeof v === 'string' ? '' : (firstString(v, 'propertyID') ?? '')));
    }
  }
  return out;
}

/** "sku:2800395267", "isbn:978…", a bare valid GTIN, or the store's own product number. */
function productIdReading(raw: string, propertyId: string): ProductIdentifier {
  const prefix = /^(gtin\d*|ean|upc|isbn|mpn|sku|asin):\s*/i.exec(raw);
  const value = prefix ? raw.slice(prefix[0].length) : raw;
  const named = (prefix?.[1] ?? propertyId).toLowerCase();
  let kind: IdentifierKind = 'retailer_code';
  if (/gtin|ean|upc|isbn/.test(named) || (named === '' && gtinValid(value))) kind = 'gtin';
  else if (named === 'mpn') kind = 'mpn';
  else if (named === 'sku') kind = 'sku';
  else if (named === 'asin') kind = 'asin';
  return { value, kind, source: 'markup' };
}

/** OpenGraph / product meta tags that carry codes. */
export function metaIdentifiers(meta: Record<string, string[]>): ProductIdentifier[] {
  const tags: readonly [string, IdentifierKind][] = [
    ['product:retailer_item_id', 'retailer_code'], ['product:sku', 'sku'], ['og:sku', 'sku'], ['product:gtin', 'gtin'],
    ['product:ean', 'gtin'], ['product:upc', 'gtin'], ['product:isbn', 'gtin'], ['og:upc', 'gtin'], ['og:ean', 'gtin'],
    ['book:isbn', 'gtin'], ['product:mfr_part_no', 'mpn'],
  ];
  const out: ProductIdentifier[] = [];
  for (const [key, kind] of tags) for (const v of meta[key] ?? []) if (v.trim() !== '') out.push({ value: v.trim(), kind, source: 'markup' });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The URL

// Path segments and query values that can be a product id: a whole segment, or the number ending a slug, 4–40
// characters with at least four digits ("/dp/B07C8KMQQ6", "/p4781720", "-1605177813.html", "?item=123456").
const URL_PIECE = /^[A-Za-z0-9][A-Za-z0-9_./-]{2,38}[A-Za-z0-9]$/;

/**
 * Product ids in the page URL that the page itself shows: a URL token equal to a code the page prints in its
 * visible text (as a whole word) or in its markup. A number in a URL alone proves nothing (dates, tracking ids).
 */
export function urlIdentifiers(pageUrl: string, visibleText: string, known: readonly ProductIdentifier[]): ProductIdentifier[] {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return [];
  }
  const tokens = new Set<string>();
  const parts = [...url.pathname.split('/'), ...[...url.searchParams.values()]].map((p) => safeDecode(p).replace(/\.(?:html?|php|aspx?)$/i, ''));
  for (const part of parts.slice(0, 40)) {
    // A slug ends in its id ("…-iphone-1605177813"): the last piece counts when it is a number.
    const last = /-(\d{4,20})$/.exec(part.slice(-30))?.[1];
    const pieces = last ? [part, last] : [part];
    for (const piece of pieces) {
      if (!URL_PIECE.test(piece)) continue;
      // At least four digits: "800w" or "23l" in a slug are specs, not ids.
      for (const t of tokenReadings(piece)) if ((t.match(/\d/g)?.length ?? 0) >= 4) tokens.add(t);
    }
  }
  const knownValues = new Set(known.map((k) => k.value.toLowerCase()));
  const text = visibleText.slice(0, 300_000);
  const out: ProductIdentifier[] = [];
  for (const t of tokens) {
    if (!knownValues.has(t.toLowerCase()) && !shownAsWord(text, t)) continue;
    out.push({ value: t, kind: urlKind(t, url.pathname), source: 'url' });
  }
  return out;
}

// Where stores put the item's id in its address: a query value named for it ("?sku=1357247"); the last path segment
// as a number, or one letter and a number ("/product/4667999", "/p4781720", "/Prod/144432/"); a number of six digits
// or more ending the slug, after one letter or none ("…-1609583.html", "…_36029524", "…-p400105394"), or opening it
// ("/item/94037710_vintage-chanel-…").
const ID_PARAM = /^(?:sku|pid|product_?id|item_?id|article_?id|art_?nr)$/i;
const ID_SEGMENT = [/^[A-Za-z]?(\d{5,20})$/, /[-_][A-Za-z]?(\d{6,20})$/, /^(\d{6,20})_/];

/** The product id the page's address carries, by the shapes stores give it; undefined when it carries none. */
export function urlProductId(pageUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return undefined;
  }
  for (const [key, value] of [...url.searchParams].slice(0, 40)) if (ID_PARAM.test(key) && /^\d{4,20}$/.test(value)) return value;
  const last = safeDecode(url.pathname.split('/').filter((p) => p !== '').at(-1) ?? '').replace(/\.(?:html?|php|aspx?)$/i, '').slice(-200);
  for (const shape of ID_SEGMENT) {
    const m = shape.exec(last);
    if (m) return m[1];
  }
  return undefined;
}

/** The piece, and its number when one letter is glued on ("p4781720"). */
function tokenReadings(piece: string): string[] {
  const prefixed = /^[a-zA-Z](\d{4,})$/.exec(piece);
  return prefixed ? [piece, prefixed[1]] : [piece];
}

/** Is the token printed in the text as a word of its own (not inside a longer code or number)? */
export function shownAsWord(text: string, token: string): boolean {
  return new RegExp(`(?<![\\p{L}\\d])${escapeRe(token)}(?![\\p{L}\\d])`, 'iu').test(text);
}

function urlKind(token: string, path: string): IdentifierKind {
  if (/^B0[A-Z0-9]{8}$/.test(token) && /\/(?:dp|gp\/product)\//.test(path)) return 'asin';
  return classifyGtin(token) ? 'gtin' : 'retailer_code';
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// ---------------------------------------------------------------------------------------------------------------

/** One list: markup first, then labelled text, then the URL; each value once (the first reading keeps its kind). */
export function mergeIdentifiers(...lists: readonly ProductIdentifier[][]): ProductIdentifier[] {
  const seen = new Set<string>();
  const out: ProductIdentifier[] = [];
  for (const list of lists) {
    for (const id of list) {
      const value = id.value.replace(/\s+/g, ' ').trim().slice(0, 100);
      const key = value.toLowerCase();
      if (value === '' || seen.has(key)) continue;
      seen.add(key);
      out.push({ ...id, value, kind: longGtin(value) ? 'gtin' : id.kind });
      if (out.length >= MAX_IDENTIFIERS) return out;
    }
  }
  return out;
}

/** A store code that is a full GTIN-12/13/14 with its check digit (an ISBN as the retailer id) is a GTIN to agents. */
function longGtin(value: string): boolean {
  return /^\d{12,14}$/.test(value) && gtinValid(value);
}

/** The variants and offers of a product entity, whose codes are the product's too. */
export function identifierEntities(members: readonly Entity[]): Entity[] {
  const out: Entity[] = [];
  for (const m of members) {
    out.push(m);
    for (const o of propEntities(m, 'offers')) out.push(o, ...propEntities(o, 'offers'));
  }
  return out;
}
