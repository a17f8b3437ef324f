// The protocol journey: where the scan found the store's MCP server (or a UCP catalog), ask its own catalog about the
// product the browser walks, as an agent that shops by protocol would. List the tools, pick a read-only catalog tool
// (never one about carts, checkout, orders or payment), call it with the product's name — the only text sent — and
// compare the price, currency and stock it answers with the product page's. At most three requests through the
// scan's address rules, each bounded in time and size; the answer is untrusted text, read as data.
import type { Artifacts, McpProbe, Resource } from '../artifacts.js';
import type { Fetcher } from '../../outbound/fetch.js';
import { readUcp } from '../documents/protocol-documents.js';
import { parseJsonLimited, MCP_PROTOCOL_VERSION, modernMessage, onStoreSite, postOnSite, readRpc, type ClientInfo } from '../fetching/mcp-probe.js';
import { availabilityKind, normaliseAvailability } from '../products/availability.js';
import { currencyData } from '../products/currencies.js';
import { parseStructuredPrice, priceMentions, samePrice } from '../products/price.js';
import { nameIndex, normText } from '../checks/page-text.js';
import type { JourneyProtocol } from '../../schemas/journey.js';

/** The product as its page gives it, for the comparison. */
export interface PageProduct {
  url: string;
  name: string;
  price: number | null;
  currency: string | null;
  availability: string | null;
}

type Money = NonNullable<JourneyProtocol['page_price']>;

const MAX_TOOLS = 500;
const MAX_NODES = 5000;
const MAX_DEPTH = 12;
/** Tools the journey never calls, whatever they say of themselves. */
const WRITES = /cart|basket|bag|checkout|order|payment|pay($|_|-)|purchase|buy|wish|account|login|sign|address|subscri|refund|return|review|create|update|delete|add|remove/i;
const CATALOG = /search|catalog|catalogue|product|find|lookup|browse|query/i;
/** Argument names a query goes into. */
const QUERY_ARG = /^(query|q|search|search_?term|term|keywords?|text|name)$/i;

interface ListedTool {
  name: string;
  description: string;
  readOnly: boolean | null;
  destructive: boolean;
  input: Record<string, unknown>;
}

/** The protocol journey for the sampled product, or null when the store has no MCP server with tools and no UCP catalog. */
export async function askCatalog(a: Artifacts, product: PageProduct, fetcher: Pick<Fetcher, 'fetch'>, client: ClientInfo): Promise<JourneyProtocol | null> {
  const storeUrls = [a.inputUrl, ...(a.home.ok ? [a.home.res.url] : [])];
  if (a.mcp && a.mcp.tools.length > 0 && a.mcp.handshake) return askMcp(a.mcp, product, fetcher, client, storeUrls);
  const rest = ucpRestCatalog(a);
  return rest ? askUcp(rest, product, fetcher, storeUrls) : null;
}

async function askMcp(probe: McpProbe, product: PageProduct, fetcher: Pick<Fetcher, 'fetch'>, client: ClientInfo, storeUrls: string[]): Promise<JourneyProtocol> {
  const endpoint = probe.endpoint;
  const base = { via: 'mcp' as const, endpoint, query: product.name };
  if (!onStoreSite(endpoint, storeUrls)) return { ...base, ...nothing(0), tool: null, detail: 'The MCP endpoint is on another site than the store: not asked.' };
  let calls = 0;
  const modern = probe.handshake === 'server/discover';
  const headers: Record<string, string> = {};
  const send = (id: number, method: string, params: Record<string, unknown>) => {
    calls++;
    if (modern) {
      const m = modernMessage(id, method, client, params);
      return postOnSite(fetcher, endpoint, m.message, m.headers, storeUrls);
    }
    return postOnSite(fetcher, endpoint, { jsonrpc: '2.0', id, method, params }, headers, storeUrls);
  };
  if (!modern) {
    // A 2025 server is asked to initialize again: its session, if it keeps one, belongs to this conversation.
    const init = await send(1, 'initialize', { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo: client });
    const result = readRpc(init, 1).result as { protocolVersion?: unknown } | undefined;
    if (!result) return unanswered(base, calls, init, 'initialize');
    headers['mcp-protocol-version'] = typeof result.protocolVersion === 'string' && /^[\w.-]{1,40}$/.test(result.protocolVersion) ? result.protocolVersion : MCP_PROTOCOL_VERSION;
    const session = init.res?.headers['mcp-session-id'];
    if (session && /^[\x21-\x7e]{1,200}$/.test(session)) headers['mcp-session-id'] = session;
  }
  const listed = await send(2, 'tools/list', {});
  const tools = listedTools(readRpc(listed, 2).result);
  if (tools.length === 0) return unanswered(base, calls, listed, 'tools/list');
  const tool = pickCatalogTool(tools);
  if (!tool) return { ...base, ...nothing(calls), tool: null, detail: `No read-only catalog tool among the ${tools.length} tools (${tools.slice(0, 8).map((t) => t.name).join(', ')}): an agent cannot look a product up without touching a cart or an order.` };
  const args = queryArguments(tool.input, product.name);
  if (!args) return { ...base, ...nothing(calls), tool: tool.name, detail: `${tool.name} takes no query argument an agent could put the product's name in.` };
  const answer = await send(3, 'tools/call', { name: tool.name, arguments: args });
  const rpc = readRpc(answer, 3);
  if (!rpc.result) return unanswered({ ...base, tool: tool.name }, calls, answer, 'tools/call', rpc.error);
  const result = rpc.result as { isError?: unknown; structuredContent?: unknown; content?: unknown };
  if (result.isError === true) return { ...base, ...nothing(calls), tool: tool.name, detail: `${tool.name} answered with an error: ${quote(textOf(result))}.` };
  return compare({ ...base, tool: tool.name, calls }, product, [result.structuredContent, ...contentValues(result.content)]);
}

async function askUcp(endpoint: string, product: PageProduct, fetcher: Pick<Fetcher, 'fetch'>, storeUrls: string[]): Promise<JourneyProtocol> {
  const url = `${endpoint.replace(/\/+$/, '')}/catalog/search`;
  const base = { via: 'ucp' as const, endpoint: url, query: product.name, tool: 'dev.ucp.shopping.catalog.search' };
  if (!onStoreSite(url, storeUrls)) return { ...base, ...nothing(0), detail: 'The UCP catalog is on another site than the store: not asked.' };
  const answer = await postOnSite(fetcher, url, { query: product.name }, {}, storeUrls);
  const body = answer.ok ? parseJsonLimited(answer.res.body) : undefined;
  if (body === undefined) return unanswered(base, 1, answer, 'catalog/search');
  return compare({ ...base, calls: 1 }, product, [body]);
}

/** The REST endpoint of a UCP profile that declares catalog search, or null. */
function ucpRestCatalog(a: Artifacts): string | null {
  const ucp = readUcp(a);
  if (!ucp?.capabilities.includes('dev.ucp.shopping.catalog.search')) return null;
  return ucp.bindings.find((b) => b.transport.toLowerCase() === 'rest')?.endpoint ?? null;
}

function listedTools(result: unknown): ListedTool[] {
  const list = isObj(result) && Array.isArray(result.tools) ? result.tools.slice(0, MAX_TOOLS) : [];
  return list.filter(isObj).flatMap((t) => {
    if (typeof t.name !== 'string' || t.name.length === 0) return [];
    const hints = isObj(t.annotations) ? t.annotations : {};
    return [
      {
        name: t.name.slice(0, 100),
        description: typeof t.description === 'string' ? t.description.slice(0, 500) : '',
        readOnly: typeof hints.readOnlyHint === 'boolean' ? hints.readOnlyHint : null,
        destructive: hints.destructiveHint === true,
        input: isObj(t.inputSchema) ? t.inputSchema : {},
      },
    ];
  });
}

/** A tool that only reads the catalog: never one that says it writes, and never one named after a cart or an order. */
export function pickCatalogTool(tools: readonly ListedTool[]): ListedTool | null {
  const safe = tools.filter((t) => !WRITES.test(t.name) && t.readOnly !== false && !t.destructive && (t.readOnly === true || CATALOG.test(t.name) || CATALOG.test(t.description)));
  const rank = (t: ListedTool) => (t.readOnly === true ? 0 : 2) + (/search/i.test(t.name) ? 0 : 1);
  return [...safe].sort((x, y) => rank(x) - rank(y))[0] ?? null;
}

/** The tool's arguments with the product's name as its query (one level of nesting, as UCP's `catalog.query`). */
function queryArguments(schema: Record<string, unknown>, name: string): Record<string, unknown> | null {
  const props = isObj(schema.properties) ? schema.properties : {};
  const direct = Object.keys(props).find((k) => QUERY_ARG.test(k) && isObj(props[k]) && (props[k] as { type?: unknown }).type !== 'object');
  if (direct) return { [direct]: name };
  for (const [key, prop] of Object.entries(props)) {
    const inner = isObj(prop) && isObj(prop.properties) ? Object.keys(prop.properties).find((k) => QUERY_ARG.test(k)) : undefined;
    if (inner) return { [key]: { [inner]: name } };
  }
  return null;
}

/** Finds the product in what the catalog answered and compares it with the page. */
function compare(base: Omit<JourneyProtocol, 'found' | 'price_matches' | 'page_price' | 'protocol_price' | 'availability_matches' | 'detail'>, product: PageProduct, values: unknown[]): JourneyProtocol {
  const pagePrice: Money | null = product.price !== null ? { amount: product.price, currency: product.currency } : null;
  const found = values.map((v) => (typeof v === 'string' ? fromText(v, product) : fromJson(v, product))).find((f) => f !== null) ?? null;
  if (!found) return { ...base, found: false, price_matches: null, page_price: pagePrice, protocol_price: null, availability_matches: null, detail: `The answer does not name ${quote(product.name)}: an agent asking the store's catalog would not find the product it sees on the page.` };
  const priceMatches = pagePrice && found.price ? samePrice(pagePrice.amount, found.price.amount) && (!pagePrice.currency || !found.price.currency || pagePrice.currency === found.price.currency) : null;
  const pageStock = product.availability ? availabilityKind(product.availability) : null;
  const answerStock = found.availability ? availabilityKind(found.availability) : null;
  const stockMatches = pageStock && answerStock ? pageStock === answerStock : null;
  const money = (m: Money | null) => (m ? `${m.amount}${m.currency ? ` ${m.currency}` : ''}` : 'no price');
  const detail =
    priceMatches === false
      ? `The catalog names the product at ${money(found.price)}; its page says ${money(pagePrice)}. An agent that buys by protocol would quote the shopper another price.`
      : priceMatches
        ? `The catalog names the product at ${money(found.price)}, as its page does${stockMatches === false ? ', but not with the same stock' : ''}.`
        : `The catalog names the product${found.price ? ` at ${money(found.price)}` : ' without a price'}${pagePrice ? '' : '; its page shows none'}.`;
  return { ...base, found: true, price_matches: priceMatches, page_price: pagePrice, protocol_price: found.price, availability_matches: stockMatches, detail };
}

interface Found {
  price: Money | null;
  availability: string | null;
}

/** The first object of the answer that names the product, with the price and stock under it. */
function fromJson(value: unknown, product: PageProduct): Found | null {
  const key = normText(product.name).slice(0, 40);
  let nodes = 0;
  const walk = (v: unknown, depth: number): Record<string, unknown> | null => {
    if (depth > MAX_DEPTH || ++nodes > MAX_NODES || v === null || typeof v !== 'object') return null;
    if (Array.isArray(v)) {
      for (const item of v) {
        const hit = walk(item, depth + 1);
        if (hit) return hit;
      }
      return null;
    }
    const obj = v as Record<string, unknown>;
    for (const field of ['title', 'name', 'product_name', 'productName', 'product_title']) {
      const s = obj[field];
      if (typeof s === 'string' && key.length >= 2 && normText(s).includes(key)) return obj;
    }
    for (const child of Object.values(obj)) {
      const hit = walk(child, depth + 1);
      if (hit) return hit;
    }
    return null;
  };
  const hit = walk(value, 0);
  return hit ? { price: priceIn(hit, 0), availability: stockIn(hit, 0) } : null;
}

const PRICE_KEY = /^(price|amount|min|minVariantPrice|min_price|selling_?price|sale_?price|current_?price|unit_?price|price_range|priceRange)$/i;
const CURRENCY_KEY = /^(currency|currency_?code|currencyCode|priceCurrency)$/i;

/** The first price under a product object: UCP amounts are integers in minor units, others major units. */
function priceIn(obj: Record<string, unknown>, depth: number): Money | null {
  if (depth > 4) return null;
  const currency = Object.entries(obj).find(([k, v]) => CURRENCY_KEY.test(k) && typeof v === 'string' && /^[A-Z]{3}$/.test(v))?.[1] as string | undefined;
  for (const [k, v] of Object.entries(obj)) {
    if (!PRICE_KEY.test(k)) continue;
    if (typeof v === 'number' && Number.isFinite(v)) {
      const minor = k === 'amount' && Number.isInteger(v) && currency ? (currencyData().minorDigits.get(currency) ?? 2) : 0;
      return { amount: v / 10 ** minor, currency: currency ?? null };
    }
    if (typeof v === 'string') {
      const amount = parseStructuredPrice(v, currency);
      if (amount !== null) return { amount, currency: currency ?? null };
    }
    if (isObj(v)) {
      const inner = priceIn(v, depth + 1);
      if (inner) return { amount: inner.amount, currency: inner.currency ?? currency ?? null };
    }
  }
  for (const v of Object.values(obj)) {
    const first = Array.isArray(v) ? v.find(isObj) : isObj(v) ? v : undefined;
    const inner = first ? priceIn(first, depth + 1) : null;
    if (inner) return { amount: inner.amount, currency: inner.currency ?? currency ?? null };
  }
  return null;
}

const STOCK_KEY = /^(availability|available|availableForSale|available_for_sale|in_?stock|stock_?status|inventory_?status)$/i;

/** Stock under a product object, as a schema.org availability ("InStock") where it can be read. */
function stockIn(obj: Record<string, unknown>, depth: number): string | null {
  if (depth > 4) return null;
  for (const [k, v] of Object.entries(obj)) {
    if (!STOCK_KEY.test(k)) continue;
    if (typeof v === 'boolean') return v ? 'InStock' : 'OutOfStock';
    if (typeof v === 'string') return normaliseAvailability(v);
    if (isObj(v)) return stockIn(v, depth + 1);
  }
  for (const v of Object.values(obj)) {
    const first = Array.isArray(v) ? v.find(isObj) : isObj(v) ? v : undefined;
    const inner = first ? stockIn(first, depth + 1) : null;
    if (inner) return inner;
  }
  return null;
}

/** A plain-text answer: the name, then the first price written after it. */
function fromText(text: string, product: PageProduct): Found | null {
  const json = parseJsonLimited(text);
  if (json !== undefined && typeof json === 'object') return fromJson(json, product);
  const at = nameIndex(normText(text.slice(0, 200_000)), [product.name]);
  if (!at) return null;
  const mention = priceMentions(text.slice(at.at, at.at + 400))[0];
  return { price: mention ? { amount: mention.value, currency: mention.currency } : null, availability: null };
}

function contentValues(content: unknown): string[] {
  return Array.isArray(content) ? content.slice(0, 20).flatMap((c) => (isObj(c) && typeof c.text === 'string' ? [c.text] : [])) : [];
}

function textOf(result: { content?: unknown }): string {
  return contentValues(result.content).join(' ');
}

function nothing(calls: number): Pick<JourneyProtocol, 'found' | 'price_matches' | 'page_price' | 'protocol_price' | 'availability_matches' | 'calls'> {
  return { found: false, price_matches: null, page_price: null, protocol_price: null, availability_matches: null, calls };
}

/** A request that got no usable answer: why, in the words of the fetcher or the server. */
function unanswered(base: Pick<JourneyProtocol, 'via' | 'endpoint' | 'query'> & { tool?: string | null }, calls: number, answer: Resource, method: string, error?: string): JourneyProtocol {
  const why = !answer.ok
    ? answer.reason === 'too-large'
      ? 'the answer was larger than an agent reads (512 KiB)'
      : answer.reason === 'timeout'
        ? 'it did not answer in time'
        : answer.detail.slice(0, 160)
    : error
      ? `error ${quote(error)}`
      : `HTTP ${answer.res.status} without a JSON-RPC result`;
  return { ...base, tool: base.tool ?? null, ...nothing(calls), detail: `${method} got no usable answer: ${why}.` };
}

const quote = (s: string) => `"${s.replace(/\s+/g, ' ').trim().slice(0, 120)}"`;

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

