// Prices and currencies, read one way for every caller: structured values ("1299.00"), price texts ("1.299,00 €",
// "$1,299", "24.990" in Chilean pesos, "1'299.–", "€10 – €20", "Was £30 Now £24.99"), prices in running page text,
// every number on a page, and currency markers resolved with the page's signals. One amount reader tells thousands
// from decimal separators for all of them; a caller that needs every plausible reading of an ambiguous amount ("1.299")
// asks it for them rather than parsing again.
// Deliberately not here: exchange rates, tax arithmetic, struck-through markup (visible text carries no tags, so a
// regular price is recognised by its wording only) and any rule for one particular store.
// Pure functions; every regex is linear (no nested quantifiers over the same characters) and runs on capped text.
import type { PageFacts } from '../artifacts.js';
import { currencyData } from './currencies.js';
import { propStrings } from '../documents/structured-data/index.js';

// ---------------------------------------------------------------------------------------------------------------
// Currencies

const CURRENCIES = currencyData();
// Every code CLDR names, withdrawn national currencies included ("DEM", "HRK" are still on pages).
const ISO_4217 = CURRENCIES.known;
// Codes that are also English words ("ALL", "TOP", "TRY"): in running text they count only after a number.
const WORD_CODES = new Set(['ALL', 'BAM', 'BOB', 'CUP', 'GEL', 'MAD', 'MOP', 'PEN', 'SOS', 'TOP', 'TRY']);
// Codes shops also print in lower or title case ("140,00 pln", "Eur 12").
const COMMON_CODES = ['EUR', 'USD', 'GBP', 'CHF', 'PLN', 'CZK', 'HUF', 'RON', 'SEK', 'NOK', 'DKK', 'BGN', 'RUB', 'UAH', 'INR', 'AUD', 'CAD', 'NZD'];

// Printed markers and the codes each can stand for. Abbreviations count as symbols ("руб.", "zł"); spelt-out words
// ("Euro") are left to the caller, as product_price wants a code, not a word, in the markup.
const SYMBOL_CODES: Record<string, string[]> = {
  '€': ['EUR'], '£': ['GBP', 'EGP', 'GIP', 'FKP', 'SHP', 'LBP', 'SYP'], '₤': ['GBP'],
  '$': ['USD', 'CAD', 'AUD', 'NZD', 'MXN', 'ARS', 'CLP', 'COP', 'UYU', 'SGD', 'HKD', 'TWD', 'DOP', 'JMD', 'TTD', 'BSD', 'FJD', 'BND', 'NAD', 'LRD', 'SBD', 'BZD', 'BBD', 'KYD', 'XCD', 'CUP'],
  'R$': ['BRL'], 'US$': ['USD'], 'U$S': ['USD'], 'CA$': ['CAD'], 'C$': ['CAD', 'NIO'], 'AU$': ['AUD'], 'A$': ['AUD'], 'NZ$': ['NZD'],
  'HK$': ['HKD'], 'S$': ['SGD'], 'NT$': ['TWD'], 'MX$': ['MXN'], 'RD$': ['DOP'], 'MOP$': ['MOP'],
  '¥': ['JPY', 'CNY'], '￥': ['JPY', 'CNY'], '円': ['JPY'], '元': ['CNY', 'TWD', 'HKD', 'MOP'], '₩': ['KRW'], '원': ['KRW'],
  '₹': ['INR'], 'रु': ['INR', 'NPR'], '₨': ['INR', 'PKR', 'LKR', 'NPR', 'MUR', 'SCR'], Rs: ['INR', 'PKR', 'LKR', 'NPR', 'MUR', 'SCR'],
  '₺': ['TRY'], TL: ['TRY'], '₽': ['RUB'], руб: ['RUB', 'BYN'], 'р': ['RUB'], 'Р': ['RUB'], '₴': ['UAH'], грн: ['UAH'],
  '₪': ['ILS'], '฿': ['THB'], '₫': ['VND'], 'đ': ['VND'], '₱': ['PHP'], '₦': ['NGN'], '₲': ['PYG'], '₵': ['GHS'], '₡': ['CRC'],
  '₭': ['LAK'], '৳': ['BDT'], '₮': ['MNT'], '₼': ['AZN'], '₾': ['GEL'], '₸': ['KZT'], тг: ['KZT'], лв: ['BGN'], дин: ['RSD'], 'б.р.': ['BYN'],
  din: ['RSD'], zł: ['PLN'], Kč: ['CZK'], kr: ['SEK', 'NOK', 'DKK', 'ISK'], Ft: ['HUF'], lei: ['RON', 'MDL'], kn: ['HRK'],
  CHF: ['CHF'], Fr: ['CHF'], SFr: ['CHF'], RM: ['MYR'], Rp: ['IDR'], 'S/': ['PEN'], Bs: ['VES', 'BOB'], Br: ['BYN', 'ETB'],
  'ر.س': ['SAR'], 'د.إ': ['AED'], 'ج.م': ['EGP'], 'ريال': ['SAR', 'QAR', 'OMR', 'YER'], 'ریال': ['IRR'], 'تومان': ['IRR'],
};
const SYMBOL_BY_KEY_RAW = new Set(Object.keys(SYMBOL_CODES).map(symbolKey));
const DATA_MARKERS = new Set<string>();
// Signs and local words from the currency data for markers the table above does not have ("KSh", "ден.", "درهم",
// "֏"): the table is what shops print for the common currencies, the data covers the rest. Withdrawn codes count
// only for a marker no current currency uses ("DM", "₧").
const dataCodes = new Map<string, Set<string>>(); // by symbolKey: "F CFA" and "FCFA" are one marker
for (const [marker, codes] of CURRENCIES.markers) {
  const key = symbolKey(marker);
  if (SYMBOL_BY_KEY_RAW.has(key)) continue;
  const live = codes.filter((c) => CURRENCIES.current.has(c));
  const merged = dataCodes.get(key) ?? new Set<string>();
  for (const c of live.length > 0 ? live : codes) merged.add(c);
  dataCodes.set(key, merged);
  SYMBOL_CODES[marker] = [...merged];
  DATA_MARKERS.add(marker);
}
for (const marker of DATA_MARKERS) SYMBOL_CODES[marker] = [...(dataCodes.get(symbolKey(marker)) ?? [])];
// Markers of one or two Latin letters ("R", "K", "KM", "Le"): also units, sizes and words, so they count only when
// the page's signals name their currency or the amount has exactly two decimals ("R 199.00", "49,90 DM").
const WEAK_MARKERS = new Set([...DATA_MARKERS].filter((m) => /^\p{Script=Latin}{1,2}$/u.test(m.replace(/\./g, ''))).map(symbolKey));
// English currency words after an amount ("250 dirhams"), resolved like signs.
const WORD_MARKERS = new Map([...CURRENCIES.words].filter(([w]) => !SYMBOL_BY_KEY_RAW.has(symbolKey(w))));
for (const [word, codes] of WORD_MARKERS) {
  const live = codes.filter((c) => CURRENCIES.current.has(c));
  SYMBOL_CODES[word] = live.length > 0 ? live : [...codes];
}
// Markers that stand for one currency nearly everywhere, and "$", which an agent reads as US dollars when nothing on
// the page names another dollar; the rest need the page's other signals to agree.
const UNAMBIGUOUS_DEFAULT: Record<string, string> = { '£': 'GBP', '$': 'USD', '円': 'JPY', руб: 'RUB' };
const SYMBOL_BY_KEY = new Map(Object.keys(SYMBOL_CODES).map((s) => [symbolKey(s), s]));

// Currencies printed without minor units: ISO 4217 minor unit 0, or a unit worth so little that shops never show
// cents. "24.990" in one of them is twenty-four thousand, even in a structured value.
const WHOLE_UNITS = new Set(
  'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF COP HUF IDR ARS IRR KZT LAK MMK MNT UZS TZS LBP SYP TWD'.split(' '),
);
for (const [code, digits] of CURRENCIES.minorDigits) if (digits === 0) WHOLE_UNITS.add(code);
// ISO 4217 minor unit 3: "1.250" in one of them is one and a quarter.
const THREE_DECIMALS = new Set([...CURRENCIES.minorDigits].filter(([, digits]) => digits === 3).map(([code]) => code));

const COUNTRY_CURRENCY: Record<string, string> = {
  us: 'USD', gb: 'GBP', uk: 'GBP', ie: 'EUR', de: 'EUR', at: 'EUR', fr: 'EUR', it: 'EUR', es: 'EUR', pt: 'EUR',
  nl: 'EUR', be: 'EUR', lu: 'EUR', fi: 'EUR', gr: 'EUR', sk: 'EUR', si: 'EUR', ee: 'EUR', lv: 'EUR', lt: 'EUR',
  mt: 'EUR', cy: 'EUR', hr: 'EUR', ca: 'CAD', au: 'AUD', nz: 'NZD', mx: 'MXN', ar: 'ARS', br: 'BRL', cl: 'CLP',
  co: 'COP', uy: 'UYU', pe: 'PEN', jp: 'JPY', cn: 'CNY', tw: 'TWD', hk: 'HKD', sg: 'SGD', in: 'INR', kr: 'KRW',
  se: 'SEK', no: 'NOK', dk: 'DKK', is: 'ISK', ch: 'CHF', pl: 'PLN', cz: 'CZK', hu: 'HUF', ro: 'RON', tr: 'TRY',
  ru: 'RUB', ua: 'UAH', il: 'ILS', th: 'THB', vn: 'VND', ph: 'PHP', my: 'MYR', id: 'IDR', za: 'ZAR', ae: 'AED',
  bg: 'BGN', rs: 'RSD', sa: 'SAR', eg: 'EGP', pk: 'PKR', lk: 'LKR', ng: 'NGN', kz: 'KZT', by: 'BYN',
};
for (const [country, code] of CURRENCIES.byCountry) if (!Object.hasOwn(COUNTRY_CURRENCY, country)) COUNTRY_CURRENCY[country] = code;
// Languages spoken in one currency's country only: "ja" alone says yen, "de" alone says nothing (CH, AT, DE).
const LANGUAGE_CURRENCY: Record<string, string> = {
  ja: 'JPY', ko: 'KRW', pl: 'PLN', cs: 'CZK', hu: 'HUF', sv: 'SEK', da: 'DKK', nb: 'NOK', nn: 'NOK', no: 'NOK',
  is: 'ISK', bg: 'BGN', uk: 'UAH', th: 'THB', vi: 'VND', he: 'ILS', id: 'IDR',
};

/** Currency codes the page points at: ISO codes in markup and OG tags, the lang region and the URL's country TLD. */
export function currencySignals(page: PageFacts): Set<string> {
  const out = new Set<string>();
  for (const e of page.entities) {
    for (const v of propStrings(e, 'priceCurrency')) if (ISO_4217.has(v.trim().toUpperCase())) out.add(v.trim().toUpperCase());
  }
  for (const key of ['product:price:currency', 'og:price:currency']) {
    for (const v of page.meta[key] ?? []) if (ISO_4217.has(v.trim().toUpperCase())) out.add(v.trim().toUpperCase());
  }
  // The language region (lang="de-AT", og:locale="zh_TW"), else the language alone, and the country TLD of the page's
  // own addresses: its URL, canonical and og:url (a page saved or proxied elsewhere still names its store).
  for (const locale of [page.lang, ...(page.meta['og:locale'] ?? [])]) {
    const lang = /^([a-z]{2,3})(?:[-_]([a-z]{2}))?\b/i.exec(locale ?? '');
    if (!lang) continue;
    const fromLocale = lang[2] ? own(COUNTRY_CURRENCY, lang[2].toLowerCase()) : own(LANGUAGE_CURRENCY, lang[1].toLowerCase());
    if (fromLocale) out.add(fromLocale);
  }
  for (const address of [page.url, page.canonical, ...(page.meta['og:url'] ?? [])]) {
    let host: string;
    try {
      host = new URL(address ?? '').hostname;
    } catch {
      continue; // no usable URL: no TLD signal
    }
    const fromTld = own(COUNTRY_CURRENCY, host.slice(host.lastIndexOf('.') + 1).toLowerCase());
    if (fromTld) out.add(fromTld);
  }
  return out;
}

/** An ISO 4217 code when the value is one or when a symbol maps to one the page's signals agree with; else raw. */
export function normaliseCurrency(raw: string, signals: ReadonlySet<string>): string {
  const s = raw.trim().slice(0, 20);
  if (ISO_4217.has(s.toUpperCase())) return s.toUpperCase();
  const symbol = SYMBOL_BY_KEY.get(symbolKey(s));
  if (symbol === undefined) return s;
  const codes = SYMBOL_CODES[symbol];
  if (codes.length === 1) return codes[0];
  const agreeing = codes.filter((c) => signals.has(c));
  if (agreeing.length === 1) return agreeing[0];
  const fallback = own(UNAMBIGUOUS_DEFAULT, symbol);
  if (fallback && agreeing.length === 0) return fallback;
  return s;
}

/** True for an ISO 4217 code as written in markup (upper case, three letters, a real currency). */
export function isCurrencyCode(raw: string): boolean {
  return /^[A-Z]{3}$/.test(raw) && ISO_4217.has(raw);
}

// "руб." = "руб", "Kč" = "kč", "US $" = "US$": dots, spaces and case do not tell markers apart.
function symbolKey(s: string): string {
  return s.replace(/[\s.]/g, '').toLowerCase();
}

/** A table lookup with a key read from the page: own entries only ("constructor" is not a country). */
export function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---------------------------------------------------------------------------------------------------------------
// Currency markers in text

const CJK = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u;

function markerAlternatives(): string {
  const words = new Set<string>(Object.keys(SYMBOL_CODES).filter((w) => !WORD_MARKERS.has(w)));
  // Not "DIN" in capitals: German pages cite standards ("DIN 5008").
  for (const w of ['руб', 'грн', 'лв', 'тг', 'zł', 'Kč', 'kr', 'Ft', 'lei', 'kn', 'дин']) {
    words.add(w[0].toUpperCase() + w.slice(1));
    words.add(w.toUpperCase());
  }
  for (const w of ['euro', 'euros']) {
    words.add(w);
    words.add(w[0].toUpperCase() + w.slice(1));
  }
  const alts = [...words].sort((a, b) => b.length - a.length).map((w) => {
    // Signs from the data are matched in any case ("KSh", "Ksh", "KSH"), the shop table's as written.
    let re = (DATA_MARKERS.has(w) && /^\p{Script=Latin}{3,}$/u.test(w.replace(/\./g, '')) ? anyCase(w) : escapeRe(w)).replace(
      /[ \u00a0\u202f]/g,
      '[ \\u00a0\\u202f]',
    ); // "F CFA" with any space
    if (w === 'Fr' || w === 'SFr' || w === 'р') re += '\\.'; // "Fr." and "р." only with their dot
    if (w.toLowerCase() === 'руб') re += '(?:\\.|\\p{L}{0,5})'; // "руб.", "рублей"
    else if (w === 'грн' || w === 'лв' || w === 'тг' || w === 'Rs' || w === 'kr' || w === 'дин' || w === 'din') re += '\\.?';
    // Chinese, Japanese and Korean run words together ("售價2320元起"): their markers need no word boundary.
    const cjk = CJK.test(w);
    const letterStart = /^\p{L}/u.test(w) && !cjk;
    const letterEnd = /\p{L}$/u.test(w) && !cjk && w.toLowerCase() !== 'руб';
    return `${letterStart ? '(?<!\\p{L})' : ''}${re}${letterEnd ? '(?!\\p{L})' : ''}`;
  });
  const codes = [...ISO_4217].filter((c) => !WORD_CODES.has(c));
  const lower = COMMON_CODES.flatMap((c) => [c.toLowerCase(), c[0] + c.slice(1).toLowerCase()]);
  alts.push(`(?<!\\p{L})(?:${[...codes, ...lower].join('|')})(?!\\p{L})`);
  return alts.join('|');
}
/** A pattern matching a word in any letter case, one character class per letter. */
function anyCase(word: string): string {
  return [...word].map((ch) => (ch.toLowerCase() === ch.toUpperCase() ? escapeRe(ch) : `[${ch.toLowerCase()}${ch.toUpperCase()}]`)).join('');
}
const MARKER_ALT = markerAlternatives();
const WORD_CODE_ALT = `(?<!\\p{L})(?:${[...WORD_CODES, ...[...WORD_MARKERS.keys()].flatMap((w) => [w, w[0].toUpperCase() + w.slice(1), w.toUpperCase()])]
  .sort((a, b) => b.length - a.length)
  .map(escapeRe)
  .join('|')})(?!\\p{L})`;
const MARKER_SCAN = new RegExp(`(${MARKER_ALT})|(${WORD_CODE_ALT})`, 'gu');
const ANY_MARKER = new RegExp(`(?:${MARKER_ALT})`, 'u');
const ANY_MARKER_START = new RegExp(`^(?:${MARKER_ALT})`, 'u');
const GAP_BEFORE = /^[\s:\u00a0\u202f]{0,2}$/; // "US$:12.99", "€ 12"
const GAP_AFTER = /^[\s\u00a0\u202f]{0,2}$/; // "12 €"

interface Marker {
  text: string;
  start: number;
  end: number;
  /** A code that is also an English word ("TOP"): a marker only after a number. */
  afterOnly: boolean;
}

/** Every currency marker in a text, in order: one linear pass. */
function markersIn(text: string): Marker[] {
  const out: Marker[] = [];
  MARKER_SCAN.lastIndex = 0;
  for (let m = MARKER_SCAN.exec(text); m !== null; m = MARKER_SCAN.exec(text)) {
    out.push({ text: m[0], start: m.index, end: m.index + m[0].length, afterOnly: m[2] !== undefined });
  }
  return out;
}

/** For amounts visited left to right, the markers printed right before and right after each. */
class MarkerCursor {
  private next = 0;

  constructor(
    private readonly text: string,
    private readonly markers: readonly Marker[],
  ) {}

  around(start: number, end: number): { before: Marker | null; after: Marker | null } {
    const ms = this.markers;
    while (this.next < ms.length && ms[this.next].end < start - 2) this.next++;
    let before = -1;
    let after: Marker | null = null;
    for (let k = this.next; k < ms.length && ms[k].start <= end + 2; k++) {
      const m = ms[k];
      if (m.end <= start && !m.afterOnly && GAP_BEFORE.test(this.text.slice(m.end, start))) before = k;
      else if (m.start >= end && after === null && GAP_AFTER.test(this.text.slice(end, m.start)) && !this.startsNextLine(end, m)) after = m;
    }
    if (before < 0) return { before: null, after };
    // "SGD$4.90", "$ SGD4.90": of two markers side by side the ISO code says more.
    const inner = ms[before];
    const outer = before > 0 ? ms[before - 1] : undefined;
    if (outer && !outer.afterOnly && !isIso(inner.text) && isIso(outer.text) && GAP_AFTER.test(this.text.slice(outer.end, inner.start))) {
      return { before: outer, after };
    }
    return { before: inner, after };
  }

  /** A marker on the next line that opens an amount there is that amount's ("1/9" above "£34.99"), not this one's. */
  private startsNextLine(end: number, m: Marker): boolean {
    return this.text.slice(end, m.start).includes('\n') && /^[\s:\u00a0\u202f]{0,2}\d/.test(this.text.slice(m.end, m.end + 4));
  }
}

function isIso(marker: string): boolean {
  return ISO_4217.has(marker.toUpperCase());
}

/** The ISO code a marker stands for, when it can only be one (or the signals pick one). */
function markerCode(marker: string | null, signals?: ReadonlySet<string>): string | null {
  if (marker === null) return null;
  const code = normaliseCurrency(marker, signals ?? new Set());
  return ISO_4217.has(code) ? code : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Amounts: one reader for every number printed as money

interface Amount {
  start: number;
  end: number;
  text: string;
  /** Plausible values, the likeliest first: two when "1.299" may group thousands or carry decimals. */
  readings: number[];
  percent: boolean;
}

interface ReadOptions {
  /** ISO code of the amount's currency, when known: whole-unit and three-decimal currencies read differently. */
  currency?: string | null;
  /** A single price text rather than a page: also read "119. 95" and "1.837, 32" (a space after the decimal mark). */
  loose?: boolean;
}

const SPACES = ' \u00a0\u202f\u2009';
const MAX_GROUPS = 8;

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function digitsEnd(text: string, i: number, max = 15): number {
  let j = i;
  while (j < text.length && j - i < max && isDigit(text[j])) j++;
  return j;
}

/** Reads the amount whose first digit is text[start]. */
function amountAt(text: string, start: number, opts: ReadOptions): Amount {
  let j = digitsEnd(text, start);
  const groups = [text.slice(start, j)];
  const seps: string[] = [];
  while (groups.length < MAX_GROUPS) {
    const c = text[j];
    if (c === '.' || c === ',') {
      // After a group that cannot be a thousands group ("1,5"), a further mark starts something else.
      const lastLen = groups[groups.length - 1].length;
      if (groups.length > 1 && lastLen !== 3 && !(lastLen === 2 && c === ',' && seps.every((x) => x === ','))) break;
      const k = digitsEnd(text, j + 1);
      if (k > j + 1) {
        groups.push(text.slice(j + 1, k));
        seps.push(c);
        j = k;
        continue;
      }
      // "119. 95", "$249. 99", "2.450, 10 €": a decimal mark, one space, two digits and nothing more; in running text
      // only with a currency marker right before or after, where the two digits can only be the cents.
      if (text[j + 1] === ' ' && digitsEnd(text, j + 2, 3) === j + 4 && !seps.includes(c) && !/^[.,]\d/.test(text.slice(j + 4, j + 6)) && (opts.loose || markedAround(text, start, j + 4))) {
        groups.push(text.slice(j + 2, j + 4));
        seps.push(c);
        j += 4;
      }
      break;
    }
    if (c === "'" || c === '’') {
      const k = digitsEnd(text, j + 1, 4);
      if (k - j - 1 !== 3) break;
      groups.push(text.slice(j + 1, k));
      seps.push("'");
      j = k;
      continue;
    }
    if (c !== undefined && SPACES.includes(c)) {
      // A space groups thousands only between digit groups of three, before any decimal mark: "1 299,00".
      const k = digitsEnd(text, j + 1, 4);
      if (k - j - 1 !== 3 || groups[0].length > 3 || seps.some((s) => s === '.' || s === ',')) break;
      groups.push(text.slice(j + 1, k));
      seps.push(' ');
      j = k;
      continue;
    }
    break;
  }
  const { readings, used } =
    seps.length === 0 ? { readings: [Number(groups[0])], used: 1 } : interpret(groups, seps, opts.currency ?? null);
  // An invalid tail ("15.08.2017") is cut: the amount is the longest valid prefix.
  let end = used < groups.length ? start + groups.slice(0, used).join('').length + used - 1 : j;
  // "50,- Kč", "1'299.–": a dash in place of the decimals.
  if ((text[end] === ',' || text[end] === '.') && '-–—'.includes(text[end + 1] ?? 'x')) end += 2;
  let k = end;
  while (k < end + 2 && SPACES.includes(text[k] ?? 'x')) k++;
  return { start, end, text: text.slice(start, end), readings, percent: text[k] === '%' };
}

/** A currency marker within two characters before `start` or after `end`. */
function markedAround(text: string, start: number, end: number): boolean {
  const tail = /^[\s\u00a0\u202f]{0,2}/.exec(text.slice(end, end + 2))?.[0].length ?? 0;
  return /\p{Sc}[\s\u00a0\u202f]{0,2}$/u.test(text.slice(Math.max(0, start - 3), start)) || ANY_MARKER_START.test(text.slice(end + tail, end + tail + 12));
}

/** Values of digit groups joined by separators; `used` < groups.length when only a prefix reads as one amount. */
function interpret(groups: string[], seps: string[], currency: string | null): { readings: number[]; used: number } {
  if (seps.length === 1 && seps[0] !== ' ' && seps[0] !== "'") return { readings: oneMark(groups[0], groups[1], currency), used: 2 };
  for (let used = groups.length; used >= 1; used--) {
    const readings = readingsOf(groups.slice(0, used), seps.slice(0, used - 1), currency);
    if (readings !== null) return { readings, used };
  }
  return { readings: [], used: 1 };
}

function readingsOf(groups: string[], seps: string[], currency: string | null): number[] | null {
  const marks = seps.map((s, i) => ({ s, i })).filter(({ s }) => s === '.' || s === ',');
  const int = (upTo: number): string => groups.slice(0, upTo + 1).join('');
  const num = (s: string): number => Number(s);
  const grouped = (from: number, to: number, mark: string): boolean => {
    // Groups after thousands separators: three digits, or the Indian 2-2-3 grouping with commas ("1,00,000").
    const sizes = groups.slice(from + 1, to + 1).map((g) => g.length);
    if (sizes.every((n) => n === 3)) return groups[0].length <= 3;
    return mark === ',' && sizes.at(-1) === 3 && sizes.slice(0, -1).every((n) => n === 2) && groups[0].length <= 2;
  };
  if (marks.length === 0) return [num(groups.join(''))];
  const last = marks[marks.length - 1];
  const lastGroup = groups[last.i + 1];
  const kinds = new Set(marks.map((m) => m.s));
  if (kinds.size === 2) {
    // Both marks: the last one is the decimal mark, used once, and the other groups thousands before it.
    if (marks.filter((m) => m.s === last.s).length > 1 || seps.slice(last.i + 1).length > 0) return null;
    if (!grouped(0, last.i, marks[0].s)) return null;
    return [num(`${int(last.i)}.${lastGroup}`)];
  }
  if (marks.length > 1) {
    // One mark several times groups thousands ("1.144.000"); anything else is not one amount.
    return grouped(0, groups.length - 1, last.s) && seps.every((s) => s === last.s) ? [num(groups.join(''))] : null;
  }
  if (seps.slice(last.i + 1).length > 0) return null;
  // "1 234,567": after grouping spaces the mark can only be the decimal one.
  if (last.i > 0) return [num(`${int(last.i)}.${lastGroup}`)];
  return oneMark(groups[0], lastGroup, currency);
}

/** One decimal-or-thousands mark between two digit groups. */
function oneMark(whole: string, after: string, currency: string | null): number[] {
  const decimal = Number(`${whole}.${after}`);
  if (after.length !== 3) return [decimal];
  // One mark before exactly three digits: thousands ("2.449", "1,299") unless the whole part cannot lead a
  // thousands group ("0.299", "1234.567") or the currency says otherwise.
  const thousands = Number(whole + after);
  if (whole === '0' || whole.length > 3) return [decimal];
  if (currency !== null && THREE_DECIMALS.has(currency)) return [decimal];
  if (currency !== null && WHOLE_UNITS.has(currency)) return [thousands];
  return [thousands, decimal];
}

const DIGIT = /\d/g;

/** Every amount in a text, in order (at most `max`). */
function scanAmounts(text: string, opts: ReadOptions, max: number): Amount[] {
  const out: Amount[] = [];
  DIGIT.lastIndex = 0;
  for (let m = DIGIT.exec(text); m !== null && out.length < max; m = DIGIT.exec(text)) {
    const a = leadingDecimal(text, m.index) ?? amountAt(text, m.index, opts);
    out.push(a);
    DIGIT.lastIndex = Math.max(a.end, m.index + 1);
  }
  return out;
}

/**
 * ".50 €", "€ ,99": a decimal mark with no whole part, after a space, a bracket or a currency sign, then exactly two
 * digits: cents, never fifty whole units.
 */
function leadingDecimal(text: string, i: number): Amount | null {
  const mark = text[i - 1];
  if ((mark !== '.' && mark !== ',') || (i >= 2 && !/[\s\p{Sc}(:]/u.test(text[i - 2]))) return null;
  const end = digitsEnd(text, i, 3);
  if (end !== i + 2 || /^[.,]\d/.test(text.slice(end, end + 2))) return null;
  return { start: i - 1, end, text: text.slice(i - 1, end), readings: [Number(`0.${text.slice(i, end)}`)], percent: text[end] === '%' };
}

/** Every plausible value of one formatted amount, the likeliest first ("1.299" → 1299 and 1.299). */
export function amountReadings(raw: string, currency?: string | null): number[] {
  const text = raw.slice(0, 200);
  const i = text.search(/\d/);
  return i < 0 ? [] : amountAt(text, i, { currency: currency ?? null, loose: true }).readings;
}

export function samePrice(a: number, b: number): boolean {
  return Math.abs(a - b) < 0.005;
}

// ---------------------------------------------------------------------------------------------------------------
// One price value or price text

/** A structured price: a plain decimal as schema.org asks ("1299.00"), else read like visible text. */
export function parseStructuredPrice(raw: string, currency?: string | null): number | null {
  const s = raw.trim();
  const code = currency ? currency.trim().toUpperCase() : null;
  if (/^\d{1,15}(?:\.\d{1,10})?$/.test(s)) {
    // "24.990" with priceCurrency CLP: whole-unit currencies have no decimals, so the dot groups thousands.
    if (code !== null && WHOLE_UNITS.has(code) && /^\d{1,3}\.\d{3}$/.test(s)) return Number(s.replace('.', ''));
    return Number(s);
  }
  return parsePrice(s, code);
}

/**
 * The first amount in a price text, thousands and decimal separators told apart: "1.299,00", "1,299.00", "€ 12,50",
 * "1 299,00", "1'299.–", "2.449" (one separator before exactly three digits groups thousands, unless the currency
 * has three decimals). Percentages are not prices. Null if there is no amount.
 */
export function parsePrice(raw: string, currency?: string | null): number | null {
  const text = raw.slice(0, 200);
  for (const a of scanAmounts(text, { currency: currency ?? null, loose: true }, 10)) if (!a.percent) return a.readings[0];
  return null;
}

export interface PriceReading {
  /** The selling price; the low end of a range. */
  value: number;
  /** The currency marker as printed next to it ("€", "US$", "EUR", "zł"), or null. */
  currency: string | null;
  /** The amount as printed. */
  text: string;
  /** The regular price, when the text also shows one ("was", "RRP", "UVP", "statt", "avant", "antes", "prima"). */
  regular?: number;
  /** The high end of a range ("€10 – €20"). */
  max?: number;
  /** "from $5", "ab 5 €": the lowest of several prices. */
  from?: boolean;
}

// Words before an amount that make it the regular (not the selling) price, in the languages of the stores we audit.
const REGULAR_CUE =
  /(?:(?<!\p{L})(?:was|rrp|msrp|list price|regular price|reg\.|retail price|compare at|old price|original price|before|uvp|statt|bisher|ursprünglich|alter preis|streichpreis|avant|au lieu de|prix barré|ancien prix|prix conseillé|antes|precio anterior|precio original|pvpr|prima|invece di|prezzo di listino|prezzo consigliato|adviesprijs|oude prijs|preço anterior|preço original|przed|poprzednia cena|cena regularna|stara cena|tidigare pris|ordinarie pris|ord\. pris|før|vejl\. pris|normalpris|běžná cena|bežná cena|pôvodná cena|prix normal|prix habituel|prix régulier|precio normal|precio habitual|prezzo normale|normaler preis|normalpreis|regulärer preis|preço normal|normale prijs|reguliere prijs|cena standardowa|cena regularna|ordinary price|usual price)(?!\p{L})|原價|原价|定價|定价|建議售價|市價|參考價|通常価格|定価|参考価格|希望小売価格)[^\d\n]{0,12}$/iu;
const FROM_CUE =
  /(?<!\p{L})(?:from|starting at|ab|à partir de|dès|desde|a partir de|a partire da|vanaf|od|från|fra|alkaen)[\s:]{0,3}$/iu;
// Between the two ends of a range.
const RANGE_GAP = /^\s{0,2}(?:[-–—~〜]|to|bis|à|a|al|tot|do|till|til)\s{0,2}$/iu;
const FREE = /(?<!\p{L})(?:free|gratis|kostenlos|gratuit|gratuito|gratuita|darmowy|zdarma|бесплатно|無料|免费|免費)(?!\p{L})/iu;

/**
 * What a price text says: the selling price with its currency marker, and the regular price or the range's high end
 * when it shows them. `near` is text printed around the price (a label, the cell beside it), used for the currency
 * only when the price text itself has none. A lone "Free" reads as 0. Null when there is no price.
 */
export function parsePriceText(raw: string, opts: { near?: string; signals?: ReadonlySet<string> } = {}): PriceReading | null {
  const text = raw.slice(0, 500);
  const found = pricedAmounts(text, opts.signals, true, 20).filter((p) => !p.amount.percent && !p.gluedToWord);
  if (found.length === 0) {
    if (!FREE.test(text) || /\d/.test(text)) return null;
    return { value: 0, currency: firstMarker(text) ?? firstMarker(opts.near ?? ''), text: '0' };
  }
  const regularAt = found.map((p, i) => REGULAR_CUE.test(text.slice(i === 0 ? 0 : found[i - 1].end, p.start)));
  let sell = regularAt.indexOf(false);
  if (sell < 0) sell = 0;
  const s = found[sell];
  const out: PriceReading = { value: s.value, currency: s.marker, text: s.amount.text };
  const regular = found.find((_, i) => regularAt[i] && i !== sell);
  if (regular && regular.value !== s.value) out.regular = regular.value;
  const next = found[sell + 1];
  if (next && !regularAt[sell + 1] && RANGE_GAP.test(text.slice(s.end, next.start)) && next.value > s.value) out.max = next.value;
  if (FROM_CUE.test(text.slice(sell === 0 ? 0 : found[sell - 1].end, s.start))) out.from = true;
  out.currency ??= found.find((p) => p.marker !== null)?.marker ?? firstMarker(text) ?? firstMarker(opts.near ?? '');
  return out;
}

function firstMarker(text: string): string | null {
  return ANY_MARKER.exec(text.slice(0, 500))?.[0] ?? null;
}

interface Priced {
  amount: Amount;
  value: number;
  marker: string | null;
  /** Where the printed price starts and ends, marker included. */
  start: number;
  end: number;
  /** Glued to a word that is not a currency ("MX924", "A4"): a code, not a price. */
  gluedToWord: boolean;
}

/** A one- or two-letter marker ("R", "KM") only where the page's signals name its currency or cents follow. */
function trusted(marker: Marker | null, amount: Amount, signals: ReadonlySet<string> | undefined): Marker | null {
  if (marker === null || !WEAK_MARKERS.has(symbolKey(marker.text))) return marker;
  const codes = SYMBOL_CODES[SYMBOL_BY_KEY.get(symbolKey(marker.text)) ?? ''] ?? [];
  return codes.some((c) => signals?.has(c)) || /\d[.,]\d{2}$/.test(amount.text) ? marker : null;
}

/** Amounts with the currency marker printed next to them, read with that currency's rules. */
function pricedAmounts(text: string, signals: ReadonlySet<string> | undefined, loose: boolean, max: number): Priced[] {
  const out: Priced[] = [];
  const cursor = new MarkerCursor(text, markersIn(text));
  for (const amount of scanAmounts(text, { loose }, max)) {
    const around = cursor.around(amount.start, amount.end);
    const before = trusted(around.before, amount, signals);
    const after = trusted(around.after, amount, signals);
    // "35€ 99": a euro sign in place of the decimal comma, as French shops print it.
    if (loose && text[amount.end] === '€') {
      const cents = /^€ ?(\d{2})(?![\d.,]|\s?€)/.exec(text.slice(amount.end, amount.end + 5));
      if (cents && amount.readings.length === 1 && Number.isInteger(amount.readings[0]) && !/[.,]/.test(amount.text)) {
        const value = Number(`${amount.text.replace(/\D/g, '')}.${cents[1]}`);
        const end = amount.end + cents[0].length;
        out.push({ amount: { ...amount, end, readings: [value] }, value, marker: '€', start: amount.start, end, gluedToWord: false });
        continue;
      }
    }
    // Of a marker on each side, the one after belongs to this amount unless another amount follows it ("€ 10 € 8").
    const afterOwned = after !== null && !isDigit(text.slice(after.end, after.end + 3).trim()[0]);
    let marker = after && (afterOwned || !before) ? after : before;
    if (before && after && isIso(before.text) && !isIso(after.text)) marker = before;
    const code = markerCode(marker?.text ?? null, signals);
    const readings = code ? amountAt(text, amount.start, { currency: code, loose }).readings : amount.readings;
    const prev = text[amount.start - 1] ?? '';
    out.push({
      amount,
      value: readings[0],
      marker: marker?.text ?? null,
      start: marker && marker.start < amount.start ? marker.start : amount.start,
      end: marker && marker.end > amount.end ? marker.end : amount.end,
      // Chinese, Japanese and Korean print prices straight after words ("售價2320元"): only other scripts glue codes.
      gluedToWord: /\p{L}/u.test(prev) && !CJK.test(prev) && before === null,
    });
  }
  return shareRangeMarkers(text, out, signals, loose);
}

/** "352,00 – 376,45 б.р.": a range prints its marker once, after its high end; the low end is in that currency too. */
function shareRangeMarkers(text: string, priced: Priced[], signals: ReadonlySet<string> | undefined, loose: boolean): Priced[] {
  for (let i = priced.length - 2; i >= 0; i--) {
    const [low, high] = [priced[i], priced[i + 1]];
    if (low.marker !== null || high.marker === null || high.end <= high.amount.end || !RANGE_GAP.test(text.slice(low.end, high.start))) continue;
    const code = markerCode(high.marker, signals);
    const readings = code ? amountAt(text, low.amount.start, { currency: code, loose }).readings : low.amount.readings;
    priced[i] = { ...low, value: readings[0], marker: high.marker, gluedToWord: false };
  }
  return priced;
}

// ---------------------------------------------------------------------------------------------------------------
// Prices in running page text

export type PriceRole = 'selling' | 'regular' | 'other';

export interface PriceMention {
  value: number;
  /** As printed, marker included ("40.00€"). */
  text: string;
  currency: string;
  index: number;
  /** regular = a was/RRP price; other = shipping, per-month, unit, ex-VAT, instalment, saving, discount or reward amounts. */
  role: PriceRole;
  /** A price per period ("€9.99/mo", "29 € pro Monat"). */
  period?: PricePeriod;
  /** A price marked as excluding VAT or sales tax ("€100 excl. VAT", "100 € HT"). */
  exTax?: true;
}

export type PricePeriod = 'day' | 'week' | 'month' | 'year';

// "/mo", "per month", "pro Monat", "par an", "monthly", right after the amount.
const PERIOD_AFTER =
  /^[^\n\d/]{0,3}(?:(?:\/\s?|(?:per|a|an|par|pro|al|por|each|every|im|au|za|na)\s)(mo|mth|month|monat|mois|mes|mese|maand|miesiąc|měsíc|yr|year|jahr|an|año|anno|jaar|rok|wk|week|woche|semaine|semana|day|tag|jour|día|giorno)|(monthly|monatlich|mensuel|mensual|mensile|yearly|annually|jährlich|annuel|anual|weekly|wöchentlich|daily|täglich))(?!\p{L})/iu;
const PERIOD_OF: Record<string, PricePeriod> = {
  mo: 'month', mth: 'month', month: 'month', monat: 'month', mois: 'month', mes: 'month', mese: 'month', maand: 'month', miesiąc: 'month', měsíc: 'month',
  monthly: 'month', monatlich: 'month', mensuel: 'month', mensual: 'month', mensile: 'month',
  yr: 'year', year: 'year', jahr: 'year', an: 'year', año: 'year', anno: 'year', jaar: 'year', rok: 'year',
  yearly: 'year', annually: 'year', jährlich: 'year', annuel: 'year', anual: 'year',
  wk: 'week', week: 'week', woche: 'week', semaine: 'week', semana: 'week', weekly: 'week', wöchentlich: 'week',
  day: 'day', tag: 'day', jour: 'day', día: 'day', giorno: 'day', daily: 'day', täglich: 'day',
};
// Wording that marks an amount as excluding VAT or sales tax, before it or right after it.
const EX_TAX_WORDS =
  'ex(?:cl)?\\.?\\s?vat|excl(?:uding|\\.)?\\s?(?:vat|tax)|tax excl\\.?|netto|ohne mwst\\.?|exkl\\.?\\s?mwst\\.?|zzgl\\.?\\s?mwst\\.?|hors taxes?|hors tva|sans tva|sin iva|senza iva|excl\\.?\\s?btw|exkl\\.?\\s?moms|ekskl\\.?\\s?moms|bez dph|bez vat|brez ddv';
const EX_TAX_BEFORE = new RegExp(`(?<!\\p{L})(?:${EX_TAX_WORDS})(?!\\p{L})[^\\d\\n]{0,12}$`, 'iu');
const EX_TAX_AFTER = new RegExp(`^[^\\n\\d]{0,3}(?:(?:${EX_TAX_WORDS})|\\+\\s?(?:vat|iva|mwst)|plus vat|ht)(?!\\p{L})`, 'iu');

// Words before an amount on the same line that make it something other than the price: shipping thresholds,
// ex-VAT prices, unit prices, instalments, savings, an auction's estimate and starting price.
const OTHER_BEFORE =
  /(?:(?<!\p{L})(?:ex(?:cl)?\.? vat|excl\.? tax|tax excl|brez ddv|netto|ohne mwst|exkl\. mwst|hors taxes?|hors tva|sans tva|sin iva|senza iva|excl\.? btw|exkl\.? moms|ekskl\.? moms|bez dph|bez vat|savings?|save|you save|sparen sie|sie sparen|économisez|ahorra|ahorro|risparmi|bespaar|oszczędzasz|spara|spar|orders? (?:over|from|above)|spend|free (?:delivery|shipping)|kostenlose[rn]? versand|livraison gratuite|envío gratis|spedizione gratuita|gratis verzending|frete grátis|grundpreis|unit price|prix au kg|prezzo al kg|precio por kg|earn|up to|for every|extra|bonus|cash ?back|rewards?|gift card|coupon|estimated?|starting (?:price|bid)|opening bid|reserve price|schätzpreis|startpreis|mindestgebot|estimation|mise à prix|prezzo di partenza|base d'asta|precio de salida|\d{1,2}\s?x(?: de)?)(?!\p{L}))[^\d\n]{0,30}$/iu;
const OTHER_AFTER =
  /^[^\n\d]{0,3}(?:delivery|shipping|postage|versand|envío|spedizione|livraison|frete|dostava|wysyłka|frakt|fragt|verzendkosten|\/\s?month|\/\s?mo\b|per month|p\/m|a month|monthly|\/\s?mes|al mes|por mes|\/\s?mois|par mois|\/\s?monat|monatlich|al mese|per maand|sem juros|ex(?:cl)?\.? vat|excl\.? tax|bez dph|hors tva|\/\s?(?:\d{1,4}\s?)?(?:kg|g|l|ml|cl|m|m²|m2|lb|oz|st|stk|pc|pcs|unit)(?!\p{L})|(?:km|kms|kg|lbs|cm|mm|ml|mah|gb|tb|kwh|kw)(?!\p{L})|per (?:kg|100 ?g|litre|liter|unit)|(?:off|back|in rewards|cash ?back|spent|rabatt|de réduction|de descuento|di sconto|korting)(?!\p{L}))/iu;

/** Every currency-marked amount in a text, in order, with what it is (at most 200). */
export function priceMentions(raw: string, signals?: ReadonlySet<string>, withZero = false): PriceMention[] {
  const text = raw.slice(0, 300_000);
  const out: PriceMention[] = [];
  let prevEnd = 0;
  for (const p of pricedAmounts(text, signals, false, 20_000)) {
    if (out.length >= 200) break;
    if (p.marker === null || p.amount.percent || p.gluedToWord || !(p.value > 0 || (withZero && p.value === 0))) continue;
    const lineStart = text.lastIndexOf('\n', p.start - 1) + 1;
    const before = text.slice(Math.max(prevEnd, lineStart, p.start - 40), p.start);
    const after = text.slice(p.end, p.end + 24);
    // The high end of a range is what its low end is ("Estimate $600 - $1,600").
    const rangeOf = out.length > 0 && RANGE_GAP.test(text.slice(prevEnd, p.start)) ? out[out.length - 1] : undefined;
    prevEnd = p.end;
    const periodWord = PERIOD_AFTER.exec(after);
    const exTax = EX_TAX_BEFORE.test(before) || EX_TAX_AFTER.test(after);
    const other = periodWord !== null || exTax || OTHER_BEFORE.test(before) || OTHER_AFTER.test(after) || signedAsReduction(text, p.start);
    const role: PriceRole = rangeOf && rangeOf.role !== 'selling' ? rangeOf.role : other ? 'other' : REGULAR_CUE.test(before) ? 'regular' : 'selling';
    const mention: PriceMention = { value: p.value, text: text.slice(p.start, p.end), currency: p.marker, index: p.start, role };
    const period = periodWord ? own(PERIOD_OF, (periodWord[1] ?? periodWord[2]).toLowerCase()) : undefined;
    if (period) mention.period = period;
    if (exTax) mention.exTax = true;
    out.push(mention);
  }
  return out;
}

/**
 * A minus sign glued to an amount or its marker makes it a reduction ("-100 €", "Price 199 € −£5"), not a price;
 * unless the dash is itself glued to a digit, a currency sign, a capital (a code) or another dash before it, where
 * it joins a range or a word ("€10-€20", "EUR 10-EUR 20", "1-2 €").
 */
function signedAsReduction(text: string, start: number): boolean {
  const sign = text[start - 1];
  if (sign !== '-' && sign !== '\u2212') return false;
  const before = text[start - 2];
  return before === undefined || !/[\d\p{Sc}\p{Lu}\-\u2212\u2013]/u.test(before);
}

// A discount printed by a pair of prices: "-11%", "−16 %", "16% off".
const DISCOUNT = /[-−–]\s?\d{1,2}\s?%|\d{1,2}\s?%\s?(?:off|rabatt|de descuento|di sconto|korting|de réduction)(?!\p{L})/iu;

export interface SellingPrice {
  value: number;
  text: string;
  currency: string | null;
  /** The price is per this period ("€9.99/mo"). */
  period?: PricePeriod;
  /** The price excluding tax, as the page also shows it (equal to value when that is the only price shown). */
  exclTax?: number;
  /** The other price of a discounted pair ("€ 99,00 € 88,00 -11%"): the regular price the page crosses out. */
  regular?: number;
}

/**
 * The price a buyer pays, from the text after a product title: the first selling price, or the lower of two printed
 * side by side with a discount next to them ("€ 99,00 € 88,00 -11%", "16% off €41.30 €49.10"), since visible text
 * loses the strike-through that tells a shopper which one is the old price.
 */
export function sellingPrice(raw: string, signals?: ReadonlySet<string>): SellingPrice | null {
  const text = raw.slice(0, 300_000);
  return sellingPriceOf(text, priceMentions(text, signals, true));
}

/** sellingPrice for a text whose mentions (priceMentions with zero prices) the caller has read already. */
export function sellingPriceOf(text: string, mentions: readonly PriceMention[]): SellingPrice | null {
  const selling = mentions.filter((m) => m.role === 'selling' && m.value > 0);
  const [first, second] = selling;
  // Beside the price, the same price excluding tax when the page shows one in the same currency.
  const exTax = mentions.find((m) => m.exTax && !m.period && m.value > 0);
  const pick = ({ value, text: t, currency, period }: PriceMention): SellingPrice => {
    const out: SellingPrice = { value, text: t, currency };
    if (period) out.period = period;
    if (exTax && exTax.currency === currency && exTax.value <= value) out.exclTax = exTax.value;
    return out;
  };
  if (!first) {
    // A regular price that is the only one is the price ("Regular price $30"); else a price per period, a price
    // excluding tax, or a zero price (which an agent reads as free and the checks report).
    const alone =
      mentions.find((m) => m.role === 'regular' && m.value > 0) ??
      mentions.find((m) => m.period && m.value > 0) ??
      exTax ??
      mentions.find((m) => m.role === 'selling' && m.value === 0);
    return alone ? pick(alone) : null;
  }
  if (!second || second.currency !== first.currency) return pick(first);
  const firstEnd = first.index + first.text.length;
  const between = text.slice(firstEnd, second.index);
  // Side by side, or with the discount printed between them ("€219.99 -50% €110.00").
  const side = /^[^\d\n]{0,4}\n?[^\d\n]{0,4}$/.test(between.replace(DISCOUNT, ''));
  const around = text.slice(Math.max(0, first.index - 30), second.index + second.text.length + 30);
  if (side && DISCOUNT.test(around)) {
    const [lower, higher] = second.value < first.value ? [second, first] : [first, second];
    return { ...pick(lower), regular: higher.value };
  }
  return pick(first);
}

/**
 * The price in an element the page marks as its price, for a page whose text shows no currency-marked price: a bare
 * amount ("49,00") is the price, in the currency the page implies when it implies one (`implied`: markup, OG tags,
 * its language and country), else with the currency unknown. An amount that reads two ways ("1.299") and no currency
 * to decide it gives nothing, never a guess.
 */
export function elementPrice(
  texts: readonly string[],
  signals: ReadonlySet<string>,
  implied: string | null,
): { value: number; text: string; currency: string | null } | null {
  for (const raw of texts) {
    const text = raw.slice(0, 200);
    const read = parsePriceText(text, { signals });
    if (read === null || text.length > 40 || /%/.test(text)) continue;
    const code = markerCode(read.currency, signals) ?? implied;
    const readings = scanAmounts(text, { currency: code, loose: true }, 3).find((a) => !a.percent)?.readings ?? [];
    // Two readings left: "1.299" with no currency of three decimals nor a two-decimal currency to rule one out.
    if (readings.length !== 1 && (code === null || THREE_DECIMALS.has(code))) continue;
    const value = read.currency === null ? readings[0] : read.value;
    if (value === undefined || !(value >= 0)) continue;
    return { value, text: read.text, currency: read.currency ?? implied };
  }
  return null;
}

/** The one currency a page's signals name, or null when they name none or several. */
export function impliedCurrency(signals: ReadonlySet<string>): string | null {
  return signals.size === 1 ? [...signals][0] : null;
}

/** Selling prices printed with a currency marker, in order (at most 20): no regular, shipping, unit or ex-VAT amounts. */
export function findPrices(raw: string, signals?: ReadonlySet<string>): { value: number; text: string; currency: string | null }[] {
  return priceMentions(raw, signals)
    .filter((m) => m.role === 'selling')
    .slice(0, 20)
    .map(({ value, text, currency }) => ({ value, text, currency }));
}

// ---------------------------------------------------------------------------------------------------------------
// Every number on a page

interface TextAmount {
  index: number;
  readings: number[];
}

/**
 * Every number in a text with all its plausible readings, marker or not: "1.299" as 1299 and 1.299, and a
 * space-grouped "1 299,00" also as its parts, so a comparison with a known price never misses a convention.
 */
function amountsInText(raw: string): TextAmount[] {
  const text = raw.slice(0, 300_000);
  const out: TextAmount[] = [];
  for (const a of scanAmounts(text, {}, 100_000)) {
    out.push({ index: a.start, readings: a.readings });
    // Each part after a grouping space, read on its own.
    for (let i = a.start + 1; i < a.end; i++) {
      if (SPACES.includes(text[i])) out.push({ index: i + 1, readings: amountAt(text, i + 1, {}).readings });
    }
  }
  return out;
}

/** Every number on the page read as a price, with both decimal conventions ("1.299,00" and "1,299.00"). */
export function visiblePrices(text: string): Set<number> {
  const out = new Set<number>();
  for (const a of amountsInText(text)) for (const n of a.readings) out.add(Math.round(n * 100) / 100);
  return out;
}

/** Where a price appears in a text: the start of every number that can read as `value`. */
export function pricePositions(text: string, value: number): number[] {
  return amountsInText(text)
    .filter((a) => a.readings.some((n) => samePrice(n, value)))
    .map((a) => a.index);
}
