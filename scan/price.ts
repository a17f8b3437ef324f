// Prices and currencies, read one way for every caller: structured values ("1299.00"), visible price texts
// ("1.299,00 €", "$1,299", "24.990" in Chilean pesos) and currency symbols resolved with the page's signals.
// Pure functions; every regex is linear and runs on capped text.
import type { PageFacts } from './artifacts.js';
import { propStrings } from './structured-data.js';

/** A structured price: a plain decimal as schema.org asks ("1299.00"), else read like visible text. */
export function parseStructuredPrice(raw: string): number | null {
  const s = raw.trim();
  if (/^\d{1,15}(?:\.\d{1,10})?$/.test(s)) return Number(s);
  return parsePrice(s);
}

/**
 * The first number in a price text, with thousands and decimal separators told apart: "1.299,00", "1,299.00",
 * "€ 12,50", "1 299,00", "2.449" (one separator followed by exactly three digits groups thousands). Null if none.
 */
export function parsePrice(raw: string): number | null {
  const m = /\d[\d.,'\u00a0\u202f ]{0,30}/.exec(raw.slice(0, 200));
  if (!m) return null;
  const token = groupsOf(m[0]);
  const lastDot = token.lastIndexOf('.');
  const lastComma = token.lastIndexOf(',');
  let normalised: string;
  if (lastDot >= 0 && lastComma >= 0) {
    const dec = lastDot > lastComma ? '.' : ',';
    const thousands = dec === '.' ? ',' : '.';
    normalised = token.split(thousands).join('').replace(dec, '.');
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const parts = token.split(sep);
    const thousands = parts.length > 2 || parts[parts.length - 1].length === 3;
    normalised = thousands ? parts.join('') : parts.join('.');
  } else {
    normalised = token;
  }
  const n = Number(normalised);
  return Number.isFinite(n) ? n : null;
}

// Spaces, NBSPs and apostrophes group thousands only when exactly three digits follow ("1 299,00", "1'299").
function groupsOf(token: string): string {
  const trimmed = token.replace(/[.,'\u00a0\u202f ]+$/, '');
  const parts = trimmed.split(/[\u00a0\u202f' ]/);
  let out = parts[0];
  for (const p of parts.slice(1)) {
    if (!/^\d{3}(?:[.,]\d*)?$/.test(p)) break;
    out += p;
  }
  return out;
}

// Currency markers as printed next to prices; letters-only ones need word boundaries.
const CURRENCY_SYMBOLS = [
  'R$', 'US$', 'CA$', 'C$', 'AU$', 'A$', 'NZ$', 'HK$', 'S$', 'NT$', 'MX$', '€', '£', '$', '¥', '￥', '₹', '₩', '₺', '₽',
  '₪', '฿', '₫', '₴', '₱', '元', '円', 'zł', 'Kč', 'kr', 'Ft', 'lei', 'CHF', 'RM', 'Rp',
];
const ISO_4217 = new Set(
  ('AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF ' +
    'CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF ' +
    'IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK ' +
    'MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR ' +
    'SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES ' +
    'VND VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL').split(' '),
);
const SYMBOL_CODES: Record<string, string[]> = {
  '€': ['EUR'], 'R$': ['BRL'], 'US$': ['USD'], 'CA$': ['CAD'], 'C$': ['CAD'], 'AU$': ['AUD'], 'A$': ['AUD'],
  'NZ$': ['NZD'], 'HK$': ['HKD'], 'S$': ['SGD'], 'NT$': ['TWD'], 'MX$': ['MXN'], '₹': ['INR'], '₩': ['KRW'],
  '₺': ['TRY'], '₽': ['RUB'], '₪': ['ILS'], '฿': ['THB'], '₫': ['VND'], '₴': ['UAH'], '₱': ['PHP'], 'zł': ['PLN'],
  'Kč': ['CZK'], 'Ft': ['HUF'], 'lei': ['RON'], 'CHF': ['CHF'], 'RM': ['MYR'], 'Rp': ['IDR'],
  '£': ['GBP', 'EGP', 'GIP', 'FKP', 'SHP', 'LBP', 'SYP'],
  '$': ['USD', 'CAD', 'AUD', 'NZD', 'MXN', 'ARS', 'CLP', 'COP', 'UYU', 'SGD', 'HKD', 'TWD', 'DOP', 'JMD', 'TTD', 'BSD', 'FJD', 'BND', 'NAD', 'LRD', 'SBD', 'BZD', 'BBD', 'KYD', 'XCD', 'CUP'],
  '¥': ['JPY', 'CNY'], '￥': ['JPY', 'CNY'], '円': ['JPY'], '元': ['CNY', 'TWD', 'HKD', 'MOP'],
  'kr': ['SEK', 'NOK', 'DKK', 'ISK'],
};
// Symbols that stand for one currency nearly everywhere; the rest need the page's other signals to agree.
const UNAMBIGUOUS_DEFAULT: Record<string, string> = { '£': 'GBP', '円': 'JPY' };

const COUNTRY_CURRENCY: Record<string, string> = {
  us: 'USD', gb: 'GBP', uk: 'GBP', ie: 'EUR', de: 'EUR', at: 'EUR', fr: 'EUR', it: 'EUR', es: 'EUR', pt: 'EUR',
  nl: 'EUR', be: 'EUR', lu: 'EUR', fi: 'EUR', gr: 'EUR', sk: 'EUR', si: 'EUR', ee: 'EUR', lv: 'EUR', lt: 'EUR',
  mt: 'EUR', cy: 'EUR', hr: 'EUR', ca: 'CAD', au: 'AUD', nz: 'NZD', mx: 'MXN', ar: 'ARS', br: 'BRL', cl: 'CLP',
  co: 'COP', uy: 'UYU', pe: 'PEN', jp: 'JPY', cn: 'CNY', tw: 'TWD', hk: 'HKD', sg: 'SGD', in: 'INR', kr: 'KRW',
  se: 'SEK', no: 'NOK', dk: 'DKK', is: 'ISK', ch: 'CHF', pl: 'PLN', cz: 'CZK', hu: 'HUF', ro: 'RON', tr: 'TRY',
  ru: 'RUB', ua: 'UAH', il: 'ILS', th: 'THB', vn: 'VND', ph: 'PHP', my: 'MYR', id: 'IDR', za: 'ZAR', ae: 'AED',
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
  // The language region (lang="de-AT", og:locale="zh_TW") and the country TLD of the page's own addresses: its URL,
  // canonical and og:url (a page saved or proxied elsewhere still names its store).
  for (const locale of [page.lang, ...(page.meta['og:locale'] ?? [])]) {
    const region = /^[a-z]{2,3}[-_]([a-z]{2})\b/i.exec(locale ?? '')?.[1]?.toLowerCase();
    const fromRegion = region ? own(COUNTRY_CURRENCY, region) : undefined;
    if (fromRegion) out.add(fromRegion);
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
  const symbol = CURRENCY_SYMBOLS.find((sym) => s === sym || s.replace(/[\s.]/g, '') === sym);
  if (!symbol) return s;
  const codes = SYMBOL_CODES[symbol] ?? [];
  if (codes.length === 1) return codes[0];
  const agreeing = codes.filter((c) => signals.has(c));
  if (agreeing.length === 1) return agreeing[0];
  const fallback = UNAMBIGUOUS_DEFAULT[symbol];
  if (fallback && agreeing.length === 0) return fallback;
  return s;
}

/** A table lookup with a key read from the page: own entries only ("constructor" is not a country). */
export function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const CURRENCY_ALT = [...CURRENCY_SYMBOLS]
  .sort((a, b) => b.length - a.length)
  .map((s) => (/^\p{L}+$/u.test(s) && s.length > 1 ? `(?<!\\p{L})${escapeRe(s)}(?!\\p{L})` : escapeRe(s)))
  .concat(['(?<!\\p{L})(?:' + [...ISO_4217].join('|') + ')(?!\\p{L})'])
  .join('|');
const NUMBER = String.raw`\d{1,3}(?:[.,'\u00a0\u202f ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;
const PRICE_RE = new RegExp(`(?<![\\p{L}\\d.,])(?:(${CURRENCY_ALT})\\s?(${NUMBER})(?![\\d])|(${NUMBER})\\s?(${CURRENCY_ALT}))`, 'gu');
// Words before a price on the same line that make it not the selling price.
const NOT_SELLING_BEFORE = /(?:\brrp|\bwas\b|\blist price|\bregular price|\breg\.|\buvp|\bstatt\b|\bprezzo di listino|\bantes\b|\bbefore\b|\bold price|\bprecio anterior|\bex(?:cl)?\.? vat|\bbrez ddv|\bnetto|\bohne mwst|建議售價|原價|定價|市價|參考價|\bpvpr?\b|\bsavings?\b|\bsave\b|\bfrom\b)[^\n]{0,30}$/iu;
const NOT_SELLING_AFTER = /^[^\n]{0,3}(?:delivery|shipping|postage|versand|envío|spedizione|livraison|frete|dostava|\/\s?month|\/\s?mo\b|per month|p\/m)/iu;

/** Prices printed with a currency marker, in order, minus list/ex-VAT/shipping amounts. */
export function findPrices(raw: string): { value: number; text: string; currency: string | null }[] {
  const text = raw.slice(0, 50_000);
  const out: { value: number; text: string; currency: string | null }[] = [];
  PRICE_RE.lastIndex = 0;
  for (let m = PRICE_RE.exec(text); m !== null && out.length < 20; m = PRICE_RE.exec(text)) {
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 20);
    if (NOT_SELLING_BEFORE.test(before) || NOT_SELLING_AFTER.test(after)) continue;
    const value = parsePrice(m[2] ?? m[3]);
    if (value !== null && value > 0) out.push({ value, text: m[0], currency: m[1] ?? m[4] ?? null });
  }
  return out;
}

