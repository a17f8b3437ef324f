// Product identifiers an agent can match across stores: GTIN-8/12/13/14 (EAN, UPC, ITF-14) and ISBN-10/13, each
// with its check digit, separators ignored; and the one valid code inside a labelled text value ("EAN: 4 006381
// 333931", "ISBN 978-0-306-40615-7"). Deliberately not here: which property or label a code came from (the product
// reader decides that), ISSN/ISMN classes and GS1 prefix meanings (country, coupon or restricted ranges), which no
// check here needs. Pure functions; every regex is linear and runs on capped text.

export type GtinKind = 'gtin8' | 'gtin12' | 'gtin13' | 'gtin14' | 'isbn10' | 'isbn13';

export interface Gtin {
  kind: GtinKind;
  /** The code as digits (an ISBN-10 may end in X). */
  value: string;
  /** The GTIN to match on: the code itself, an ISBN-10 as its ISBN-13. */
  gtin: string;
}

/** GTIN-8/12/13/14 (ISBN-13 included) with a correct GS1 check digit; spaces and hyphens are ignored. */
export function gtinValid(raw: string): boolean {
  const digits = compact(raw);
  return /^\d+$/.test(digits) && [8, 12, 13, 14].includes(digits.length) && gs1CheckDigit(digits.slice(0, -1)) === Number(digits.at(-1));
}

/** ISBN-10 with its own mod-11 check digit (X = 10); spaces and hyphens are ignored. */
export function isbn10Valid(raw: string): boolean {
  const s = compact(raw).toUpperCase();
  if (!/^\d{9}[\dX]$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (10 - i) * (s[i] === 'X' ? 10 : Number(s[i]));
  return sum % 11 === 0;
}

/** The ISBN-13 of a valid ISBN-10 ("0-306-40615-2" → "9780306406157"), else null. */
export function isbn10To13(raw: string): string | null {
  if (!isbn10Valid(raw)) return null;
  const body = `978${compact(raw).slice(0, 9)}`;
  return `${body}${gs1CheckDigit(body)}`;
}

/** What a whole value is, when it is one valid code (separators ignored): GTIN class or ISBN; null otherwise. */
export function classifyGtin(raw: string): Gtin | null {
  const s = compact(raw.slice(0, 40)).toUpperCase();
  if (s.length === 10 && isbn10Valid(s)) return { kind: 'isbn10', value: s, gtin: isbn10To13(s) ?? s };
  if (!gtinValid(s)) return null;
  // 978 and 979 (but 979-0, the ISMN range for printed music) are the ISBN ranges of GTIN-13.
  if (s.length === 13 && /^97(?:8|9[1-9])/.test(s)) return { kind: 'isbn13', value: s, gtin: s };
  return { kind: `gtin${s.length}` as GtinKind, value: s, gtin: s };
}

// A label word that announces a code; some carry digits of their own ("EAN13", "ISBN-10", "GTIN14").
const LABEL_BEFORE = /(?:ean|gtin|upc|isbn|jan|barcode)(?:[ -]?(?:8|10|12|13|14))?[\s:#-]{0,4}$/i;
const LABEL_DIGITS = ['14', '13', '12', '10', '8'];
// A digit run that may be a code: digits with single spaces or hyphens between groups, ISBN-10's X last.
const CODE_RUN = /\d(?:[ \-\u00a0]?\d){6,20}(?:[ -]?[xX](?![\p{L}\d]))?/gu;

/**
 * The one valid GTIN or ISBN in a labelled text value: "EAN: 4 006381 333931", "ISBN-10: 0-545-01022-5",
 * "UPC4960759145062", "EAN131334567890125" (the label's own digits are not part of the code). A run glued to other
 * letters ("HD978193-INT3624341") is a part number, not a barcode. Null when no run holds a valid code.
 */
export function gtinInText(raw: string): Gtin | null {
  const text = raw.slice(0, 500);
  CODE_RUN.lastIndex = 0;
  for (let m = CODE_RUN.exec(text); m !== null; m = CODE_RUN.exec(text)) {
    const end = m.index + m[0].length;
    if (/[\p{L}\d]/u.test(text[end] ?? '')) continue;
    const gluedToLetter = /\p{L}/u.test(text[m.index - 1] ?? '');
    const labelled = LABEL_BEFORE.test(text.slice(Math.max(0, m.index - 20), m.index));
    if (gluedToLetter && !labelled) continue;
    for (const candidate of candidates(m[0], gluedToLetter)) {
      const found = classifyGtin(candidate);
      if (found) return found;
    }
  }
  return null;
}

/**
 * The run itself; without a glued label's digits ("13" of "EAN13…"); then its prefixes ending at a separator, so that
 * a number printed after the code ("4006381333931 12 pcs") does not hide it.
 */
function candidates(run: string, gluedLabel: boolean): string[] {
  const out = [run];
  if (gluedLabel) for (const d of LABEL_DIGITS) if (run.startsWith(d)) out.push(run.slice(d.length));
  for (let i = run.length - 1; i > 0; i--) if (run[i] === ' ' || run[i] === '-') out.push(run.slice(0, i));
  return out;
}

function compact(raw: string): string {
  return raw.trim().replace(/[\s\u00a0-]/g, '');
}

/** GS1 check digit of a body: weights 3,1,3,… from the right. */
function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = body.length - 1, w = 3; i >= 0; i--, w = 4 - w) sum += Number(body[i]) * w;
  return (10 - (sum % 10)) % 10;
}
