// The storefront MCP probe (docs/checks.md R14/R15): find the endpoint the store declares, then POST JSON-RPC
// `server/discover` (MCP 2026-07-28) or `initialize` (2025), and `tools/list` — read-only metadata, never
// `tools/call` (§1 rule 6). Answers may be JSON or an SSE
// stream (Streamable HTTP). Also the depth-limited JSON reader used for every JSON document of a scan.
import { getDomain } from 'tldts';
import type { McpProbe, Resource } from '../artifacts.js';
import type { Fetcher } from '../../outbound/fetch.js';

export const MCP_PROTOCOL_VERSION = '2025-06-18';
export const MAX_JSON_DEPTH = 64;
const MAX_TOOLS = 500;
const MCP_ACCEPT = 'application/json, text/event-stream';

/**
 * JSON.parse behind a linear pre-scan that refuses nesting deeper than `maxDepth` (docs/security.md R5), so a hostile
 * `[[[[…]]]]` costs one pass instead of a deep recursive parse. Returns undefined for invalid or too-deep JSON.
 */
export function parseJsonLimited(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (typeof text !== 'string' || text.length === 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > maxDepth) return undefined;
    } else if (c === 125 || c === 93) depth--;
  }
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return undefined;
  }
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

export interface McpEndpointSources {
  ucpJson: unknown;
  ucpUrl: string; // the document URL, to resolve relative endpoints
  serverCardJson: unknown;
  serverCardUrl: string;
  /** The card found through the AI Catalog or MCP catalog (docs/checks.md §11), consulted before the well-known card. */
  catalogCardJson?: unknown;
  catalogCardUrl?: string;
  platform: string;
  origin: string;
}

export interface FoundMcpEndpoint {
  endpoint: string;
  source: 'ucp' | 'catalog-card' | 'server-card' | 'platform';
  declaredIn: string | null; // the document that declared it; null for the platform default
}

/**
 * R14's target, in docs/checks.md §2 order: the UCP profile's MCP binding (2026-01-11 `{mcp: {endpoint}}` object
 * shape or the `[{transport: "mcp", endpoint}]` array shape of 2026-01-23 on), else the server card found through a
 * catalog (docs/checks.md §11), else the well-known server card (`remotes[].url`, `transport.endpoint`, `url`,
 * `endpoints`), else `/api/mcp` on Shopify. http(s) only.
 */
export function findMcpEndpoint(s: McpEndpointSources): FoundMcpEndpoint | null {
  const fromUcp = absolute(ucpMcpEndpoint(s.ucpJson), s.ucpUrl);
  if (fromUcp) return { endpoint: fromUcp, source: 'ucp', declaredIn: s.ucpUrl };
  if (s.catalogCardUrl) {
    const fromCatalogCard = absolute(serverCardEndpoint(s.catalogCardJson), s.catalogCardUrl);
    if (fromCatalogCard) return { endpoint: fromCatalogCard, source: 'catalog-card', declaredIn: s.catalogCardUrl };
  }
  const fromCard = absolute(serverCardEndpoint(s.serverCardJson), s.serverCardUrl);
  if (fromCard) return { endpoint: fromCard, source: 'server-card', declaredIn: s.serverCardUrl };
  if (s.platform === 'shopify') return { endpoint: new URL('/api/mcp', s.origin).href, source: 'platform', declaredIn: null };
  return null;
}

export function ucpMcpEndpoint(doc: unknown): string | null {
  if (!isObj(doc)) return null;
  const ucp = isObj(doc.ucp) ? doc.ucp : doc;
  const services = ucp.services;
  const bindingsOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
  const candidates: unknown[] = [];
  if (isObj(services)) {
    candidates.push(...bindingsOf(services['dev.ucp.shopping']));
    for (const [name, v] of Object.entries(services)) if (name !== 'dev.ucp.shopping') candidates.push(...bindingsOf(v));
  } else if (Array.isArray(services)) {
    candidates.push(...services);
  }
  for (const b of candidates.slice(0, 100)) {
    if (!isObj(b)) continue;
    if (isObj(b.mcp)) {
      const e = str(b.mcp.endpoint) ?? str(b.mcp.url);
      if (e) return e;
    }
    if (typeof b.transport === 'string' && b.transport.toLowerCase() === 'mcp') {
      const e = str(b.endpoint) ?? str(b.url);
      if (e) return e;
    }
  }
  return null;
}

export function serverCardEndpoint(doc: unknown): string | null {
  if (!isObj(doc)) return null;
  if (Array.isArray(doc.remotes)) {
    const remotes = doc.remotes.filter(isObj).slice(0, 50);
    const preferred = remotes.find((r) => /streamable|http/i.test(String(r.type ?? r.transport_type ?? '')) && str(r.url));
    const any = preferred ?? remotes.find((r) => str(r.url));
    if (any) return str(any.url);
  }
  if (isObj(doc.transport)) {
    const e = str(doc.transport.endpoint) ?? str(doc.transport.url);
    if (e) return e;
  }
  const direct = str(doc.url) ?? str(doc.endpoint);
  if (direct) return direct;
  const endpoints = doc.endpoints;
  if (typeof endpoints === 'string') return str(endpoints);
  if (Array.isArray(endpoints)) {
    for (const e of endpoints.slice(0, 50)) {
      const v = typeof e === 'string' ? str(e) : isObj(e) ? str(e.url) ?? str(e.endpoint) : null;
      if (v) return v;
    }
  } else if (isObj(endpoints)) {
    for (const v of Object.values(endpoints).slice(0, 50)) {
      const s = typeof v === 'string' ? str(v) : isObj(v) ? str(v.url) ?? str(v.endpoint) : null;
      if (s) return s;
    }
  }
  return null;
}

function absolute(endpoint: string | null, base: string): string | null {
  if (!endpoint) return null;
  try {
    const u = new URL(endpoint, base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}

/**
 * A site as the probe judges it: the registrable domain of the host by the Public Suffix List, private suffixes
 * included (so two shops on myshopify.com or github.io are two sites), or the host itself for an address or a
 * name with no public suffix. Scheme and port do not matter.
 */
export function siteOf(url: string): string | null {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
    return getDomain(host, { allowPrivateDomains: true }) ?? host;
  } catch {
    return null;
  }
}

/** Is the endpoint on one of the store's own sites? The scanner POSTs only there: a store cannot aim it at others. */
export function onStoreSite(endpoint: string, storeUrls: readonly string[]): boolean {
  const site = siteOf(endpoint);
  return site !== null && storeUrls.some((u) => siteOf(u) === site);
}

/** `<streamable-http-url>/server-card`: where the MCP server-card extension reserves a card's default home. */
export function cardUrlOf(endpoint: string): string {
  const u = new URL(endpoint);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/server-card`;
  u.search = '';
  return u.href;
}

export const OFF_SITE_DETAIL = 'on another site than the store: not probed';

/** The current MCP revision: stateless, every request carries its version in `_meta` and the Mcp-Method header. */
export const MCP_CURRENT_REVISION = '2026-07-28';
const MAX_REVISIONS = 10;
const MAX_PROBE_REDIRECTS = 3;

export type ClientInfo = { name: string; version: string };

/** A 2026-07-28 request: the `_meta` envelope in the body, the protocol version and method in the headers. */
export function modernMessage(id: number, method: string, client: ClientInfo, params: Record<string, unknown> = {}): { message: unknown; headers: Record<string, string> } {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': MCP_CURRENT_REVISION,
    'io.modelcontextprotocol/clientInfo': client,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return {
    message: { jsonrpc: '2.0', id, method, params: { ...params, _meta } },
    headers: { 'mcp-protocol-version': MCP_CURRENT_REVISION, 'mcp-method': method },
  };
}

const revisionList = (v: unknown): string[] =>
  Array.isArray(v) ? v.flatMap((r) => (typeof r === 'string' && /^[\w.-]{1,40}$/.test(r) ? [r] : [])).slice(0, MAX_REVISIONS) : [];

/**
 * R14 + R15. `server/discover` first, with the 2026-07-28 envelope and headers; when it gives no result (a 2025
 * server answers it with an error or not at all), `initialize`. Either answer counts; `tools/list` follows only
 * then, in the revision that answered. With `storeUrls`, an endpoint on another site (a card or profile naming
 * someone else's server) gets no request at all, and no redirect is followed off the store's site: its probe says so.
 */
export async function probeMcp(
  fetcher: Pick<Fetcher, 'fetch'>,
  endpoint: string,
  opts: { clientName?: string; clientVersion?: string; storeUrls?: readonly string[] } = {},
): Promise<McpProbe> {
  if (opts.storeUrls && !onStoreSite(endpoint, opts.storeUrls)) {
    const initialize: Resource = { ok: false, reason: 'not-fetched', detail: OFF_SITE_DETAIL, url: endpoint };
    return { endpoint, discover: null, initialize, initializeResult: null, jsonRpcError: null, toolsList: null, tools: [] };
  }
  const client: ClientInfo = { name: opts.clientName ?? 'store-readiness-scanner', version: opts.clientVersion ?? '1.0.0' };
  const send = (message: unknown, headers: Record<string, string> = {}) => postOnSite(fetcher, endpoint, message, headers, opts.storeUrls);

  const ask = modernMessage(1, 'server/discover', client);
  const discover = await send(ask.message, ask.headers);
  const discovered = readRpc(discover, 1);
  if (isObj(discovered.result) && revisionList(discovered.result.supportedVersions).length > 0) {
    const result = discovered.result;
    const revisions = revisionList(result.supportedVersions);
    const meta = isObj(result._meta) ? result._meta : {};
    const serverInfo = isObj(meta['io.modelcontextprotocol/serverInfo']) ? meta['io.modelcontextprotocol/serverInfo'] : isObj(result.serverInfo) ? result.serverInfo : {};
    const notSent: Resource = { ok: false, reason: 'not-fetched', detail: 'server/discover answered', url: endpoint };
    const probe: McpProbe = {
      endpoint,
      discover,
      initialize: notSent,
      initializeResult: { protocolVersion: revisions.includes(MCP_CURRENT_REVISION) ? MCP_CURRENT_REVISION : revisions[0], serverName: str(serverInfo.name) ?? undefined },
      handshake: 'server/discover',
      revisions,
      jsonRpcError: null,
      toolsList: null,
      tools: [],
    };
    if (revisions.includes(MCP_CURRENT_REVISION)) {
      const list = modernMessage(2, 'tools/list', client);
      probe.toolsList = await send(list.message, list.headers);
      readTools(probe, probe.toolsList);
    }
    return probe;
  }

  const initialize = await send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo: client },
  });
  const probe: McpProbe = { endpoint, discover, initialize, initializeResult: null, jsonRpcError: null, toolsList: null, tools: [] };
  const init = readRpc(initialize, 1);
  if (init.error) probe.jsonRpcError = init.error;
  if (!isObj(init.result)) return probe;
  const serverInfo = isObj(init.result.serverInfo) ? init.result.serverInfo : {};
  const version = str(init.result.protocolVersion) ?? undefined;
  probe.initializeResult = { protocolVersion: version, serverName: str(serverInfo.name) ?? undefined };
  probe.handshake = 'initialize';
  probe.revisions = version && /^[\w.-]{1,40}$/.test(version) ? [version] : [];

  const headers: Record<string, string> = { 'mcp-protocol-version': version ?? MCP_PROTOCOL_VERSION };
  const session = initialize.res?.headers['mcp-session-id'];
  if (session && /^[\x21-\x7e]{1,200}$/.test(session)) headers['mcp-session-id'] = session;
  probe.toolsList = await send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, headers);
  readTools(probe, probe.toolsList);
  return probe;
}

/** The tool names of a tools/list answer, into the probe; its JSON-RPC error if the handshake had none. */
function readTools(probe: McpProbe, answer: Resource): void {
  const list = readRpc(answer, 2);
  if (list.error && !probe.jsonRpcError) probe.jsonRpcError = list.error;
  if (isObj(list.result) && Array.isArray(list.result.tools)) {
    for (const t of list.result.tools.slice(0, MAX_TOOLS)) {
      const name = isObj(t) ? str(t.name) : null;
      if (name) probe.tools.push(name.slice(0, 200));
    }
  }
}

/**
 * A POST that follows a redirect only while it stays on the store's site (and only a 307/308, which keeps the
 * method): a store cannot bounce the scanner's POSTs to someone else's server. The fetcher's own redirect
 * following is off for these requests.
 */
export async function postOnSite(
  fetcher: Pick<Fetcher, 'fetch'>,
  url: string,
  message: unknown,
  headers: Record<string, string>,
  storeUrls: readonly string[] | undefined,
): Promise<Resource> {
  let target = url;
  for (let hop = 0; ; hop++) {
    const answer = await post(fetcher, target, message, headers);
    const status = answer.res?.status ?? 0;
    const location = status === 307 || status === 308 ? answer.res?.headers.location : undefined;
    if (!location || hop >= MAX_PROBE_REDIRECTS) return answer;
    const next = absolute(location, target);
    if (!next || (storeUrls && !onStoreSite(next, storeUrls))) {
      const where = next ? new URL(next).host : location.slice(0, 100);
      return { ok: false, reason: 'blocked', detail: `redirect to ${where} (another site): not followed`, url: target };
    }
    target = next;
  }
}

function post(fetcher: Pick<Fetcher, 'fetch'>, url: string, message: unknown, headers: Record<string, string> = {}): Promise<Resource> {
  return fetcher.fetch(url, {
    kind: 'json',
    method: 'POST',
    accept: MCP_ACCEPT,
    body: JSON.stringify(message),
    headers: { 'content-type': 'application/json', ...headers },
    followRedirect: false,
  });
}

/** The JSON-RPC response with the given id from a JSON body or from the `data:` lines of an SSE stream. */
export function readRpc(resource: Resource, id: number): { result?: unknown; error?: string } {
  const res = resource.res;
  if (!res || !res.body) return {};
  const messages = res.contentType === 'text/event-stream' || /^\s*(?:event|data|id|retry):/.test(res.body.slice(0, 200))
    ? sseMessages(res.body)
    : [parseJsonLimited(res.body)];
  let fallback: { result?: unknown; error?: string } = {};
  for (const m of messages) {
    for (const msg of Array.isArray(m) ? m : [m]) {
      if (!isObj(msg)) continue;
      const out: { result?: unknown; error?: string } = {};
      if ('result' in msg) out.result = msg.result;
      if (isObj(msg.error)) out.error = `${String(msg.error.code ?? '')} ${String(msg.error.message ?? '')}`.trim().slice(0, 300);
      if (!('result' in out) && !out.error) continue;
      if (msg.id === id) return out;
      if (!('result' in fallback) && !fallback.error) fallback = out;
    }
  }
  return fallback;
}

/** Each SSE event's data lines joined by "\n" and parsed as JSON (events whose data is not JSON are skipped). */
export function sseMessages(body: string): unknown[] {
  const out: unknown[] = [];
  let data: string[] = [];
  const flush = () => {
    if (data.length > 0) {
      const parsed = parseJsonLimited(data.join('\n'));
      if (parsed !== undefined) out.push(parsed);
      data = [];
    }
  };
  for (const line of body.split(/\r\n|\r|\n/)) {
    if (line === '') flush();
    else if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5));
    if (out.length >= 50) break;
  }
  flush();
  return out;
}
