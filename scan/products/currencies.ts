// What the project knows about currencies, read from maintained data rather than typed in: ISO 4217 codes, current
// and withdrawn, with their minor units, signs and local names from the CLDR data Node's ICU carries, and each
// country's currency from country-to-currency. A sign is taken from the locale of every country that uses the
// currency (the "KSh" of Kenya, the "د.م." of Morocco, the "ден." of North Macedonia) and from English; a withdrawn
// code's country is its first two letters (DEM → DE), as ISO 4217 builds codes. Built once, on first use.
import countryToCurrency from 'country-to-currency';

export interface CurrencyData {
  /** Codes in use today. */
  current: ReadonlySet<string>;
  /** Every code CLDR names: current ones and withdrawn national currencies still seen on pages (DEM, FRF, HRK). */
  known: ReadonlySet<string>;
  /** Printed signs and local words, each with the codes it can stand for. */
  markers: ReadonlyMap<string, readonly string[]>;
  /** English currency words ("dirham", "dirhams"), each with its codes: markers only after an amount. */
  words: ReadonlyMap<string, readonly string[]>;
  /** Digits after the decimal mark, where CLDR says other than two (JPY 0, KWD 3). */
  minorDigits: ReadonlyMap<string, number>;
  /** Country (ISO 3166 alpha-2, lower case) → its currency. */
  byCountry: ReadonlyMap<string, string>;
}

// Precious metals, test and fund codes: not what a shop prices in.
const NOT_MONEY = new Set(['XAG', 'XAU', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XPD', 'XPT', 'XSU', 'XTS', 'XUA', 'XXX', 'XRE', 'XFO', 'XFU', 'BOV', 'CHE', 'CHW', 'CLF', 'COU', 'MXV', 'USN', 'USS', 'UYI', 'UYW', 'CNH', 'CNX']);
// English words that name a currency but mean something else far more often on a shop page ("5 pounds" of flour).
const COMMON_WORDS = new Set(['pound', 'pounds', 'mark', 'marks', 'real', 'reals', 'won', 'sol', 'soles', 'unit', 'units', 'crown', 'crowns', 'sum', 'kip', 'value', 'gold', 'ley', 'inti', 'cupon']);

const RTL = new Set(['Arab', 'Hebr', 'Thaa', 'Syrc', 'Nkoo', 'Adlm', 'Rohg']);

let data: CurrencyData | null = null;

export function currencyData(): CurrencyData {
  data ??= build();
  return data;
}

function build(): CurrencyData {
  const current = new Set(Intl.supportedValuesOf('currency').filter((c) => !NOT_MONEY.has(c)));
  const known = new Set(current);
  const names = new Intl.DisplayNames(['en'], { type: 'currency', fallback: 'none' });
  const byCountry = new Map<string, string>();
  for (const [country, code] of Object.entries(countryToCurrency)) byCountry.set(country.toLowerCase(), code);
  // Withdrawn codes: every code of a country (its first two letters) that CLDR still names, and the few codes of
  // countries that no longer exist (YUM, CSK, SUR, DDM).
  for (const region of [...byCountry.keys(), 'yu', 'cs', 'su', 'dd', 'zr', 'bu', 'rh', 'yd', 'an'].map((c) => c.toUpperCase())) {
    for (let c = 0; c < 26; c++) {
      const code = region + String.fromCharCode(65 + c);
      if (!NOT_MONEY.has(code) && names.of(code) !== undefined) known.add(code);
    }
  }

  const markers = new Map<string, Set<string>>();
  const words = new Map<string, Set<string>>();
  const add = (table: Map<string, Set<string>>, marker: string, code: string): void => {
    const m = marker.trim();
    if (m.length > 12 || !/[\p{L}\p{Sc}\p{So}]/u.test(m) || /\d/.test(m) || m.toUpperCase() === code) return;
    let codes = table.get(m);
    if (!codes) table.set(m, (codes = new Set()));
    codes.add(code);
  };
  const minorDigits = new Map<string, number>();
  // The countries of each code: those that use it today, else the one its letters name.
  const usedIn = new Map<string, Set<string>>();
  for (const [country, code] of byCountry) {
    if (!usedIn.has(code)) usedIn.set(code, new Set());
    usedIn.get(code)?.add(country.toUpperCase());
  }
  for (const code of known) {
    const en = new Intl.NumberFormat('en', { style: 'currency', currency: code });
    const digits = en.resolvedOptions().maximumFractionDigits ?? 2;
    if (digits !== 2) minorDigits.set(code, digits);
    for (const display of ['symbol', 'narrowSymbol'] as const) add(markers, sign('en', code, display), code);
    for (const word of englishWords(code, names)) if (!COMMON_WORDS.has(word)) add(words, word, code);
    for (const country of usedIn.get(code) ?? [code.slice(0, 2)]) {
      const locale = localeOf(country);
      if (locale === null) continue;
      for (const display of ['symbol', 'narrowSymbol'] as const) add(markers, sign(locale.tag, code, display), code);
      const local = locale.script === 'Latn' ? undefined : new Intl.DisplayNames([locale.tag], { type: 'currency', fallback: 'none' }).of(code);
      if (local && !/\p{Script=Latin}/u.test(local)) {
        // In other scripts shops write the currency's local name, or its noun alone: the first word where the
        // noun leads ("ريال" of "ريال سعودي", "שקל" of "שקל חדש"), else the last ("денар" of "Македонски денар").
        add(markers, local, code);
        const words = local.split(/\s+/);
        const noun = RTL.has(locale.script) ? words[0] : words.at(-1);
        if (noun && noun.length >= 2) add(markers, noun, code);
      }
    }
  }
  const frozen = (table: Map<string, Set<string>>) => new Map([...table].map(([k, v]) => [k, [...v]]));
  return { current, known, markers: frozen(markers), words: frozen(words), minorDigits, byCountry };
}

function sign(locale: string, code: string, currencyDisplay: 'symbol' | 'narrowSymbol'): string {
  const parts = new Intl.NumberFormat(locale, { style: 'currency', currency: code, currencyDisplay }).formatToParts(1);
  return parts.find((p) => p.type === 'currency')?.value ?? '';
}

/** The likeliest language of a country, with its script ("MA" → ar-MA, Arab), or null when CLDR has none. */
function localeOf(country: string): { tag: string; script: string } | null {
  try {
    const max = new Intl.Locale(`und-${country}`).maximize();
    if (max.language === 'und') return null;
    return { tag: `${max.language}-${country}`, script: max.script ?? 'Latn' };
  } catch {
    return null; // not a region CLDR knows
  }
}

/** The last word of the English name, singular and plural ("Moroccan Dirham" → dirham, dirhams). */
function englishWords(code: string, names: Intl.DisplayNames): string[] {
  const singular = names.of(code);
  const plural = new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: 'name' })
    .formatToParts(2)
    .find((p) => p.type === 'currency')?.value;
  const out: string[] = [];
  for (const name of [singular, plural]) {
    // Only names whose last word is a currency's own ("Dirham"), not "(1990–1992)" or "Unit".
    const last = name?.replace(/\s*\(.*\)\s*$/, '').split(/\s+/).at(-1)?.toLowerCase();
    if (last && /^\p{L}{3,}$/u.test(last)) out.push(last);
  }
  return out;
}
