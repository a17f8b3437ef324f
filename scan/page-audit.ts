// One product page of a deep audit, read as a scan reads its sampled product pages: the same extractors (the page's
// PageRead from the parser threads) and the same per-page checks (the product_data checks, run on Artifacts that hold
// this page alone). The answer is a small record: which facts an agent can read on the page, why not where it
// cannot, and the page's structure signature for grouping by template. Plain data, no network or clock.
import type { Artifacts, PageFacts, ProductFacts, Resource } from './artifacts.js';
import type { CheckId } from './checks/rubric.js';
import { CHECKS, runChecks } from './checks/registry.js';
import { isCurrencyCode } from './products/price.js';
import { parseRobots } from './documents/robots.js';
import { STRUCTURED } from './checks/product-pages.js';

/** What a deep audit counts per page, in report order. */
export const AUDIT_FACTS = ['name', 'price', 'currency', 'availability', 'brand', 'identifiers', 'images', 'structured_data', 'server_rendered'] as const;
export type AuditFact = (typeof AUDIT_FACTS)[number];

export const FACT_LABELS: Record<AuditFact, string> = {
  name: 'Product name in the markup',
  price: 'Price agents can read',
  currency: 'ISO currency in the markup',
  availability: 'Availability',
  brand: 'Brand',
  identifiers: 'GTIN or MPN',
  images: 'Product image in the markup',
  structured_data: 'Product structured data',
  server_rendered: 'Name and price without JavaScript',
};

/** Facts decided by a per-page check of the scan (covered = the check passes on this page alone). */
const BY_CHECK: Partial<Record<AuditFact, CheckId>> = {
  price: 'product_price',
  availability: 'product_availability',
  brand: 'product_brand',
  identifiers: 'product_identifiers',
  structured_data: 'product_structured_data',
  server_rendered: 'product_server_rendered',
};

const PER_PAGE_CHECKS = CHECKS.filter((c) => c.pillar === 'product_data');
const MAX_REASON = 200;

export interface PageAudit {
  url: string;
  status: number | null;
  /** The page could not be read (no answer, an error status, a redirect): why. Facts are then all false. */
  error: string | null;
  /** Recognised as a product page, the way a scan recognises one. */
  product: boolean;
  facts: Record<AuditFact, boolean>;
  /** Why a fact is not covered, in the check's words; only for facts that are not. */
  reasons: Partial<Record<AuditFact, string>>;
  name: string | null;
  structure: number[] | null;
}

/** Artifacts holding one product page and nothing else fetched: what the per-page checks read. */
export function pageArtifacts(origin: string, pdps: Artifacts['pdps']): Artifacts {
  const nf = (path: string): Resource => ({ ok: false, reason: 'not-fetched', detail: 'not-fetched', url: `${origin}${path}` });
  return {
    inputUrl: `${origin}/`, origin, home: nf('/'), homePage: null, homeAgent: nf('/'), homeAgentPage: null,
    robotsTxt: nf('/robots.txt'), robots: parseRobots(nf('/robots.txt')), llmsTxt: nf('/llms.txt'),
    ucp: nf('/.well-known/ucp'), ucpJson: null, serverCard: nf('/.well-known/mcp/server-card.json'), serverCardJson: null,
    mcpCatalog: nf('/.well-known/ai-catalog.json'), mcpCatalogJson: null, catalogCard: null,
    acp: nf('/.well-known/acp.json'), acpJson: null, apiCatalog: nf('/.well-known/api-catalog'), apiCatalogJson: null,
    sitemap: nf('/sitemap.xml'), sitemapUrl: null, sitemapDeclared: false, childSitemap: null, sitemapUrls: [],
    productUrlsFromSitemap: [], productUrlsFromHome: [], pdps, pdpAgentMarkdown: null, mcp: null, platform: 'other',
    fetchLog: [], x402: false,
  };
}

const none = (): Record<AuditFact, boolean> => Object.fromEntries(AUDIT_FACTS.map((f) => [f, false])) as Record<AuditFact, boolean>;

/** A page that could not be read: every fact missing, for one reason. */
export function unreadPage(url: string, status: number | null, error: string): PageAudit {
  return { url, status, error: error.slice(0, MAX_REASON), product: false, facts: none(), reasons: {}, name: null, structure: null };
}

const fromMarkup = <T>(f: { value: T; source: string } | null | undefined): T | null => (f && f.source !== 'html' ? f.value : null);

/** Reads one received page: its facts by the per-page checks and the product's markup. */
export function auditPage(
  resource: Resource,
  read: { page: PageFacts; product: ProductFacts | null; recognised: boolean; structure?: number[] },
  origin: string,
): PageAudit {
  const { page, product } = read;
  const outcomes = new Map(
    runChecks(pageArtifacts(origin, [{ resource, page, product, foundVia: 'sitemap' }]), undefined, PER_PAGE_CHECKS).map((r) => [r.def.id, r.outcome]),
  );
  const facts = none();
  const reasons: Partial<Record<AuditFact, string>> = {};
  const decide = (fact: AuditFact, covered: boolean, why: string) => {
    facts[fact] = covered;
    if (!covered) reasons[fact] = (why.startsWith(`${page.url}: `) ? why.slice(page.url.length + 2) : why).slice(0, MAX_REASON); // the check names the page first
  };
  for (const [fact, check] of Object.entries(BY_CHECK) as [AuditFact, CheckId][]) {
    const outcome = outcomes.get(check);
    decide(fact, outcome?.status === 'pass', outcome?.evidence ?? 'not judged');
  }
  decide('name', fromMarkup(product?.name) !== null, 'no product name in the markup');
  const currency = product?.currency && STRUCTURED.has(product.currency.source) ? product.currency.value : null;
  decide('currency', currency !== null && isCurrencyCode(currency), currency ? `currency ${currency} is not an ISO 4217 code` : 'no currency in the structured data');
  decide('images', (fromMarkup(product?.images)?.length ?? 0) > 0, 'no product image in the markup');
  return {
    url: page.url,
    status: page.status,
    error: null,
    product: read.recognised,
    facts,
    reasons,
    name: (product?.name?.value ?? page.h1 ?? page.title)?.slice(0, MAX_REASON) ?? null,
    structure: read.structure ?? null,
  };
}
