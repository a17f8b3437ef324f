// The typed record every check reads (docs/architecture.md "Artifacts"). gather.ts fills it once per scan:
// each fetched resource is ok or carries its reason, and derived facts (parsed pages, products, robots) are
// computed here once so that checks stay pure and cheap.

export type { FailReason, HttpResponse, Resource } from '../outbound/resource.js';
import type { Resource } from '../outbound/resource.js';


/** A value read from a page and where it was read from, so a merchant sees why an agent sees it. */
// url: the item's id in the page's address, for its SKU where the page gives no code of its own.
export type FactSource = 'json-ld' | 'microdata' | 'rdfa' | 'opengraph' | 'meta' | 'html' | 'url';
export interface Fact<T> {
  value: T;
  source: FactSource;
}

export interface LinkInfo {
  href: string; // as written
  url: string | null; // absolute http(s) URL, or null for other schemes / unparseable
  text: string; // visible anchor text, collapsed
  rel: string[];
}

export interface FormInfo {
  action: string | null; // absolute URL when resolvable
  method: 'get' | 'post';
  inputs: { name: string; type: string; value: string }[];
  buttons: string[]; // button / submit texts
}

/** schema.org-ish entity from any markup, property names as in schema.org, values strings or nested entities. */
export interface Entity {
  types: string[]; // short names ("Product"), normalised capitalisation, no schema.org prefix
  props: Record<string, EntityValue[]>;
  source: 'json-ld' | 'microdata' | 'rdfa';
}
export type EntityValue = string | Entity;

export interface JsonLdInfo {
  blocks: number; // <script type="application/ld+json"> count
  invalidBlocks: number; // blocks that failed to parse even leniently
  raw: unknown[]; // parsed blocks (lenient parse), as JSON values
  errors: string[];
}

export interface PageFacts {
  url: string; // final URL of the page
  status: number;
  title: string | null;
  h1: string | null;
  lang: string | null;
  metaDescription: string | null;
  robots: string[]; // lower-case directives from meta robots/googlebot and X-Robots-Tag
  canonical: string | null; // absolute URL resolved against the page, or null
  meta: Record<string, string[]>; // <meta property|name> → contents (og:*, product:*, twitter:* …), keys lower case
  links: LinkInfo[]; // <a href>
  headLinks: { rel: string[]; href: string; type: string | null }[]; // <link> elements
  forms: FormInfo[];
  buttons: string[]; // texts of <button> and submit inputs, also outside forms
  jsonLd: JsonLdInfo;
  entities: Entity[]; // every entity from JSON-LD (incl. @graph and nested), microdata and RDFa, flattened
  visibleText: string; // text outside script/style/template/noscript, whitespace collapsed, capped
  templateTokens: string[]; // lower-case id and class tokens of <html> and <body> (template names, never shown)
  priceTexts?: string[]; // visible texts of elements the page marks as a price (itemprop=price, a class or id naming one)
  // Visible texts about other things than the page's item: the options of a select that are not chosen, recommendation
  // blocks and variant swatches, and short notices the page keeps hidden (an inline display:none, a dialog). Stock words
  // there speak for another item or variant, or for a state the page does not show now; capped.
  asideTexts?: string[];
  breadcrumbs?: string[]; // link texts of the page's breadcrumb trail, in order, capped
  // Product codes in data attributes (data-sku, data-ean …), name without "data-", capped; `aside` when the element
  // is or sits in a block about other items or variants (see asideTexts), `variant` on a select's option.
  dataCodes?: { name: string; value: string; aside?: boolean; variant?: boolean }[];
  scriptHints: string[]; // page-type assignments found in inline scripts ("pageType":"product"), capped
  noscriptText: string;
  scriptCount: number;
  bodyBytes: number;
  truncated: boolean; // the body hit the size cap
}

export type IdentifierKind = 'gtin' | 'mpn' | 'sku' | 'asin' | 'retailer_code' | 'model';

/** One code the page gives its product: what kind of code, and whether markup, a labelled text row or the URL said it. */
export interface ProductIdentifier {
  value: string;
  kind: IdentifierKind;
  source: 'markup' | 'labelled_text' | 'url';
}

/**
 * What availability read from the page body rests on: stock wording in the text, or a guess an agent makes from a
 * buy button or from a price shown with no stock warning (the page then says nothing about stock in words).
 */
export type AvailabilityBasis = 'text' | 'buy_button' | 'price';

export interface ProductFacts {
  url: string;
  markup: 'json-ld' | 'microdata' | 'rdfa' | 'opengraph' | 'none'; // the richest Product markup found
  name: Fact<string> | null;
  description: Fact<string> | null;
  images: Fact<string[]> | null; // absolute http(s) URLs
  price: Fact<number> | null; // numeric, > 0 when valid
  priceText: Fact<string> | null; // the raw value as published (e.g. "€1.299,00")
  // The markup's price where the buy box outvoted it (read 'page': price is the page's) or left the price unread
  // (read 'none': price is null), with why (scan/products/price-choice.ts). Checks that judge the markup read it.
  markupPrice?: Fact<number> & { read: 'page' | 'none'; why: string };
  pricePeriod?: Fact<'day' | 'week' | 'month' | 'year'>; // the price is per this period ("€9.99/mo"), when the page says so
  priceExclTax?: Fact<number>; // the price excluding tax as the page shows it; equal to price when that is all it shows
  currency: Fact<string> | null; // ISO 4217 when known, else the raw symbol
  availability: Fact<string> | null; // schema.org short name (InStock …) when recognised, else raw text
  availabilityRaw?: Fact<string>; // the markup's own value when it is no schema.org term or feed word ("NOT SOLD")
  availabilityBasis?: AvailabilityBasis; // how availability read from the page body (source html) was found
  brand: Fact<string> | null;
  brandIsEntity: boolean; // brand given as Brand/Organization with a name (not a plain string)
  gtin: Fact<string> | null;
  gtinValid: boolean; // length and check digit
  mpn: Fact<string> | null;
  sku: Fact<string> | null;
  identifiers: ProductIdentifier[]; // every code on the page (scan/products/identifier-labels.ts), markup first
  attributes: string[]; // which of color, size, material, pattern, category, additionalProperty, variesBy are present
  hasReviews: boolean; // aggregateRating with value + count, or review
  offerEntities: Entity[]; // Offer / AggregateOffer nodes found for the product
  product: Entity | null; // the Product (or ProductGroup) entity used
}

/** An AI-usage preference as published: Cloudflare's Content-Signal or the IETF aipref Content-Usage. */
export interface UsageRecord {
  field: 'Content-Signal' | 'Content-Usage';
  value: string; // as written ("search=yes, ai-train=no", "/docs train-ai=n"), capped
}

export interface RobotsInfo {
  present: boolean; // 2xx text answer
  status: number | null;
  /** Is the user-agent allowed to fetch this URL path under RFC 9309 (true when robots.txt is absent/4xx). */
  isAllowed(userAgent: string, url: string): boolean;
  /** The Crawl-delay in seconds of the group that applies to the user-agent, or null when it gives none. */
  crawlDelay(userAgent: string): number | null;
  sitemaps: string[];
  groups: string[]; // user-agent tokens that have their own group (lower case)
  contentSignal: boolean; // a Content-Signal line exists
  usageRecords: UsageRecord[]; // non-empty Content-Signal / Content-Usage lines, in file order (capped)
  parseErrors: number; // lines that are neither comments, blank, nor known fields
}

/** A server card found through a catalog (docs/checks.md §11). */
export interface CatalogCard {
  resource: Resource; // the card's answer; for a card carried inline, the catalog's own answer
  json: unknown | null;
  catalogUrl: string; // the discovery document that pointed to it
  catalogKind: 'ai-catalog' | 'mcp-catalog';
  inline: boolean;
}

export interface McpProbe {
  endpoint: string;
  declaredIn?: string | null; // the document that declared the endpoint (UCP profile, server card); null = platform default
  discover?: Resource | null; // POST server/discover (MCP 2026-07-28), sent first; null when the endpoint was not probed
  initialize: Resource; // POST initialize (2025 revisions), sent when server/discover gave no result
  /** The handshake that answered, server/discover or initialize (see `handshake`): its revision and the server's name. */
  initializeResult: { protocolVersion?: string; serverName?: string } | null;
  handshake?: 'server/discover' | 'initialize';
  /** The revisions the server says it serves (server/discover's supportedVersions, or initialize's protocolVersion). */
  revisions?: string[];
  jsonRpcError: string | null;
  toolsList: Resource | null; // POST tools/list
  tools: string[]; // tool names
  /** GET <endpoint>/server-card (the card's reserved home), asked only when no catalog or well-known card named an endpoint. */
  card?: Resource;
}

/** What an agent got where a browser-like request got the page (scan/agents/judge.ts). */
export type AgentAccess = 'served' | 'blocked' | 'challenged' | 'rate_limited' | 'degraded' | 'failed';

/** The product facts an agent compares: what a bot shown another price or stock would see differently. */
export interface FactsSeen {
  name: string | null;
  price: number | null;
  currency: string | null;
  availability: string | null;
}

/** One request of the agents matrix, judged against the browser-like request for the same page. */
export interface AgentVisit {
  url: string;
  status: number | null;
  access: AgentAccess;
  challenge: string | null; // the challenge marker, or why the request failed
  title: string | null; // the answer's title, capped (evidence)
  server: string | null; // its Server header, capped (evidence)
  ms: number;
  facts: FactsSeen | null; // product page answers only
  differences: string[]; // facts unlike the browser-like request's ("price 79 EUR, not 89 EUR")
}

/** The agents matrix of a root scan (scan/fetching/agents-matrix.ts): the store asked as each agent of scan/agents/table.ts. */
export interface AgentMatrix {
  status: 'checked' | 'not_run';
  note: string | null; // why it did not run, or which agents were sampled
  homeUrl: string | null;
  productUrl: string | null;
  /** The browser-like request each agent is compared with (our neutral user-agent): unsigned like the agents' when the scan signs, on the home page only once an agent got something else there. */
  baseline: { home: AgentVisit | null; product: AgentVisit | null };
  /** The same page asked signed (the scan's own request) and unsigned, when the scan signs. */
  signedPair: { url: string; signed: AgentVisit; unsigned: AgentVisit } | null;
  rows: AgentRun[];
  requests: number; // sent by the matrix, redirect hops included
  maxRequests: number;
}

export interface AgentRun {
  agent: string; // its name in scan/agents/table.ts
  robots: { home: boolean | null; product: boolean | null }; // its token allowed there (null: no such page)
  home: AgentVisit | null; // null: not asked (see skipped)
  product: AgentVisit | null;
  skipped: string | null; // why a page was not asked
}

export interface Artifacts {
  inputUrl: string;
  origin: string; // scheme://host[:port] of the store as requested
  home: Resource; // R1 neutral UA
  homePage: PageFacts | null;
  homeAgent: Resource; // R3 agent-probe UA
  homeAgentPage: PageFacts | null;
  robotsTxt: Resource; // R2
  robots: RobotsInfo;
  llmsTxt: Resource; // R4
  ucp: Resource; // R5
  ucpJson: unknown | null; // parsed when valid JSON
  serverCard: Resource; // R6 (or R6b)
  serverCardJson: unknown | null;
  mcpCatalog: Resource | null; // R6c /.well-known/ai-catalog.json, or R6d /.well-known/mcp/catalog.json when R6c is no catalog
  mcpCatalogJson: unknown | null;
  catalogCard: CatalogCard | null; // the server card the catalog's first MCP entry points at (or carries)
  acp: Resource; // R7
  acpJson: unknown | null;
  apiCatalog: Resource; // R8
  apiCatalogJson: unknown | null;
  sitemap: Resource; // R9
  sitemapUrl: string | null;
  sitemapDeclared: boolean; // R9 came from a Sitemap: line in robots.txt
  childSitemap: Resource | null; // R10
  sitemapUrls: string[]; // page URLs read from R9/R10 (capped)
  productUrlsFromSitemap: string[];
  productUrlsFromHome: string[];
  pdps: { resource: Resource; page: PageFacts | null; product: ProductFacts | null; foundVia: 'home' | 'sitemap' | 'self' }[];
  /** Product-link candidates fetched but not recognised as product pages (an app shell, say): the browser view renders them. */
  productMisses?: { resource: Resource; page: PageFacts | null }[];
  pdpAgentMarkdown: Resource | null; // R13
  mcp: McpProbe | null; // R14/R15
  platform: 'shopify' | 'woocommerce' | 'bigcommerce' | 'magento' | 'other';
  fetchLog: { url: string; status: number | null; ms: number; outcome: string }[];
  x402: boolean; // any response was 402 with payment requirements
  /** The agents matrix; absent on scans that do not run it (not a root scan, no requests allowed). */
  agentMatrix?: AgentMatrix;
}
