// Parses a fetched page once (parse5) and collects what an agent reads from it: head metadata, robots directives,
// links, forms and buttons, JSON-LD and the other structured data, and the visible text. One explicit-stack walk,
// no recursion, nothing below DOM depth 512, capped text (docs/security.md R5/R6), so hostile pages stay cheap.
import { parse } from 'parse5';
import type { DefaultTreeAdapterTypes as P5 } from 'parse5';
import type { Entity, FormInfo, JsonLdInfo, LinkInfo, PageFacts } from '../artifacts.js';
import {
  INLINE_ELEMENTS as INLINE,
  MAX_DOM_DEPTH,
  attr,
  collapse,
  domEntities,
  flattenEntities,
  jsonLdEntities,
  listFor,
  parseJsonLenient,
  resolveUrl,
} from './structured-data/index.js';

export const MAX_VISIBLE_TEXT = 200_000;
const MAX_NOSCRIPT_TEXT = 20_000;
const MAX_SHORT_TEXT = 1_000; // anchor, button, heading texts
const MAX_HEADINGS = 20; // h1 elements read per page
const MAX_LIST = 10_000; // links, buttons, metas, forms kept per page
const MAX_TEMPLATE_TOKENS = 100;
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;
const MAX_SCRIPT_HINTS = 10;
const PAGE_TYPE = /["']?(?:page_?type|pagetype)["']?\s{0,5}[:=]\s{0,5}["'][\w -]{1,40}["']/gi;
const MAX_JSON_LD_BLOCKS = 200;

type Element = P5.Element;
type Node = P5.Node;

const HTML_NS = 'http://www.w3.org/1999/xhtml';

// Text inside these is not shown to a reader (or, for noscript, only to one without JavaScript).
const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'svg', 'math', 'title', 'iframe', 'object', 'head']);
const CELL = new Set(['td', 'th']); // cells of a row stay on one line ("Brand  B&S")
const LABEL_WORD_END = /(?:^|[^\p{L}])\p{Lu}\p{Ll}+$/u; // text ending in a capitalised word ("Brand", "Marke")
const INLINE_EDGE = ''; // marks where an inline element opens or closes in the walk (no text of its own)
const SUBMIT_INPUTS = new Set(['submit', 'button', 'image']);

export interface ParseOptions {
  status?: number;
  headers?: Record<string, string>;
  truncated?: boolean;
}

const MAX_PRICE_TEXTS = 30;
const MAX_DATA_CODES = 50;
// data-sku, data-product-sku, data-ean, data-gtin13, data-mpn, data-product-no, data-article-number …
const DATA_CODE_NAME = /^(?:(?:product-|item-|variant-)?(?:sku|ean|ean13|gtin|gtin8|gtin12|gtin13|gtin14|upc|isbn|mpn|article-number|artikelnummer)|(?:product|item)-(?:no|number))$/;
// A class, id or itemprop token naming the price ("price", "product-price", "preis", "prix_ttc"), not an old, unit or
// saving price, nor a label, filter or range around prices.
const PRICE_TOKEN = /^(?:[a-z]{1,20}[-_])?(?:price|prices|preis|prix|precio|prezzo|preco|preço|cena|cijena|hinta|kaina|fiyat|pris|amount)(?:[-_][a-z]{1,20})?$/;
const NOT_SELLING_TOKEN = /old|was|regular|compare|strike|list|before|original|rrp|msrp|uvp|save|saving|unit|per|label|title|filter|range|slider|from|to$|tax|vat|shipping/;

function marksPrice(el: Element): boolean {
  if (/(?:^|\s)price(?:\s|$)/.test(attr(el, 'itemprop') ?? '')) return true;
  const tokens = `${attr(el, 'class') ?? ''} ${attr(el, 'id') ?? ''}`.slice(0, 500).toLowerCase().split(/\s+/);
  return tokens.some((t) => PRICE_TOKEN.test(t) && !NOT_SELLING_TOKEN.test(t));
}

// A class or id token of a block about other items or variants: "related-products", "product-recommendations",
// "upsell", "cross-sells", "swatch", "variant-option" (not the product's own block).
const ASIDE_TOKEN = /^(?:[a-z\d]{1,20}[-_]){0,3}(?:related|recommendations?|recommended|upsells?|up-sells?|cross-?sells?|similar|also-(?:bought|viewed)|swatch(?:es)?|variant-options?|variant-buttons?)(?:[-_][a-z\d]{1,20}){0,3}$/;
const MAX_ASIDE_TEXTS = 50;
const BREADCRUMB = /breadcrumb/i; // class, id or aria-label of a breadcrumb trail ("breadcrumbs", "Breadcrumb")
const MAX_CRUMBS = 30;
const MAX_ASIDE_TEXT = 20_000;
const MAX_ASIDE_TOTAL = 100_000; // all aside texts of a page together, so matching lines against them stays cheap

// A notice the page keeps hidden until a script shows it ("Sold out :(" in a display:none block, a "notify me" dialog):
// not what the page says now. Only short blocks count, so hidden menus do not crowd out the other asides.
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
const DIALOG_TOKEN = /^(?:modal|dialog|popup)$/;
const MAX_HIDDEN_NOTICE = 500;

function marksHiddenNotice(el: Element): boolean {
  if (el.attrs.length === 0) return false;
  if (HIDDEN_STYLE.test((attr(el, 'style') ?? '').slice(0, 500)) || attr(el, 'role') === 'dialog' || attr(el, 'aria-modal') === 'true') return true;
  return `${attr(el, 'class') ?? ''} ${attr(el, 'id') ?? ''}`.slice(0, 500).toLowerCase().split(/\s+/).some((t) => DIALOG_TOKEN.test(t));
}

function marksAside(el: Element, tag: string): boolean {
  if (tag === 'option') return attr(el, 'selected') === null; // a closed select shows only its chosen option
  const tokens = `${attr(el, 'class') ?? ''} ${attr(el, 'id') ?? ''}`.slice(0, 500).toLowerCase().split(/\s+/);
  return tokens.some((t) => ASIDE_TOKEN.test(t));
}

interface Collector {
  parts: string[];
  len: number;
  cap: number;
}

/**
 * Parses the page and extracts PageFacts; never throws on content (a bad URL only disables resolving). `doc` is the
 * page already parsed, for a caller that reads more from the tree (its structure).
 */
export function parsePage(html: string, url: string, opts: ParseOptions = {}, doc: P5.Document = parse(html)): PageFacts {
  const base = baseUrl(doc, url);
  const walker = new Walker(base);
  walker.walk(doc);

  const { info: jsonLd, values } = walker.jsonLd();
  const dom = domEntities(doc, base);
  const tops: Entity[] = [...jsonLdEntities(values), ...dom.microdata, ...dom.rdfa];

  return {
    url,
    status: opts.status ?? 200,
    title: walker.title,
    h1: mainHeading(walker.h1s, walker.title),
    lang: walker.lang,
    metaDescription: metaContent(walker.meta, 'description'),
    robots: [...walker.robots, ...robotsHeader(opts.headers)],
    canonical: walker.canonical,
    meta: walker.meta,
    links: walker.links,
    headLinks: walker.headLinks,
    forms: walker.forms,
    buttons: walker.buttons,
    jsonLd,
    entities: flattenEntities(tops),
    visibleText: walker.visibleText(),
    templateTokens: walker.templateTokens,
    priceTexts: walker.priceTexts,
    asideTexts: walker.asideTexts,
    breadcrumbs: walker.breadcrumbs,
    dataCodes: walker.dataCodes,
    scriptHints: walker.scriptHints,
    noscriptText: collapse(walker.noscript.join(' ')).slice(0, MAX_NOSCRIPT_TEXT),
    scriptCount: walker.scriptCount,
    bodyBytes: Buffer.byteLength(html, 'utf8'),
    truncated: opts.truncated ?? false,
  };
}

/**
 * The page's main heading: its only h1, or of several (shops that make every menu entry or banner an h1) the one that
 * shares the most words with the document title, which names the page; the first when none shares two.
 */
function mainHeading(h1s: readonly string[], title: string | null): string | null {
  if (h1s.length <= 1 || title === null) return h1s[0] ?? null;
  const titleWords = new Set(words(title));
  let best = h1s[0];
  let bestShared = 1;
  for (const h1 of h1s) {
    const shared = new Set(words(h1).filter((w) => titleWords.has(w))).size;
    if (shared > bestShared) [best, bestShared] = [h1, shared];
  }
  return best;
}

function words(s: string): string[] {
  return s.toLowerCase().slice(0, MAX_SHORT_TEXT).split(/[^\p{L}\d]+/u).filter((w) => w.length > 1);
}

/** First non-empty content of a meta key (keys are lower case: "og:title", "description" …). */
export function metaContent(meta: Record<string, string[]>, key: string): string | null {
  for (const v of meta[key.toLowerCase()] ?? []) if (v.trim() !== '') return v.trim();
  return null;
}

/**
 * The contents of <meta name="…"> elements that are children of the document's <head>, as the HTML parser builds it:
 * a tag written in the body (or inside an <svg> there) is not the site's metadata, only text on a page.
 */
export function headMeta(html: string, name: string): string[] {
  const doc = parse(html);
  const htmlEl = doc.childNodes.find((n): n is Element => n.nodeName === 'html');
  const head = htmlEl?.childNodes.find((n): n is Element => n.nodeName === 'head');
  const wanted = name.toLowerCase();
  return (head?.childNodes ?? [])
    .filter((n): n is Element => n.nodeName === 'meta' && (attr(n as Element, 'name') ?? '').trim().toLowerCase() === wanted)
    .map((el) => (attr(el, 'content') ?? '').trim());
}

/** The document URL, or <base href> resolved against it (the base every relative URL on the page uses). */
function baseUrl(doc: P5.Document, url: string): string | null {
  const pageUrl = resolveUrl(url, null);
  const htmlEl = doc.childNodes.find((n): n is Element => n.nodeName === 'html');
  const head = htmlEl?.childNodes.find((n): n is Element => n.nodeName === 'head');
  const baseEl = head?.childNodes.find((n): n is Element => n.nodeName === 'base' && attr(n as Element, 'href') !== null);
  const href = baseEl ? attr(baseEl, 'href') : null;
  if (href !== null) return resolveUrl(href, pageUrl) ?? pageUrl;
  return pageUrl;
}

function robotsTokens(content: string): string[] {
  return content
    .split(',', 500)
    .map((t) => t.trim().toLowerCase().slice(0, 200))
    .filter((t) => t !== '');
}

// Directives that carry a value after a colon; anything else before a colon names a user agent ("googlebot: noindex").
const VALUED_DIRECTIVES = new Set(['max-snippet', 'max-image-preview', 'max-video-preview', 'unavailable_after']);

function robotsHeader(headers: Record<string, string> | undefined): string[] {
  if (!headers) return [];
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'x-robots-tag') continue;
    for (const token of robotsTokens(value)) {
      const m = /^([a-z0-9_.-]{1,40})\s*:\s*(\S.*)$/.exec(token.slice(0, 200));
      out.push(m && !VALUED_DIRECTIVES.has(m[1]) ? m[2] : token);
    }
  }
  return out;
}

class Walker {
  title: string | null = null;
  h1s: string[] = [];
  lang: string | null = null;
  canonical: string | null = null;
  robots: string[] = [];
  meta: Record<string, string[]> = {};
  links: LinkInfo[] = [];
  headLinks: PageFacts['headLinks'] = [];
  forms: FormInfo[] = [];
  buttons: string[] = [];
  noscript: string[] = [];
  templateTokens: string[] = [];
  priceTexts: string[] = [];
  asideTexts: string[] = [];
  breadcrumbs: string[] = [];
  dataCodes: NonNullable<PageFacts['dataCodes']> = [];
  scriptHints: string[] = [];
  scriptCount = 0;

  private readonly ldTexts: string[] = [];
  private readonly visible: string[] = [];
  private visibleLen = 0;
  private readonly open: Collector[] = []; // anchors, buttons and headings whose text is being gathered
  private readonly formStack: FormInfo[] = [];
  private readonly formsById = new Map<string, FormInfo>();
  private metaCount = 0;
  private inlineEdge = false; // an inline element opened or closed since the last text
  private lastVisible = ''; // the last piece of visible text, for the inline edge rule
  private crumbDepth = 0; // open breadcrumb blocks
  private asideDepth = 0;
  private asideLen = 0; // open aside blocks: a nested one is already inside the outer one's text
  private otherItemDepth = 0; // open blocks about other items or variants, whose data codes are not the item's

  constructor(private readonly base: string | null) {}

  // The explicit stack: nodes to enter, separator strings for visibleText, and exit callbacks (run after the
  // children); `info` holds depth * 2 + visible for node entries.
  private readonly work: (Node | string | (() => void))[] = [];
  private readonly info: number[] = [];

  walk(doc: P5.Document): void {
    const { work, info } = this;
    for (let i = doc.childNodes.length - 1; i >= 0; i--) {
      work.push(doc.childNodes[i]);
      info.push(2 + 1);
    }
    while (work.length > 0) {
      const item = work.pop() as Node | string | (() => void);
      const inf = info.pop() as number;
      if (item === INLINE_EDGE) this.inlineEdge = true;
      else if (typeof item === 'string') this.appendVisible(item);
      else if (typeof item === 'function') item();
      else this.enter(item, inf >> 1, (inf & 1) === 1);
    }
  }

  private pushExit(run: () => void): void {
    this.work.push(run);
    this.info.push(0);
  }

  private enter(node: Node, depth: number, visible: boolean): void {
    if (node.nodeName === '#text') {
      if (visible) this.text((node as P5.TextNode).value);
      return;
    }
    if (!('tagName' in node)) return; // comment, doctype
    const el = node as Element;
    const tag = el.tagName;
    const nowVisible = visible && !HIDDEN.has(tag) && el.namespaceURI === HTML_NS && (el.attrs.length === 0 || attr(el, 'hidden') === null);
    this.element(el, tag, nowVisible);
    if (depth >= MAX_DOM_DEPTH) return;
    const sep = !nowVisible ? null : INLINE.has(tag) ? INLINE_EDGE : CELL.has(tag) ? ' ' : '\n';
    const { work, info } = this;
    if (sep !== null) {
      work.push(sep);
      info.push(0);
    }
    const kids = el.childNodes;
    const childInfo = (depth + 1) * 2 + (nowVisible ? 1 : 0);
    for (let i = kids.length - 1; i >= 0; i--) {
      work.push(kids[i]);
      info.push(childInfo);
    }
    if (sep !== null) {
      work.push(sep);
      info.push(0);
    }
  }

  /** Per-element facts; exit work is pushed below the children so it runs after them. */
  private element(el: Element, tag: string, visible: boolean): void {
    if (this.breadcrumbs.length < MAX_CRUMBS && BREADCRUMB.test(`${attr(el, 'class') ?? ''} ${attr(el, 'id') ?? ''} ${attr(el, 'aria-label') ?? ''}`.slice(0, 500))) {
      this.crumbDepth++;
      this.pushExit(() => this.crumbDepth--);
    }
    switch (tag) {
      case 'html':
        this.lang ??= nonEmpty((attr(el, 'lang') ?? attr(el, 'xml:lang'))?.slice(0, 100) ?? null);
        this.template(el);
        return;
      case 'body':
        this.template(el);
        break;
      case 'title':
        if (this.title === null && el.namespaceURI === HTML_NS) this.title = nonEmpty(collapse(childText(el)).slice(0, MAX_SHORT_TEXT));
        return;
      case 'meta':
        this.metaTag(el);
        return;
      case 'link':
        this.linkTag(el);
        return;
      case 'script':
        this.script(el);
        return;
      case 'noscript':
        if (this.noscript.length < MAX_LIST) this.noscript.push(stripTags(childText(el)));
        return;
      case 'br':
        if (visible) this.appendVisible('\n');
        return;
      case 'a':
        // Hidden menus still carry links an agent follows, so anchors count whether shown or not.
        if (el.namespaceURI === HTML_NS) this.anchor(el);
        break;
      case 'h1':
        if (visible && this.h1s.length < MAX_HEADINGS) {
          this.collect((text) => {
            const h1 = nonEmpty(text);
            if (h1 !== null && this.h1s.length < MAX_HEADINGS) this.h1s.push(h1);
          });
        }
        break;
      case 'form':
        this.form(el);
        return;
      case 'input':
      case 'select':
      case 'textarea':
        this.field(el, tag);
        return;
      case 'button':
        this.field(el, tag);
        this.button(el);
        return;
    }
    if (attr(el, 'role') === 'button' && tag !== 'a' && el.namespaceURI === HTML_NS) this.button(el);
    const other = marksAside(el, tag);
    if (other) {
      this.otherItemDepth++;
      this.pushExit(() => this.otherItemDepth--);
    }
    if (this.dataCodes.length < MAX_DATA_CODES) this.codeAttributes(el, this.otherItemDepth > 0, tag === 'option');
    if (visible && this.priceTexts.length < MAX_PRICE_TEXTS && marksPrice(el)) {
      this.collect((text) => {
        if (text !== '' && text.length <= 200) this.priceTexts.push(text);
      });
    }
    const notice = !other && visible && this.asideDepth === 0 && marksHiddenNotice(el);
    if (visible && this.asideDepth === 0 && this.asideTexts.length < MAX_ASIDE_TEXTS && this.asideLen < MAX_ASIDE_TOTAL && (other || notice)) {
      this.asideDepth++;
      this.collect(
        (text) => {
          this.asideDepth--;
          if (text === '' || (notice && text.length > MAX_HIDDEN_NOTICE)) return;
          this.asideTexts.push(text);
          this.asideLen += text.length;
        },
        notice ? MAX_HIDDEN_NOTICE + 1 : MAX_ASIDE_TEXT,
      );
    }
  }

  private text(value: string): void {
    // Bidi marks and zero-width characters are invisible: "ASIN \u200f : \u200e B07…" reads as "ASIN : B07…".
    let t = value.replace(INVISIBLE, '').replace(/\s+/g, ' ');
    if (t === '' || t === ' ') {
      if (t === ' ') this.appendVisible(' ');
      return;
    }
    // Label and value in neighbouring inline elements ("<span>Brand</span><span>Fruit of the Loom</span>",
    // "<span>EAN-Nummer</span><span>4022664223553</span>") are two words to a reader of the laid-out page: a
    // capitalised word, then another or a number. A word that only changes style inside ("i<b>Phone</b>", "<b>e</b>Bay")
    // stays one.
    if (this.inlineEdge && LABEL_WORD_END.test(this.lastVisible) && /^(?:\p{Lu}\p{Ll}|\d)/u.test(t)) t = ` ${t}`;
    // Digits after digits in the next inline element: two cents printed apart ("173<sup>34</sup>") are the amount's
    // decimals; any other number is a number of its own ("$400<span>5 bids</span>", "Rs 635,000<span>2010</span>").
    else if (this.inlineEdge && /\d$/.test(this.lastVisible) && /^\d/.test(t)) t = /^\d{2}$/.test(t) ? `${decimalMark(this.lastVisible)}${t}` : ` ${t}`;
    this.inlineEdge = false;
    this.appendVisible(t);
    for (const c of this.open) {
      if (c.len < c.cap) {
        c.parts.push(t);
        c.len += t.length;
      }
    }
  }

  private appendVisible(t: string): void {
    // Collapsing only shrinks text, so a little headroom over the cap is enough.
    if (this.visibleLen > MAX_VISIBLE_TEXT * 1.2) return;
    this.visible.push(t);
    this.visibleLen += t.length;
    if (t !== '') this.lastVisible = t;
  }

  visibleText(): string {
    return this.visible
      .join('')
      .replace(/ {2,}/g, ' ')
      .replace(/ ?\n\s*/g, '\n')
      .trim()
      .slice(0, MAX_VISIBLE_TEXT);
  }

  /** Gathers the visible text of el's subtree and hands it over when the element closes. */
  private collect(done: (text: string) => void, cap = MAX_SHORT_TEXT): void {
    const c: Collector = { parts: [], len: 0, cap };
    this.open.push(c);
    this.pushExit(() => {
      this.open.splice(this.open.lastIndexOf(c), 1);
      done(collapse(c.parts.join('')).slice(0, c.cap));
    });
  }

  private anchor(el: Element): void {
    const href = attr(el, 'href');
    if (href === null || this.links.length >= MAX_LIST) return;
    const link: LinkInfo = { href, url: httpUrl(href, this.base), text: '', rel: relTokens(attr(el, 'rel')) };
    this.links.push(link);
    const crumb = this.crumbDepth > 0;
    this.collect((text) => {
      link.text = text || collapse(attr(el, 'aria-label') ?? attr(el, 'title') ?? '');
      if (crumb && link.text !== '' && this.breadcrumbs.length < MAX_CRUMBS) this.breadcrumbs.push(link.text);
    });
  }

  private button(el: Element): void {
    const form = this.currentForm(el);
    this.collect((text) => {
      const label = text || collapse(attr(el, 'aria-label') ?? attr(el, 'title') ?? attr(el, 'value') ?? '');
      this.addButton(label, form);
    });
  }

  private addButton(label: string, form: FormInfo | null): void {
    if (label === '') return;
    if (this.buttons.length < MAX_LIST) this.buttons.push(label);
    if (form && form.buttons.length < MAX_LIST) form.buttons.push(label);
  }

  private form(el: Element): void {
    if (this.forms.length >= MAX_LIST) return;
    const action = attr(el, 'action');
    const form: FormInfo = {
      action: action === null ? null : resolveUrl(action, this.base),
      method: (attr(el, 'method') ?? '').trim().toLowerCase() === 'post' ? 'post' : 'get',
      inputs: [],
      buttons: [],
    };
    this.forms.push(form);
    const id = attr(el, 'id');
    if (id) this.formsById.set(id, form);
    this.formStack.push(form);
    this.pushExit(() => void this.formStack.pop());
  }

  /** The form a control belongs to: its form="id" owner, else the enclosing form. */
  private currentForm(el: Element): FormInfo | null {
    const owner = attr(el, 'form');
    if (owner !== null) return this.formsById.get(owner) ?? null;
    return this.formStack[this.formStack.length - 1] ?? null;
  }

  /** Product codes shops put in data attributes of the product block and its buy button (data-sku, data-ean). */
  private codeAttributes(el: Element, aside: boolean, variant: boolean): void {
    for (const a of el.attrs) {
      if (!a.name.startsWith('data-') || this.dataCodes.length >= MAX_DATA_CODES) continue;
      const name = a.name.slice(5);
      const value = a.value.trim();
      if (DATA_CODE_NAME.test(name) && value !== '' && value.length <= 40) this.dataCodes.push({ name, value, ...(aside ? { aside } : {}), ...(variant ? { variant } : {}) });
    }
  }

  private field(el: Element, tag: string): void {
    const form = this.currentForm(el);
    const type = tag === 'input' ? (attr(el, 'type') ?? 'text').trim().toLowerCase() : tag === 'button' ? (attr(el, 'type') ?? 'submit').trim().toLowerCase() : tag;
    const name = attr(el, 'name');
    if (form && name !== null && name !== '' && form.inputs.length < MAX_LIST) {
      form.inputs.push({ name, type, value: attr(el, 'value') ?? '' });
    }
    if (tag === 'input' && SUBMIT_INPUTS.has(type)) {
      const label = collapse((type === 'image' ? attr(el, 'alt') : null) ?? attr(el, 'value') ?? attr(el, 'aria-label') ?? '');
      this.addButton(label, form);
    }
  }

  private metaTag(el: Element): void {
    const content = attr(el, 'content');
    if (content === null || this.metaCount >= MAX_LIST) return;
    const keys = new Set<string>();
    for (const k of [attr(el, 'property'), attr(el, 'name')]) if (k !== null && k.trim() !== '') keys.add(k.trim().toLowerCase());
    for (const key of keys) {
      this.metaCount++;
      listFor(this.meta, key).push(content);
      if (key === 'robots' || key === 'googlebot') this.robots.push(...robotsTokens(content));
    }
  }

  private linkTag(el: Element): void {
    const href = attr(el, 'href');
    if (href === null || this.headLinks.length >= MAX_LIST) return;
    const rel = relTokens(attr(el, 'rel'));
    this.headLinks.push({ rel, href: resolveUrl(href, this.base) ?? href, type: attr(el, 'type') });
    if (this.canonical === null && rel.includes('canonical')) this.canonical = resolveUrl(href, this.base);
  }

  private script(el: Element): void {
    this.scriptCount++;
    const type = (attr(el, 'type') ?? '').split(';')[0].trim().toLowerCase();
    if (type === 'application/ld+json' && this.ldTexts.length < MAX_JSON_LD_BLOCKS) this.ldTexts.push(childText(el));
    else if (this.scriptHints.length < MAX_SCRIPT_HINTS && !attr(el, 'src')) {
      // Shop platforms tell their own scripts which template is showing: "pageType":"product", page_type: 'product'.
      for (const m of childText(el).slice(0, 200_000).matchAll(PAGE_TYPE)) {
        if (this.scriptHints.length < MAX_SCRIPT_HINTS) this.scriptHints.push(m[0]);
      }
    }
  }

  /** id and class tokens of <html> and <body>: template names such as single-product or catalog-product-view. */
  private template(el: Element): void {
    const raw = `${attr(el, 'id') ?? ''} ${attr(el, 'class') ?? ''}`.slice(0, 2_000).toLowerCase();
    for (const token of raw.split(/\s+/)) {
      if (token !== '' && this.templateTokens.length < MAX_TEMPLATE_TOKENS) this.templateTokens.push(token);
    }
  }

  jsonLd(): { info: JsonLdInfo; values: unknown[] } {
    const info: JsonLdInfo = { blocks: this.ldTexts.length, invalidBlocks: 0, raw: [], errors: [] };
    this.ldTexts.forEach((text, i) => {
      const parsed = parseJsonLenient(text);
      if (!parsed.ok) {
        info.invalidBlocks++;
        info.errors.push(`block ${i + 1}: invalid JSON (${parsed.error})`);
        return;
      }
      info.raw.push(parsed.value);
      if (parsed.repairs.length > 0) info.errors.push(`block ${i + 1}: not strict JSON, repaired (${parsed.repairs.join(', ')})`);
      if (parsed.truncated) info.errors.push(`block ${i + 1}: nested deeper than 64 levels, truncated`);
    });
    return { info, values: info.raw };
  }
}

/** The decimal mark an amount ending the text takes: a comma after dot-grouped thousands ("1.299"), else a dot. */
function decimalMark(before: string): string {
  const amount = /[\d.,]{1,30}$/.exec(before.slice(-30))?.[0] ?? '';
  return amount.includes('.') && !amount.includes(',') ? ',' : '.';
}

function childText(el: Element): string {
  let s = '';
  for (const c of el.childNodes) if (c.nodeName === '#text') s += (c as P5.TextNode).value;
  return s;
}

// With scripting on (as in browsers) <noscript> content is raw markup; an agent without JS sees its text.
function stripTags(markup: string): string {
  return collapse(markup.slice(0, MAX_NOSCRIPT_TEXT * 5).replace(/<[^>]*>/g, ' '));
}

function nonEmpty(s: string | null): string | null {
  const t = s?.trim() ?? '';
  return t === '' ? null : t;
}

function relTokens(rel: string | null): string[] {
  if (rel === null) return [];
  return rel.slice(0, 500).toLowerCase().split(/\s+/).filter((t) => t !== '');
}

/** Absolute http(s) URL of an href, or null for javascript:, mailto:, tel:, data: and unparseable values. */
function httpUrl(href: string, base: string | null): string | null {
  const abs = resolveUrl(href, base);
  if (abs === null) return null;
  return abs.startsWith('http://') || abs.startsWith('https://') ? abs : null;
}
