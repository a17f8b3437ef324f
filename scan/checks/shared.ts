// Small helpers shared by the check files: the sampled product pages and their aggregation (checks.md §2), evidence
// formatting, entity lookups, challenge markers, page-text lookups and the protocol-document readers (UCP, ACP, server
// card). Pure functions over Artifacts; registry.ts only loads the sub-folders, so this file is never a check.
import type { Artifacts, Entity, EntityValue, HttpResponse, LinkInfo, PageFacts, ProductFacts, Resource } from '../artifacts.js';
import type { CheckOutcome, CheckStatus } from '../check.js';

// ---------------------------------------------------------------------------------------------------------------
// Evidence

export const NO_PRODUCT_PAGE = 'no product page found';
/** Evidence of a check that threw; score.ts never caps on it (our bug is not the store's block). */
export const INTERNAL_ERROR_EVIDENCE = 'The check could not evaluate this store (internal error).';
export const SNIPPET_MAX = 160;

/** One line, at most `max` characters, for quoting a header or a piece of a page in evidence. */
export function snippet(text: string | null | undefined, max = SNIPPET_MAX): string {
  if (!text) return '';
  const flat = text.slice(0, max * 4).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function quote(text: string | null | undefined, max = SNIPPET_MAX): string {
  return `"${snippet(text, max)}"`;
}

export function resourceUrl(r: Resource): string {
  return r.ok ? r.res.url : (r.res?.url ?? r.url);
}

export function responseOf(r: Resource | null | undefined): HttpResponse | null {
  if (!r) return null;
  return r.ok ? r.res : (r.res ?? null);
}

export function statusOf(r: Resource | null | undefined): number | null {
  return responseOf(r)?.status ?? null;
}

export function is2xx(status: number | null | undefined): boolean {
  return typeof status === 'number' && status >= 200 && status < 300;
}

/** "https://shop.example/llms.txt → 200 text/plain" or "… → timeout (5 s)". */
export function describe(r: Resource): string {
  const res = responseOf(r);
  if (res) return `${res.url} → ${res.status}${res.contentType ? ` ${res.contentType}` : ''}`;
  if (r.ok) return r.res.url;
  const detail = r.detail && r.detail !== r.reason ? ` (${snippet(r.detail, 80)})` : '';
  return `${r.url} → ${r.reason === 'not-fetched' ? 'not fetched' : r.reason}${detail}`;
}

export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

export function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

const SECOND_LEVEL = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'ne', 'or', 'gob', 'nom', 'ltd', 'plc']);

/** The registrable domain without a public-suffix list: two labels, three under ccTLD second levels (co.uk). */
export function registrableDomain(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (/^[\d.]+$/.test(h) || h.includes(':')) return h;
  const labels = h.split('.');
  if (labels.length <= 2) return h;
  const tld = labels[labels.length - 1];
  const sld = labels[labels.length - 2];
  const take = tld.length === 2 && SECOND_LEVEL.has(sld) ? 3 : 2;
  return labels.slice(-take).join('.');
}

/** A header value for evidence, or "" when absent. */
export function header(res: HttpResponse | null, name: string): string {
  return res?.headers[name.toLowerCase()] ?? '';
}

// ---------------------------------------------------------------------------------------------------------------
// Product pages and aggregation (checks.md §2 "Product checks aggregate over the sampled PDPs")

export interface SampledPdp {
  url: string;
  page: PageFacts | null;
  product: ProductFacts | null;
  resource: Resource;
}

/** The sampled product pages that were received and parsed. */
export function sampledPdps(a: Artifacts): SampledPdp[] {
  return a.pdps
    .filter((p) => p.page !== null || p.product !== null)
    .map((p) => ({
      url: p.page?.url ?? p.product?.url ?? resourceUrl(p.resource),
      page: p.page,
      product: p.product,
      resource: p.resource,
    }));
}

export interface PdpVerdict {
  status: CheckStatus;
  evidence: string;
}

/**
 * pass if every sampled PDP passes, partial if at least one passes or any is partial, fail otherwise; with no PDP,
 * fail with "no product page found". Checks without a partial grade (partialPoints 0) turn partial into fail.
 */
export function aggregatePdps(
  a: Artifacts,
  judge: (pdp: SampledPdp) => PdpVerdict,
  opts: { partial?: boolean } = {},
): CheckOutcome {
  const pdps = sampledPdps(a);
  if (pdps.length === 0) return { status: 'fail', evidence: noPdpEvidence(a) };
  const verdicts = pdps.map((p) => ({ p, v: judge(p) }));
  let status: CheckStatus;
  if (verdicts.every(({ v }) => v.status === 'pass')) status = 'pass';
  else if (verdicts.some(({ v }) => v.status !== 'fail')) status = 'partial';
  else status = 'fail';
  if (status === 'partial' && opts.partial === false) status = 'fail';
  const evidence = verdicts.map(({ p, v }) => `${p.url}: ${v.evidence}`).join('; ');
  return { status, evidence };
}

/** "no product page found", with what was tried so a merchant can see why. */
export function noPdpEvidence(a: Artifacts): string {
  const tried = a.pdps.map((p) => describe(p.resource));
  return tried.length > 0 ? `${NO_PRODUCT_PAGE} (tried ${tried.slice(0, 3).join(', ')})` : NO_PRODUCT_PAGE;
}

/** Values read from structured markup (not from OpenGraph, other meta tags or visible HTML). */
export const STRUCTURED: ReadonlySet<string> = new Set(['json-ld', 'microdata', 'rdfa']);

/** Home page plus sampled PDP pages, for site-wide signals (links, texts, entities). */
export function sitePages(a: Artifacts): PageFacts[] {
  const pages: PageFacts[] = [];
  if (a.homePage) pages.push(a.homePage);
  for (const p of a.pdps) if (p.page && p.page !== a.homePage) pages.push(p.page);
  return pages;
}

/** Raw HTML bodies of the home page and sampled PDPs (capped), for markers that are not visible text. */
export function siteBodies(a: Artifacts, cap = 2_000_000): string[] {
  const out: string[] = [];
  const home = responseOf(a.home);
  if (home && is2xx(home.status)) out.push(home.body.slice(0, cap));
  for (const p of a.pdps) {
    const res = responseOf(p.resource);
    if (res && is2xx(res.status) && res !== home) out.push(res.body.slice(0, cap));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Entities

export function hasType(e: Entity, types: readonly string[]): boolean {
  return e.types.some((t) => types.some((x) => x.toLowerCase() === t.toLowerCase()));
}

export function entitiesOf(entities: readonly Entity[], types: readonly string[]): Entity[] {
  return entities.filter((e) => hasType(e, types));
}

export function props(e: Entity, name: string): EntityValue[] {
  return e.props[name] ?? [];
}

/** First non-empty string value of a property (an entity's `name`, `url` or `@id` when the value is a node). */
export function propText(e: Entity, name: string): string | null {
  for (const v of props(e, name)) {
    if (typeof v === 'string') {
      if (v.trim() !== '') return v.trim();
    } else {
      const inner = propText(v, 'name') ?? propText(v, 'url') ?? propText(v, 'value');
      if (inner) return inner;
    }
  }
  return null;
}

export function propEntities(e: Entity, name: string): Entity[] {
  return props(e, name).filter((v): v is Entity => typeof v !== 'string');
}

export function hasProp(e: Entity, name: string): boolean {
  return props(e, name).some((v) => (typeof v === 'string' ? v.trim() !== '' : true));
}

/** Every entity on the home page and the sampled PDPs. */
export function siteEntities(a: Artifacts): Entity[] {
  return sitePages(a).flatMap((p) => p.entities);
}

// ---------------------------------------------------------------------------------------------------------------
// Bot walls (checks.md §5: challenge markers, differential evidence)

const STRONG_MARKERS: [string, string][] = [
  ['<title>just a moment', 'Cloudflare "Just a moment" challenge'],
  ['cf-chl-', 'Cloudflare challenge script'],
  ['challenge-platform', 'Cloudflare challenge platform'],
  ['<title>attention required! | cloudflare', 'Cloudflare block page'],
  ['captcha-delivery.com', 'DataDome captcha'],
  ['px-captcha', 'PerimeterX captcha'],
  ['_pxcaptcha', 'PerimeterX captcha'],
  ['_incapsula_resource', 'Imperva/Incapsula challenge'],
  ['<title>access denied</title>', 'Access denied page'],
];
// Weak markers appear on ordinary pages too (reCAPTCHA on a newsletter form), so they count only on error answers.
const WEAK_MARKERS: [string, string][] = [
  ['captcha', 'captcha'],
  ['turnstile', 'Cloudflare Turnstile'],
  ['datadome', 'DataDome'],
  ['perimeterx', 'PerimeterX'],
  ['just a moment', '"Just a moment"'],
  ['are you a robot', '"Are you a robot"'],
  ['verify you are human', '"Verify you are human"'],
];

/** Why this response is a bot challenge, or null. `baseline` = the neutral answer, whose markers do not count. */
export function challengeMarker(res: HttpResponse | null, baseline?: HttpResponse | null): string | null {
  if (!res) return null;
  if ((res.headers['cf-mitigated'] ?? '').toLowerCase().includes('challenge')) return 'cf-mitigated: challenge';
  const body = res.body.slice(0, 65_536).toLowerCase();
  const base = baseline ? baseline.body.slice(0, 65_536).toLowerCase() : '';
  for (const [needle, name] of STRONG_MARKERS) if (body.includes(needle) && !base.includes(needle)) return name;
  if (!is2xx(res.status)) {
    for (const [needle, name] of WEAK_MARKERS) if (body.includes(needle) && !base.includes(needle)) return name;
  }
  return null;
}

/** The page title read straight from a body (for blocked answers that were not parsed). */
export function titleOf(res: HttpResponse | null): string | null {
  if (!res) return null;
  const head = res.body.slice(0, 65_536);
  const lower = head.toLowerCase();
  const open = lower.indexOf('<title');
  if (open < 0) return null;
  const start = lower.indexOf('>', open);
  const end = lower.indexOf('</title', start);
  if (start < 0 || end < 0) return null;
  const t = head.slice(start + 1, end).replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}

/** Status, server, cf-mitigated and title: what checks.md §5 asks the bot-wall evidence to show. */
export function blockEvidence(res: HttpResponse | null): string {
  if (!res) return '';
  const parts = [`${res.status}`];
  const server = header(res, 'server');
  if (server) parts.push(`server: ${snippet(server, 40)}`);
  const cf = header(res, 'cf-mitigated');
  if (cf) parts.push(`cf-mitigated: ${snippet(cf, 40)}`);
  const title = titleOf(res);
  if (title) parts.push(`title ${quote(title, 80)}`);
  return parts.join(', ');
}

// ---------------------------------------------------------------------------------------------------------------
// Page text (prices are read by scan/price.ts, stock by scan/availability.ts)

/** Whitespace-collapsed lower case, for comparing names with page text. */
export function normText(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Where the product name first appears in a normalised text, or -1. Only the first 40 characters are compared:
 * pages often show the name without the variant suffix the markup adds ("… - Murum black").
 */
export function nameIndex(normalisedText: string, names: readonly (string | null | undefined)[]): { name: string; at: number } | null {
  for (const n of names) {
    if (typeof n !== 'string') continue;
    const key = normText(n).slice(0, 40).trim();
    if (key.length < 2) continue;
    const at = normalisedText.indexOf(key);
    if (at >= 0) return { name: n.trim(), at };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Protocol documents (tolerant of the UCP 2026-01 object shape and the 2026-04 array shape; checks.md §10)

export const DATE_VERSION = /^\d{4}-\d{2}-\d{2}$/;

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isAbsoluteHttpUrl(v: unknown): v is string {
  if (typeof v !== 'string' || v.length > 2000) return false;
  if (!/^https?:\/\//i.test(v)) return false;
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
}

/** The parsed JSON of a resource: gather's parse, else a parse of the body when it looks like JSON. */
export function jsonOf(r: Resource, parsed: unknown): unknown {
  if (parsed !== null && parsed !== undefined) return parsed;
  const res = responseOf(r);
  if (!res || !is2xx(res.status)) return null;
  const body = res.body.trim();
  if (!body.startsWith('{') && !body.startsWith('[')) return null;
  if (body.length > 1_000_000) return null;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return null;
  }
}

export function isJsonType(contentType: string): boolean {
  return contentType === 'application/json' || contentType.endsWith('+json');
}

export interface UcpBinding {
  transport: string;
  endpoint: string;
}

export interface UcpProfile {
  json: Record<string, unknown>; // the `ucp` object
  wrapped: boolean; // false = legacy flat shape (fields at the top level)
  version: string | null;
  shape: '2026-04 array' | '2026-01 object' | 'none';
  bindings: UcpBinding[]; // dev.ucp.shopping bindings with an absolute endpoint
  templatedEndpoints: string[]; // endpoints that are not absolute URLs ("{{ENDPOINT}}")
  capabilities: string[];
  paymentHandlers: string[];
}

function capabilityNames(caps: unknown): string[] {
  if (Array.isArray(caps)) {
    return caps.flatMap((c) => (isObject(c) && typeof c.name === 'string' ? [c.name] : typeof c === 'string' ? [c] : []));
  }
  if (isObject(caps)) return Object.keys(caps);
  return [];
}

function paymentHandlerNames(ucp: Record<string, unknown>, doc: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (isObject(ucp.payment_handlers)) out.push(...Object.keys(ucp.payment_handlers));
  const payment = isObject(ucp.payment) ? ucp.payment : isObject(doc.payment) ? doc.payment : null;
  if (payment && Array.isArray(payment.handlers)) {
    for (const h of payment.handlers) {
      if (isObject(h)) {
        const n = typeof h.name === 'string' ? h.name : typeof h.id === 'string' ? h.id : null;
        if (n) out.push(n);
      }
    }
  }
  return out;
}

/** Reads /.well-known/ucp, or null when there is no UCP-like JSON document at all. */
export function readUcp(a: Artifacts): UcpProfile | null {
  const doc = jsonOf(a.ucp, a.ucpJson);
  if (!isObject(doc)) return null;
  const wrapped = isObject(doc.ucp);
  const ucp = wrapped ? (doc.ucp as Record<string, unknown>) : doc;
  if (!wrapped && !('services' in doc) && !('capabilities' in doc)) return null;
  const version = typeof ucp.version === 'string' ? ucp.version : null;
  const services = isObject(ucp.services) ? ucp.services : {};
  const shopping = services['dev.ucp.shopping'];
  const bindings: UcpBinding[] = [];
  const templated: string[] = [];
  let shape: UcpProfile['shape'] = 'none';
  const take = (transport: string, endpoint: unknown) => {
    if (isAbsoluteHttpUrl(endpoint) && !endpoint.includes('{{')) bindings.push({ transport, endpoint });
    else if (typeof endpoint === 'string') templated.push(endpoint);
  };
  if (Array.isArray(shopping)) {
    shape = '2026-04 array';
    for (const b of shopping) if (isObject(b)) take(typeof b.transport === 'string' ? b.transport : 'unknown', b.endpoint);
  } else if (isObject(shopping)) {
    shape = '2026-01 object';
    for (const [transport, b] of Object.entries(shopping)) if (isObject(b)) take(transport, b.endpoint);
  }
  return {
    json: ucp,
    wrapped,
    version,
    shape,
    bindings,
    templatedEndpoints: templated,
    capabilities: capabilityNames(ucp.capabilities),
    paymentHandlers: paymentHandlerNames(ucp, doc),
  };
}

export interface AcpDiscovery {
  version: string | null;
  apiBaseUrl: string | null;
  transports: string[];
  services: string[];
}

/** Reads /.well-known/acp.json, or null when it is not an ACP discovery document (protocol.name "acp"). */
export function readAcp(a: Artifacts): AcpDiscovery | null {
  const doc = jsonOf(a.acp, a.acpJson);
  if (!isObject(doc) || !isObject(doc.protocol) || doc.protocol.name !== 'acp') return null;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    version: typeof doc.protocol.version === 'string' ? doc.protocol.version : null,
    apiBaseUrl: typeof doc.api_base_url === 'string' ? doc.api_base_url : null,
    transports: strings(doc.transports),
    services: isObject(doc.capabilities) ? strings(doc.capabilities.services) : [],
  };
}

export interface ServerCard {
  name: string | null;
  endpoints: string[];
}

/** An MCP server card (SEP-2127 `remotes[]`, SEP-1649 `transport`, or an `endpoints` list). */
export function readServerCard(a: Artifacts): ServerCard | null {
  const doc = jsonOf(a.serverCard, a.serverCardJson);
  if (!isObject(doc)) return null;
  const info = isObject(doc.serverInfo) ? doc.serverInfo : null;
  const name =
    typeof doc.name === 'string' && doc.name.trim() !== ''
      ? doc.name
      : info && typeof info.name === 'string' && info.name.trim() !== ''
        ? info.name
        : null;
  const endpoints: string[] = [];
  const add = (v: unknown) => {
    if (isAbsoluteHttpUrl(v)) endpoints.push(v);
  };
  if (Array.isArray(doc.remotes)) for (const r of doc.remotes) if (isObject(r)) add(r.url);
  if (isObject(doc.transport)) {
    add(doc.transport.endpoint);
    add(doc.transport.url);
  }
  if (Array.isArray(doc.endpoints)) {
    for (const e of doc.endpoints) {
      add(e);
      if (isObject(e)) add(e.url ?? e.endpoint);
    }
  } else if (isObject(doc.endpoints)) {
    for (const e of Object.values(doc.endpoints)) {
      add(e);
      if (isObject(e)) add(e.url ?? e.endpoint);
    }
  } else add(doc.endpoints);
  return { name, endpoints };
}

export const COMMERCE_TOOL = /search|catalog|product|cart|checkout|order|polic/i;

/** Anchor text plus URL path (no query: "?return_to=" is not a returns page), lower case, for keyword lookups. */
export function linkHaystack(l: LinkInfo): string {
  let path = l.href;
  if (l.url) {
    try {
      path = new URL(l.url).pathname;
    } catch {
      path = l.url;
    }
  }
  return `${l.text.slice(0, 200)} ${path.split('?')[0].slice(0, 300)}`.toLowerCase();
}

/** Lower-case visible text of the home page and sampled PDPs, for phrase lookups. */
export function siteText(a: Artifacts): string {
  return sitePages(a)
    .map((p) => p.visibleText.slice(0, 300_000))
    .join('\n')
    .toLowerCase();
}

/** The first phrase found in a lower-case text, or null. */
export function findPhrase(text: string, phrases: readonly string[]): string | null {
  for (const p of phrases) if (text.includes(p)) return p;
  return null;
}
