// The brand as the visible page writes it, where no spec row names it: a label sentence ending in "Brand: X" whose
// X the title carries, and the brand line stores print right above or under the product title (and again above
// every product card of the same brand). A seller or shop name is never a brand. Pure functions over capped text;
// every regex is linear.

const TEXT_CAP = 300_000;
const MAX_BRAND = 40;

// "Ver mais artigos da Marca: Panasonic", "Alle Artikel der Marke: Bosch": a short line ending in "<brand label>: X".
const LABEL_SENTENCE = /(?:^|\s)(?:brand|marca|marque|marke|merk|marchio|бренд|марка)\s?[:：]\s*([^\n:：]{2,40})$/gimu;

/** X of a short line ending in "Brand: X" (other words before the label), when the product title names X. */
export function brandInLabelSentence(text: string, title: string | null): string | undefined {
  if (!title) return undefined;
  const capped = text.slice(0, TEXT_CAP);
  LABEL_SENTENCE.lastIndex = 0;
  let count = 0;
  for (let m = LABEL_SENTENCE.exec(capped); m !== null && count++ < 100; m = LABEL_SENTENCE.exec(capped)) {
    const lineStart = capped.lastIndexOf('\n', m.index) + 1;
    if (m.index + m[0].length - lineStart > 100) continue; // a sentence, not a paragraph
    const value = m[1].trim();
    if (titleNamesBrand(title, value)) return value;
  }
  return undefined;
}

// Seller and shop lines of marketplaces and classifieds: "Seller: x", "Sold by x", "Este produto é vendido e
// entregue por x", and a "Seller information" heading with the name on the next line ("phoenixemporium (8116 )").
const SELLER_LINE = new RegExp(
  String.raw`^(?:(?:seller|shop|store|visit store|verkäufer|vendeur|vendedor|venditore|verkoper|sprzedawca|продавец|магазин)\s?[:：]|(?:[\p{L}]+ ){0,5}?(?:sold by|sold and shipped by|ships from and sold by|verkauft von|verkauf und versand durch|vendu par|vendu et expédié par|vendido por|vendido e entregue por|venduto da|verkocht door)[:：]?|(?:seller information|informazioni sul venditore|informations sur le vendeur|informationen zum verkäufer|información del vendedor)\s*\n)\s*([^\n]{2,60})$`,
  'gimu',
);

/** Seller and shop names the page states, lower case: none of them is the product's brand. */
export function sellerNames(text: string): Set<string> {
  const out = new Set<string>();
  SELLER_LINE.lastIndex = 0;
  const capped = text.slice(0, TEXT_CAP);
  let count = 0;
  for (let m = SELLER_LINE.exec(capped); m !== null && count++ < 50; m = SELLER_LINE.exec(capped)) {
    const name = brandKey(m[1].replace(/\s*\(\s*[\d.,]+\s*\)\s*$/, '')); // a feedback count after the name
    if (name !== '') out.add(name);
  }
  return out;
}

/** Is this brand candidate a seller or shop the page names ("Sold by Acme Outlet")? */
export function isSellerName(brand: string, sellers: ReadonlySet<string>): boolean {
  const b = brandKey(brand);
  for (const s of sellers) if (s === b || s.startsWith(`${b} `)) return true;
  return false;
}

/**
 * The brand line next to the product title: the short line right above or under it (the title may be printed twice)
 * that either opens the title ("KÄRCHER" over "KÄRCHER Hochdruckreiniger …") or stands alone as its own line at least
 * twice more on the page, as it does over every card of the same brand ("JACK & JONES" under the title and over each
 * recommendation). A breadcrumb category is neither: it does not open the title, and menus print it once more at most.
 */
export function brandNextToTitle(text: string, anchor: number, title: string | null): string | undefined {
  if (anchor < 0 || !title) return undefined;
  const capped = text.slice(0, TEXT_CAP);
  const lines = capped.split('\n');
  let at = 0;
  let row = 0;
  while (row < lines.length && at + lines[row].length < anchor) at += lines[row++].length + 1;
  if (row >= lines.length) return undefined;
  const titleLine = norm(lines[row]);
  let after = row + 1;
  while (after < lines.length && norm(lines[after]) === titleLine) after++;
  const counts = lineCounts(lines);
  const name = norm(title);
  for (const candidate of [lines[row - 1], lines[after]]) {
    const c = candidate?.trim() ?? '';
    if (!brandShaped(c) || name === norm(c)) continue;
    if (name.startsWith(`${norm(c)} `) && (counts.get(norm(c)) ?? 0) >= 2) return c;
    if ((counts.get(norm(c)) ?? 0) >= 3) return c;
  }
  return brandPrefix(capped, lines[row], anchor);
}

/**
 * The title's opening words when the page prints the rest of the title without them elsewhere: a heading "RETRAK
 * EUSELFIEW Selfie Stick" over a breadcrumb "› EUSELFIEW Selfie Stick" names the brand RETRAK. Only words written as
 * brands are (capitals after the first letter: "RETRAK", "TP-Link", "KitchenAid"), not a category word ("Microondas").
 */
function brandPrefix(text: string, titleLine: string, anchor: number): string | undefined {
  const words = titleLine.trim().split(/\s+/);
  for (let n = 1; n <= 3 && n < words.length; n++) {
    const prefix = words.slice(0, n).join(' ');
    const rest = words.slice(n).join(' ');
    if (rest.length < 12 || !brandShaped(prefix) || !words.slice(0, n).every((w) => /^\p{L}.*\p{Lu}/u.test(w))) continue;
    for (let i = text.indexOf(rest); i >= 0 && i < TEXT_CAP; i = text.indexOf(rest, i + 1)) {
      if (Math.abs(i - anchor) <= prefix.length + 1) continue; // the title itself
      if (!brandKey(text.slice(Math.max(0, i - prefix.length - 1), i)).endsWith(brandKey(prefix))) return prefix;
    }
  }
  return undefined;
}

/** A short name: letters, no price, no sentence, no label, no promotion badge. */
function brandShaped(s: string): boolean {
  if (s.length < 2 || s.length > MAX_BRAND || /[:：|€$£¥%]/.test(s) || /\d{3,}/.test(s)) return false;
  if (!/^\p{L}/u.test(s) || s.split(/\s+/).length > 4) return false;
  return !GENERIC_LINE.test(s) && !BADGE_WORD.test(s);
}

// Words of the badges shops print over titles and cards ("New lower price", "More options available", "Exclu Web").
const BADGE_WORD =
  /(?<!\p{L})(?:price|prices|prix|preis|precio|prezzo|preço|cena|offer|offers|deal|deals|promo|promotion|discount|options?|available|exclusive|exclu|limited|only|bestseller|best seller|top seller)(?!\p{L})/iu;

// Lines that sit next to titles on many pages without naming a brand.
const GENERIC_LINE =
  /^(?:home|start|startseite|inicio|início|accueil|new|neu|nouveau|nuevo|novo|sale|outlet|back|zurück|retour|volver|details?|share|teilen|partager|compartir|reviews?|bewertungen|avis|rating|in stock|out of stock|sponsored|gesponsert|kids|women|men|womens|mens|women's|men's|girls|boys|baby|unisex|damen|herren|bestseller|top|offer|angebot|new in|follow|folgen)$/i;

function lineCounts(lines: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of lines.slice(0, 20_000)) {
    const t = line.trim();
    if (t === '' || t.length > MAX_BRAND) continue;
    const k = norm(t);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

function norm(s: string): string {
  return brandKey(s);
}

/**
 * How brands are compared: the page's form is kept for display, but "Levi’s" and "LEVI'S", "Acme Inc." and "Acme
 * Inc" are one brand. Case, typographic apostrophes, runs of spaces and trailing dots do not count.
 */
export function brandKey(s: string): string {
  return s.normalize('NFKC').replace(/[’‘`´]/g, "'").replace(/\s+/g, ' ').trim().replace(/\.+$/, '').trim().toLowerCase();
}

/** Is this brand (in any of its written forms) a whole word of the product title? */
export function titleNamesBrand(title: string, brand: string): boolean {
  const key = brandKey(brand);
  return key.length >= 2 && includesWord(brandKey(title), key);
}

function includesWord(haystack: string, needle: string): boolean {
  const i = haystack.indexOf(needle);
  if (i < 0) return false;
  const before = haystack[i - 1] ?? ' ';
  const after = haystack[i + needle.length] ?? ' ';
  return !/[\p{L}\d]/u.test(before) && !/[\p{L}\d]/u.test(after);
}

/**
 * The brand as a crumb of the breadcrumb trail: a crumb (not the product's own, last one) whose words open the
 * product title ("Home › Tools › Bosch" over "Bosch GSR 12V-15"). A category crumb seldom opens the title word for
 * word, and generic crumbs ("Home", "Sale") never count.
 */
export function brandInBreadcrumbs(crumbs: readonly string[], title: string | null): string | undefined {
  if (!title) return undefined;
  const name = norm(title);
  const trail = crumbs.slice(0, 30).map((c) => c.trim());
  for (let i = trail.length - 1; i >= 0; i--) {
    const crumb = trail[i];
    if (!brandShaped(crumb) || norm(crumb) === name) continue;
    if (name.startsWith(`${norm(crumb)} `)) return crumb;
  }
  return undefined;
}

/**
 * The title's opening words, when the page also links them to a page of their own: a link reading "Gildan" to
 * ".../gildan" or ".../brand-gildan.html" beside the title "Gildan Heavy Cotton Tee". Without such a link the
 * opening words may as well be a product line or a category, so nothing is read.
 */
export function titlePrefixLinked(title: string | null, links: readonly { text: string; url: string | null }[]): string | undefined {
  if (!title) return undefined;
  const words = title.trim().split(/\s+/).slice(0, 4);
  for (let n = Math.min(3, words.length - 1); n >= 1; n--) {
    const prefix = words.slice(0, n).join(' ');
    if (!brandShaped(prefix) || !/^\p{Lu}/u.test(prefix)) continue;
    const key = norm(prefix);
    const slug = slugOf(prefix);
    if (slug === '') continue;
    for (const link of links.slice(0, 3_000)) {
      if (norm(link.text) !== key || !link.url) continue;
      if (lastSegment(link.url).endsWith(slug)) return link.text.trim();
    }
  }
  return undefined;
}

function slugOf(s: string): string {
  return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z\d]+/g, '-').replace(/^-|-$/g, '');
}

function lastSegment(url: string): string {
  let path: string;
  try {
    const u = new URL(url);
    path = u.pathname;
    const q = u.searchParams.get('q') ?? u.searchParams.get('vendor') ?? u.searchParams.get('brand');
    if (q) path = `${path}/${q}`;
  } catch {
    return '';
  }
  const segments = path.split('/').filter((x) => x !== '');
  return slugOf(decodeURIComponentSafe(segments.at(-1) ?? '').replace(/\.[a-z]{2,5}$/i, ''));
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// Technical words titles print in Latin letters in any script, which name no brand.
const TECH_WORD = /^(?:wi-?fi|bluetooth|usb|led|lcd|oled|hdmi|smart|ssd|hdd|gps|android|ios|nfc|type-?c|mini|pro|max|plus|ultra|set|kit)$/i;

/**
 * The brand a title in another script writes in Latin letters ("Набор посуды TalleR TR-1047", "Luminarc набор
 * стаканов"): stores writing Cyrillic, Greek, Hebrew, Arabic or Chinese keep brand names as the brand writes them.
 * The first Latin word that is a name (letters only, not a technical word); none when the title has no other script.
 */
export function latinBrandInTitle(title: string | null): string | undefined {
  if (!title || !/[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Han}\p{Script=Thai}\p{Script=Hangul}]/u.test(title)) return undefined;
  for (const word of title.slice(0, 200).split(/[\s,()«»"]+/)) {
    if (!/^\p{Script=Latin}/u.test(word)) continue;
    if (/^\p{Script=Latin}[\p{Script=Latin}'’&.-]{1,30}$/u.test(word) && !TECH_WORD.test(word) && /\p{Ll}|^\p{Lu}{4,}$/u.test(word)) return word;
    return undefined; // the first Latin word is a code or a technical word: no brand from the title
  }
  return undefined;
}
