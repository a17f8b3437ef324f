// Hand-built Artifacts for check tests: every resource "not fetched" and robots.txt absent unless a test says
// otherwise, plus small builders for responses, pages, products and robots. No network, no parser.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Artifacts, Fact, FactSource, FailReason, HttpResponse, PageFacts, ProductFacts, Resource } from '../../scan/artifacts.js';
import { parseRobots } from '../../scan/documents/robots.js';
import { pageArtifacts } from '../../scan/page-audit.js';

export const ORIGIN = 'https://store.example';

export interface ResponseOptions {
  status?: number;
  headers?: Record<string, string>;
  contentType?: string;
  ms?: number;
  redirects?: string[];
  requestedUrl?: string;
}

export function response(url: string, body: string, opts: ResponseOptions = {}): HttpResponse {
  return {
    requestedUrl: opts.requestedUrl ?? url,
    url,
    status: opts.status ?? 200,
    headers: Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    contentType: opts.contentType ?? 'text/html',
    body,
    ms: opts.ms ?? 100,
    redirects: opts.redirects ?? [],
  };
}

/**
 * A received response. A status of 400 or more gives the not-ok Resource gather.ts produces for it (reason
 * "missing" for 404/410, else "status"), with the response kept.
 */
export function okResource(url: string, body: string, opts: ResponseOptions = {}): Resource {
  const res = response(url, body, opts);
  if (res.status >= 400) {
    const reason: FailReason = res.status === 404 || res.status === 410 ? 'missing' : 'status';
    return { ok: false, reason, detail: `HTTP ${res.status}`, url, res };
  }
  return { ok: true, res };
}

export function failResource(url: string, reason: FailReason, res?: HttpResponse): Resource {
  return { ok: false, reason, detail: reason, url, ...(res ? { res } : {}) };
}

export function notFetched(url: string): Resource {
  return failResource(url, 'not-fetched');
}

export function fact<T>(value: T, source: FactSource = 'json-ld'): Fact<T> {
  return { value, source };
}

export function makePage(partial: Partial<PageFacts> = {}): PageFacts {
  return {
    url: `${ORIGIN}/`,
    status: 200,
    title: null,
    h1: null,
    lang: 'en',
    metaDescription: null,
    robots: [],
    canonical: null,
    meta: {},
    links: [],
    headLinks: [],
    forms: [],
    buttons: [],
    jsonLd: { blocks: 0, invalidBlocks: 0, raw: [], errors: [] },
    entities: [],
    visibleText: '',
    templateTokens: [],
    scriptHints: [],
    noscriptText: '',
    scriptCount: 0,
    bodyBytes: 0,
    truncated: false,
    ...partial,
  };
}

export function makeProduct(partial: Partial<ProductFacts> = {}): ProductFacts {
  return {
    url: `${ORIGIN}/products/widget`,
    markup: 'json-ld',
    name: null,
    description: null,
    images: null,
    price: null,
    priceText: null,
    currency: null,
    availability: null,
    brand: null,
    brandIsEntity: false,
    gtin: null,
    gtinValid: false,
    mpn: null,
    sku: null,
    identifiers: [],
    attributes: [],
    hasReviews: false,
    offerEntities: [],
    product: null,
    ...partial,
  };
}

/** robots.txt as gather.ts would parse it; status ≥ 400 gives the failed fetch (4xx = allow all, 5xx = disallow all). */
export function robotsFrom(text: string, status = 200): Artifacts['robots'] {
  return parseRobots(okResource(`${ORIGIN}/robots.txt`, text, { status, contentType: 'text/plain' }));
}

/** A sampled product page: the page, its product facts and the 200 response they came from. */
export function makePdp(
  page: Partial<PageFacts> = {},
  product: Partial<ProductFacts> | null = {},
  foundVia: Artifacts['pdps'][number]['foundVia'] = 'sitemap',
): Artifacts['pdps'][number] {
  const p = makePage({ url: `${ORIGIN}/products/widget`, ...page });
  return {
    resource: okResource(p.url, '<!doctype html><title>Widget</title>'),
    page: p,
    product: product === null ? null : makeProduct({ url: p.url, ...product }),
    foundVia,
  };
}

export function makeArtifacts(overrides: Partial<Artifacts> = {}): Artifacts {
  return { ...pageArtifacts(ORIGIN, []), ...overrides };
}

/** A JSON document served at a well-known path, parsed the way gather.ts parses it. */
export function jsonResource(path: string, doc: unknown, contentType = 'application/json'): { resource: Resource; json: unknown } {
  const body = typeof doc === 'string' ? doc : JSON.stringify(doc);
  let json: unknown;
  try {
    json = JSON.parse(body) as unknown;
  } catch {
    json = null;
  }
  return { resource: okResource(`${ORIGIN}${path}`, body, { contentType }), json };
}

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The real-world corpus: REAL_FIXTURES_DIR, else ../shared/fixtures/real, resolved from the repo root. */
export function realFixturesDir(): string {
  return resolve(REPO_ROOT, process.env.REAL_FIXTURES_DIR ?? '../shared/fixtures/real');
}

/**
 * The corpus folder, or null after skipping the test with a message naming the folder; under CI=true a missing
 * corpus is a failure, so CI can never pass by skipping.
 */
export function requireRealFixtures(t: { skip(message?: string): void }): string | null {
  const dir = realFixturesDir();
  if (existsSync(dir)) return dir;
  const message = `real-world fixtures not found at ${dir} (set REAL_FIXTURES_DIR)`;
  if (process.env.CI === 'true') throw new Error(message);
  t.skip(message);
  return null;
}

export function readRealFixture(dir: string, path: string): string {
  return readFileSync(join(dir, path), 'utf8');
}

/** The page without JSON-LD, microdata/RDFa attributes and OpenGraph/product meta tags: what its text alone says. */
export function stripMarkup(html: string): string {
  return html
    .replace(/<script[^>]*type\s*=\s*["']?application\/ld\+json["']?[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<meta\b[^>]*(?:property|name)\s*=\s*["']?(?:og:|product:|fb:)[^>]*>/gi, '')
    .replace(/\s(?:itemscope|itemtype|itemprop|itemref|itemid|typeof|property|vocab|prefix|resource|about)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?(?=[\s/>])/gi, '');
}

/** A published protocol example kept in the repository (sources in test/fixtures/protocols/MANIFEST.md). */
export function readProtocolFixture(name: string): string {
  return readFileSync(join(REPO_ROOT, 'test/fixtures/protocols', name), 'utf8');
}
