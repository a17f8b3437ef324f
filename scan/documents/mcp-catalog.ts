// The documents that point at MCP server cards (docs/checks.md §11): the AI Catalog at /.well-known/ai-catalog.json
// and the earlier MCP Catalog at /.well-known/mcp/catalog.json. Both are `{specVersion, entries: [...]}`; an MCP
// entry names its type (`type`, or `mediaType` in the first drafts) and either points at the card (`url`) or
// carries it (`data`). Pure: gather.ts fetches the catalog and the one card it follows.

export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';
export const MCP_CATALOG_PATH = '/.well-known/mcp/catalog.json';
export const CATALOG_ACCEPT = 'application/ai-catalog+json, application/json;q=0.9';
export const SERVER_CARD_ACCEPT = 'application/mcp-server-card+json, application/json;q=0.9';

/** Media types of an MCP server card entry: the current one and the first drafts' `application/mcp-server+json`. */
const CARD_TYPES = new Set(['application/mcp-server-card+json', 'application/mcp-server+json']);
const MAX_ENTRIES = 200;

export type CatalogKind = 'ai-catalog' | 'mcp-catalog';

export interface CatalogCardEntry {
  url: string | null; // absolute http(s) URL of the card, when the entry points at one
  data: Record<string, unknown> | null; // the card itself, when the entry carries it inline
  identifier: string | null;
}

export interface CatalogRead {
  isCatalog: boolean; // a JSON object with an `entries` array
  entries: number;
  card: CatalogCardEntry | null; // the first MCP server card entry
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function mediaType(v: unknown): string {
  return typeof v === 'string' ? v.split(';')[0].trim().toLowerCase() : '';
}

function absoluteHttp(raw: unknown, base: string): string | null {
  if (typeof raw !== 'string' || raw.trim() === '' || raw.length > 2000) return null;
  try {
    const u = new URL(raw.trim(), base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}

/** Reads a catalog document; `catalogUrl` resolves relative entry URLs. Nested catalogs are not followed. */
export function readCatalog(doc: unknown, catalogUrl: string): CatalogRead {
  if (!isObj(doc) || !Array.isArray(doc.entries)) return { isCatalog: false, entries: 0, card: null };
  let card: CatalogCardEntry | null = null;
  for (const e of doc.entries.slice(0, MAX_ENTRIES)) {
    if (!isObj(e) || !CARD_TYPES.has(mediaType(e.type ?? e.mediaType))) continue;
    const data = isObj(e.data) ? e.data : null;
    const url = absoluteHttp(e.url, catalogUrl);
    if (!data && !url) continue;
    card = { url, data, identifier: typeof e.identifier === 'string' ? e.identifier.slice(0, 200) : null };
    break;
  }
  return { isCatalog: true, entries: doc.entries.length, card };
}
