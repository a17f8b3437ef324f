// Sitemap reading (sitemaps.org): is a body a <urlset> or a <sitemapindex>, and which <loc> URLs does it list.
// Deliberately not a general XML parser: a single linear pass that never reads a DTD and never expands an entity
// (docs/security.md R4), so billion-laughs and 10⁶-reference bodies cost one scan of the string.
// Caps: the first 50,000 entries; http(s) only; on the store's host; the index depth is enforced by gather.ts.

export const MAX_SITEMAP_ENTRIES = 50_000;
export const MAX_SITEMAP_INDEX_DEPTH = 3;
const MAX_LOC_LENGTH = 2048;

export interface SitemapDoc {
  kind: 'urlset' | 'sitemapindex' | null; // null: not a sitemap (HTML, JSON, another XML root, empty)
  locs: string[]; // <loc> values in document order, entity-decoded, trimmed, raw (not yet filtered)
  truncated: boolean; // more than MAX_SITEMAP_ENTRIES entries
  complete: boolean; // the closing root tag was found (false for a cut-off body)
}

const NOT_A_SITEMAP: SitemapDoc = Object.freeze({ kind: null, locs: [], truncated: false, complete: false }) as SitemapDoc;

/** Reads a sitemap body. Never throws; anything that is not a urlset/sitemapindex gives kind null. */
export function parseSitemap(xml: string): SitemapDoc {
  const root = findRoot(xml);
  if (!root) return NOT_A_SITEMAP;
  const local = localName(root.name);
  if (local !== 'urlset' && local !== 'sitemapindex') return NOT_A_SITEMAP;
  const kind: SitemapDoc['kind'] = local;
  const prefix = root.name.slice(0, root.name.length - local.length); // "" or "sm:" when the root is prefixed
  const entryTag = prefix + (kind === 'urlset' ? 'url' : 'sitemap');
  const locTag = prefix + 'loc';

  const locs: string[] = [];
  let truncated = false;
  let i = root.end;
  let depthInEntry = false;
  // Walk tag by tag: <loc> counts only directly inside <url>/<sitemap> (so <image:loc> and <video:loc> are skipped).
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) break;
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      if (end < 0) break;
      i = end + 3;
      continue;
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt + 9);
      if (end < 0) break;
      i = end + 3;
      continue;
    }
    if (xml.startsWith('<!', lt) || xml.startsWith('<?', lt)) {
      const end = xml.indexOf('>', lt + 2);
      if (end < 0) break;
      i = end + 1;
      continue;
    }
    const gt = xml.indexOf('>', lt + 1);
    if (gt < 0) break;
    const closing = xml.charCodeAt(lt + 1) === 47; /* / */
    const name = tagName(xml, closing ? lt + 2 : lt + 1);
    const selfClosing = xml.charCodeAt(gt - 1) === 47;
    i = gt + 1;
    if (closing) {
      if (name === root.name) return { kind, locs, truncated, complete: true };
      if (name === entryTag) depthInEntry = false;
      continue;
    }
    if (selfClosing) continue;
    if (name === entryTag) {
      depthInEntry = true;
      continue;
    }
    if (name === locTag && depthInEntry) {
      const close = xml.indexOf(`</${locTag}`, i);
      if (close < 0) break;
      if (close - i <= MAX_LOC_LENGTH * 2) {
        const value = decodeText(xml.slice(i, close)).trim();
        if (value.length > 0 && value.length <= MAX_LOC_LENGTH) {
          if (locs.length >= MAX_SITEMAP_ENTRIES) {
            truncated = true;
            return { kind, locs, truncated, complete: false };
          }
          locs.push(value);
        }
      }
      const end = xml.indexOf('>', close);
      i = end < 0 ? xml.length : end + 1;
    }
  }
  return { kind, locs, truncated, complete: false };
}

/** The first element of the document, skipping the XML declaration, comments, processing instructions and any DTD. */
function findRoot(xml: string): { name: string; end: number } | null {
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  const limit = Math.min(xml.length, 1_000_000); // a root hidden behind a megabyte of prologue is not a sitemap
  while (i < limit) {
    const lt = xml.indexOf('<', i);
    if (lt < 0 || lt >= limit) return null;
    if (xml.slice(i, lt).trim() !== '') return null; // text before the root: not XML
    if (xml.startsWith('<?', lt)) {
      const end = xml.indexOf('?>', lt + 2);
      if (end < 0) return null;
      i = end + 2;
    } else if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      if (end < 0) return null;
      i = end + 3;
    } else if (xml.startsWith('<!', lt)) {
      i = skipDoctype(xml, lt);
      if (i < 0) return null;
    } else {
      const gt = xml.indexOf('>', lt + 1);
      if (gt < 0) return null;
      const name = tagName(xml, lt + 1);
      return name ? { name, end: gt + 1 } : null;
    }
  }
  return null;
}

// <!DOCTYPE x [ <!ENTITY …> … ]>: skipped unread. Brackets are counted; quoted strings may contain '>' or ']'.
function skipDoctype(xml: string, start: number): number {
  let depth = 0;
  let quote = 0;
  for (let i = start + 2; i < xml.length; i++) {
    const c = xml.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 91) depth++;
    else if (c === 93) depth--;
    else if (c === 62 && depth <= 0) return i + 1;
  }
  return -1;
}

function tagName(xml: string, from: number): string {
  let end = from;
  while (end < xml.length && end - from < 100) {
    const c = xml.charCodeAt(end);
    if (c === 62 || c === 47 || c === 32 || c === 9 || c === 10 || c === 13) break;
    end++;
  }
  return xml.slice(from, end);
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

// The five predefined entities and character references, plus CDATA sections. Anything a DTD declared stays as
// written: nothing is expanded, so output length ≤ input length.
function decodeText(raw: string): string {
  let s = raw;
  if (s.includes('<![CDATA[')) s = s.replace(/<!\[CDATA\[([^]*?)\]\]>/g, '$1');
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return PREDEFINED[ref] ?? whole;
  });
}

/**
 * The page (or child sitemap) URLs of a sitemap that may be fetched for this store: absolute http(s), on the
 * store's host (a leading "www." is ignored on both sides), without fragments, de-duplicated, order kept.
 * Several store URLs may be given (the URL as typed and where its homepage redirected to).
 */
export function sameHostUrls(locs: readonly string[], ...storeUrls: (URL | string)[]): string[] {
  const hosts = new Set(storeUrls.map((s) => bareHost((typeof s === 'string' ? new URL(s) : s).host)));
  const out: string[] = [];
  const seen = new Set<string>();
  for (const loc of locs) {
    let u: URL;
    try {
      u = new URL(loc);
    } catch {
      continue;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') continue;
    if (u.username || u.password) continue;
    if (!hosts.has(bareHost(u.host))) continue;
    u.hash = '';
    if (seen.has(u.href)) continue;
    seen.add(u.href);
    out.push(u.href);
  }
  return out;
}

function bareHost(host: string): string {
  const h = host.toLowerCase();
  return h.startsWith('www.') ? h.slice(4) : h;
}

/** R10: the child of a sitemap index to read: the first whose URL mentions "product", else the first. */
export function pickChildSitemap(children: readonly string[]): string | null {
  return children.find((c) => /product/i.test(c)) ?? children[0] ?? null;
}
