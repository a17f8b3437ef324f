// The MCP server card (/.well-known/mcp/server-card.json, the path the service promises) and the catalogs that point
// at it, generated from the tool, resource and prompt declarations and BASE_URL.
//
// Discovery moved upstream (docs/checks.md §11; docs/decisions.md "Documents and discovery for agents"): current
// clients start from the AI Catalog at `/.well-known/ai-catalog.json`, earlier drafts from the MCP catalog at
// `/.well-known/mcp/catalog.json`, and both follow the entry's `url` to the card. The card's home is where the MCP
// server-card extension reserves it, `<streamable-http-url>/server-card` (`/mcp/server-card`, served as
// application/mcp-server-card+json), and both catalogs point there; the same card stays at
// `/.well-known/mcp/server-card.json`, the address the service has always published. SEP-2127's shape (reverse-DNS
// name, remotes[] with the protocol revisions served, capabilities), still listing the MCP tools — harmless for
// readers that ignore them, useful for those that want them before connecting. No `$schema` is claimed, since the
// card schema is versioned in place upstream and ours lists tools.
import { MCP_CAPABILITIES, MCP_INSTRUCTIONS, MCP_REVISIONS, MCP_SERVER_INFO, mcpTools } from '../tools/mcp-tools.js';
import { MCP_PATH } from '../lib/links.js';
import { inputJsonSchema } from './function-defs.js';
import { RESOURCES, RESOURCE_TEMPLATES } from '../tools/resources/index.js';
import { PROMPTS } from '../tools/prompts/index.js';
import type { AnyPrompt } from '../tools/prompts/prompt.js';

/** A prompt's arguments as prompts/list gives them: name, description, required. */
export function promptArguments(prompt: AnyPrompt): { name: string; description?: string; required: boolean }[] {
  return Object.entries(prompt.args.shape as Record<string, { description?: string; safeParse(v: unknown): { success: boolean } }>).map(([name, field]) => ({
    name,
    ...(field.description ? { description: field.description } : {}),
    required: !field.safeParse(undefined).success,
  }));
}

export const SERVER_CARD_PATH = '/.well-known/mcp/server-card.json';
/** The card's home beside the endpoint, where the catalogs point. */
export const MCP_CARD_PATH = `${MCP_PATH}/server-card`;
export const SERVER_CARD_TYPE = 'application/mcp-server-card+json';
export const MCP_CATALOG_PATH = '/.well-known/mcp/catalog.json';
export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';
export const AI_CATALOG_TYPE = 'application/ai-catalog+json';

const NO_AUTH = { required: false, schemes: [] as string[] };

/** "readiness.example.com" → "com.example.readiness/store-readiness" (SEP-2127 names are reverse-DNS, one slash). */
export function serverCardName(baseUrl: string): string {
  const host = new URL(baseUrl).hostname;
  const reversed = /^[\d.]+$/.test(host) || host.includes(':') ? host : host.split('.').reverse().join('.');
  return `${reversed}/${MCP_SERVER_INFO.name}`;
}

export function serverCard(baseUrl: string) {
  return {
    name: serverCardName(baseUrl),
    title: MCP_SERVER_INFO.title,
    version: MCP_SERVER_INFO.version,
    description: MCP_INSTRUCTIONS,
    websiteUrl: baseUrl,
    remotes: [{ type: 'streamable-http', url: `${baseUrl}${MCP_PATH}`, supportedProtocolVersions: [...MCP_REVISIONS], authentication: NO_AUTH }],
    authentication: NO_AUTH,
    // What initialize and server/discover answer.
    capabilities: MCP_CAPABILITIES,
    tools: mcpTools().map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: inputJsonSchema(t),
      annotations: { ...t.annotations },
    })),
    resources: RESOURCES.map((r) => ({ uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType })),
    resourceTemplates: RESOURCE_TEMPLATES.map((r) => ({ uriTemplate: r.uriTemplate, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType })),
    prompts: PROMPTS.map((p) => ({ name: p.name, title: p.title, description: p.description, arguments: promptArguments(p) })),
  };
}

export function mcpCatalog(baseUrl: string) {
  return {
    specVersion: 'draft',
    entries: [
      {
        identifier: `urn:air:${new URL(baseUrl).hostname}:${MCP_SERVER_INFO.name}`,
        displayName: MCP_SERVER_INFO.title,
        type: SERVER_CARD_TYPE,
        url: `${baseUrl}${MCP_CARD_PATH}`,
      },
    ],
  };
}

/** The AI Catalog (specVersion 1.0): the entry current MCP clients follow to the card. */
export function aiCatalog(baseUrl: string) {
  return {
    specVersion: '1.0',
    host: { displayName: MCP_SERVER_INFO.title, identifier: new URL(baseUrl).hostname },
    entries: [
      {
        identifier: `urn:air:${new URL(baseUrl).hostname}:mcp:${MCP_SERVER_INFO.name}`,
        type: SERVER_CARD_TYPE,
        url: `${baseUrl}${MCP_CARD_PATH}`,
      },
    ],
  };
}
