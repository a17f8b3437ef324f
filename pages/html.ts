// HTML building blocks for the server-rendered pages: an auto-escaping `html` template tag, http(s)-only hrefs,
// the shared layout, the page headers (strict CSP, no script anywhere) and a tiny renderer for fix how-to texts.
// Store data is never trusted: every interpolation is escaped unless it is already SafeHtml built here.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Response } from 'express';

/** Markup that was produced by this module (escaped or constant); the only thing `html` passes through. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | Interpolation[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes & < > " ' so a value is safe in element text and in a quoted attribute (OWASP rule 1 and 2). */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false || value === true) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(value);
}

/** Template tag: literal parts are markup, every interpolated value is escaped (arrays are concatenated). */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Trusted constant markup (never store data). */
export const raw = (markup: string): SafeHtml => new SafeHtml(markup);

/**
 * An absolute http(s) URL, normalised by the URL parser, or null. `javascript:`, `data:`, `JaVaScRiPt:`, relative
 * and protocol-relative values are refused, so a store URL is printed as text instead of becoming a link.
 */
export function safeHref(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null;
  const trimmed = value.trim();
  if (!/^https?:\/\//i.test(trimmed)) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.href;
}

/** A link to a store-controlled URL when it is http(s), else the URL as plain text. */
export function externalLink(url: unknown, text?: Interpolation): SafeHtml {
  const href = safeHref(url);
  const label = text ?? String(url ?? '');
  if (href === null) return html`<span class="unsafe-url" title="Not shown as a link: not an http(s) URL">${label}</span>`;
  return html`<a href="${href}" rel="noopener noreferrer nofollow ugc">${label}</a>`;
}

/**
 * The markdown-ish fix texts: `code`, **bold**, blank-line paragraphs and "- " bullet lists. Everything else is
 * escaped text; no links and no raw HTML, whatever the text holds.
 */
export function renderHowTo(text: string): SafeHtml {
  const blocks = String(text ?? '')
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((b) => b.trim())
    .filter(Boolean);
  return new SafeHtml(
    blocks
      .map((block) => {
        const lines = block.split('\n');
        if (lines.every((l) => /^\s*[-*] /.test(l))) {
          return `<ul>${lines.map((l) => `<li>${inline(l.replace(/^\s*[-*] /, ''))}</li>`).join('')}</ul>`;
        }
        return `<p>${lines.map(inline).join('<br>')}</p>`;
      })
      .join(''),
  );
}

/** One line of our own texts (a check's why, its finding) with its `code` spans and **bold** rendered, escaped. */
export function inlineMarkdown(text: string): SafeHtml {
  return new SafeHtml(inline(String(text ?? '')));
}

function inline(text: string): string {
  // Odd segments of a backtick split are code spans; an unpaired trailing backtick stays literal.
  const parts = text.split('`');
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const isCode = i % 2 === 1 && i < parts.length - 1;
    if (isCode) out += `<code>${escapeHtml(parts[i])}</code>`;
    else out += (i % 2 === 1 ? '`' : '') + bold(parts[i]);
  }
  return out;
}

function bold(text: string): string {
  const parts = text.split('**');
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const isBold = i % 2 === 1 && i < parts.length - 1;
    if (isBold) out += `<strong>${escapeHtml(parts[i])}</strong>`;
    else out += (i % 2 === 1 ? '**' : '') + escapeHtml(parts[i]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Headers

/** docs/security.md "Output safety": the exact policy of /r/{id}; pages with a form allow posting to ourselves only. */
// connect-src 'self' lets a page (and audit tools run on it) read this origin's own documents, such as robots.txt.
export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
export const FORM_PAGE_CSP = PAGE_CSP.replace("form-action 'none'", "form-action 'self'");
/** A page that loads one of our own scripts (never inline): scan progress, copy buttons. */
const withScript = (csp: string): string => csp.replace("default-src 'none';", "default-src 'none'; script-src 'self';");

export interface SendOptions {
  status?: number;
  /** The page holds a form that posts to this origin (home page). */
  form?: boolean;
  /** The page loads a script from this origin. */
  script?: boolean;
  cacheControl?: string;
  headers?: Record<string, string>;
}

export function sendPage(res: Response, page: SafeHtml, opts: SendOptions = {}): void {
  res.status(opts.status ?? 200);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  const csp = opts.form ? FORM_PAGE_CSP : PAGE_CSP;
  res.setHeader('Content-Security-Policy', opts.script ? withScript(csp) : csp);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', opts.cacheControl ?? 'no-cache');
  for (const [name, value] of Object.entries(opts.headers ?? {})) setPageHeader(res, name, value);
  res.send(page.value);
}

// ---------------------------------------------------------------------------------------------------------------
// Static assets: one stylesheet, one icon. Read once; the URL carries a content hash so a year of caching is safe.

const STYLES = readFileSync(new URL('../public/styles.css', import.meta.url));
export const STYLES_CSS = STYLES;
export const STYLES_VERSION = createHash('sha256').update(STYLES).digest('hex').slice(0, 12);
export const STYLES_PATH = '/assets/styles.css';

/** The home page's script: disables the scan button and counts the seconds while a scan runs. */
export const SCAN_SCRIPT = readFileSync(new URL('../public/scan.js', import.meta.url));
export const SCAN_SCRIPT_PATH = '/assets/scan.js';
export const SCAN_SCRIPT_VERSION = createHash('sha256').update(SCAN_SCRIPT).digest('hex').slice(0, 12);

export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#111827"/>' +
  '<circle cx="16" cy="16" r="9" fill="none" stroke="#374151" stroke-width="4"/>' +
  '<path d="M16 7a9 9 0 0 1 8.5 12" fill="none" stroke="#22c55e" stroke-width="4" stroke-linecap="round"/></svg>';

// ---------------------------------------------------------------------------------------------------------------
// Layout

export const PRODUCT_NAME = 'Store Readiness';

export interface LayoutOptions {
  title: string;
  description?: string;
  /** Open Graph tags (absolute URLs). */
  og?: { title: string; description: string; url: string; image?: string; card?: { png: string; width: number; height: number; alt: string } };
  canonical?: string;
  /** Extra <link> alternates, e.g. the JSON of a report. */
  alternates?: { type: string; href: string }[];
  /** Marks the current item of the header navigation. */
  nav?: 'home' | 'index' | null;
  bodyClass?: string;
}

export function layout(opts: LayoutOptions, body: SafeHtml): SafeHtml {
  const og = opts.og;
  const navLink = (key: LayoutOptions['nav'], href: string, label: string) =>
    html`<a href="${href}"${opts.nav === key ? raw(' aria-current="page"') : ''}>${label}</a>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title}</title>
${opts.description ? html`<meta name="description" content="${opts.description}">` : ''}
<meta name="color-scheme" content="light">
<meta name="referrer" content="no-referrer">
${opts.canonical ? html`<link rel="canonical" href="${opts.canonical}">` : ''}
${(opts.alternates ?? []).map((a) => html`<link rel="alternate" type="${a.type}" href="${a.href}">`)}
${og
  ? html`<meta property="og:type" content="website">
<meta property="og:site_name" content="${PRODUCT_NAME}">
<meta property="og:title" content="${og.title}">
<meta property="og:description" content="${og.description}">
<meta property="og:url" content="${og.url}">
${og.card
  ? html`<meta property="og:image" content="${og.card.png}">
<meta property="og:image:type" content="image/png">
<meta property="og:image:width" content="${og.card.width}">
<meta property="og:image:height" content="${og.card.height}">
<meta property="og:image:alt" content="${og.card.alt}">
<meta name="twitter:image" content="${og.card.png}">`
  : og.image ? html`<meta property="og:image" content="${og.image}">
<meta property="og:image:type" content="image/svg+xml">` : ''}
<meta name="twitter:card" content="${og.card ? 'summary_large_image' : 'summary'}">
<meta name="twitter:title" content="${og.title}">
<meta name="twitter:description" content="${og.description}">`
  : ''}
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${STYLES_PATH}?v=${STYLES_VERSION}">
</head>
<body${opts.bodyClass ? html` class="${opts.bodyClass}"` : ''}>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
  <div class="wrap header-inner">
    <a class="brand" href="/"><span class="brand-mark" aria-hidden="true"></span>${PRODUCT_NAME}</a>
    <nav class="site-nav" aria-label="Main">
      ${navLink('home', '/', 'Scan a store')}
      ${navLink('index', '/index', 'Readiness index')}
      <a href="/api/v1">API</a>
      <a href="/console">Console</a>
    </nav>
  </div>
</header>
<main class="wrap" id="main" tabindex="-1">
${body}
</main>
<footer class="site-footer">
  <div class="wrap footer-inner">
    <p><strong>${PRODUCT_NAME}</strong>: Lighthouse for agentic commerce. Can an AI shopping agent find, understand and buy at your store?</p>
    <nav aria-label="Developers">
      <a href="/api/v1">REST API</a>
      <a href="/openapi.json">OpenAPI</a>
      <a href="/mcp">MCP server</a>
      <a href="/llms.txt">llms.txt</a>
      <a href="/auth.md">API keys</a>
      <a href="/.well-known/mcp/server-card.json">Server card</a>
      <a href="/bot">Our scanner</a>
    </nav>
  </div>
</footer>
</body>
</html>
`;
}

// ---------------------------------------------------------------------------------------------------------------
// Small shared pieces

export type GradeLetter = 'A' | 'B' | 'C' | 'D' | 'E';
const GRADES: readonly string[] = ['A', 'B', 'C', 'D', 'E'];

const VERTICAL_LABELS: Record<string, string> = {
  home_garden: 'Home & garden',
  food_beverage: 'Food & beverage',
  sports_outdoors: 'Sports & outdoors',
  toys_games: 'Toys & games',
  jewelry_accessories: 'Jewelry & accessories',
  books_media: 'Books & media',
};

/** "sports_outdoors" → "Sports & outdoors"; any other id is capitalised with spaces. */
export function verticalLabel(id: string): string {
  const known = VERTICAL_LABELS[id];
  if (known) return known;
  const words = String(id).replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "1 minute", "5 minutes": a count with its noun in the right number (regular plurals only). */
export const plural = (n: number, noun: string): string => `${n} ${n === 1 ? noun : `${noun}s`}`;

/** A grade letter we can put in a class name; anything else is shown as "?" in the neutral colour. */
export const gradeClass = (grade: unknown): string => (GRADES.includes(String(grade)) ? `grade-${grade}` : 'grade-none');

/** docs/checks.md §6: what each grade means, in the merchant's words. */
export const GRADE_MEANING: Record<GradeLetter, string> = {
  A: 'Agents can find, understand and buy at this store; at most polish is left.',
  B: 'Solid: agents can shop here, with a few gaps (often agent protocols or policies).',
  C: 'Agents can read the products but miss policies, identifiers or a way to buy.',
  D: 'Partly legible to agents; important product data or discovery is missing.',
  E: 'AI shopping agents cannot reliably use this store yet.',
};

export const gradeMeaning = (grade: unknown): string => GRADE_MEANING[grade as GradeLetter] ?? '';

export function gradePill(grade: unknown, extraClass = ''): SafeHtml {
  const letter = GRADES.includes(String(grade)) ? String(grade) : '?';
  return html`<span class="grade-pill ${gradeClass(grade)}${extraClass ? ` ${extraClass}` : ''}">${letter}</span>`;
}

/** "2026-11-02 14:03 UTC" inside a <time>; an unparseable value is shown as given. */
export function formatTime(value: unknown): SafeHtml {
  const d = new Date(String(value ?? ''));
  if (Number.isNaN(d.getTime())) return html`${String(value ?? '')}`;
  const iso = d.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
}

export const formatDate = (d: Date): SafeHtml => {
  if (Number.isNaN(d.getTime())) return html``;
  const iso = d.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 10)}</time>`;
};

/** A horizontal bar drawn as SVG attributes (the CSP forbids style=; presentation attributes are fine). */
export function bar(value: number, max: number, cls: string, label?: string): SafeHtml {
  const pct = max > 0 ? Math.max(0, Math.min(100, (value / max) * 100)) : 0;
  return html`<svg class="bar ${cls}" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="${label ?? `${value} of ${max}`}"><rect class="bar-track" width="100" height="10" rx="5"/><rect class="bar-fill" width="${pct.toFixed(1)}" height="10" rx="5"/></svg>`;
}

/** A pillar's colour band, by share of its points. */
export const ratioClass = (value: number, max: number): string => {
  const r = max > 0 ? value / max : 0;
  return r >= 0.85 ? 'ratio-high' : r >= 0.55 ? 'ratio-mid' : r >= 0.3 ? 'ratio-low' : 'ratio-bad';
};

/** The HTML error / not-found page shared by the page routes. */
export function messagePage(opts: { title: string; heading: string; body: SafeHtml; nav?: LayoutOptions['nav'] }): SafeHtml {
  return layout(
    { title: `${opts.title} · ${PRODUCT_NAME}`, nav: opts.nav ?? null },
    html`<section class="card message-card">
  <h1>${opts.heading}</h1>
  ${opts.body}
</section>`,
  );
}

/** A page's own header; Vary is added to, never replaced, since the answer may vary by Accept-Encoding as well. */
export function setPageHeader(res: Response, name: string, value: string): void {
  if (name.toLowerCase() === 'vary') res.vary(value);
  else res.setHeader(name, value);
}
