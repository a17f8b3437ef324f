// Where the service's public documents and endpoints live, and the Link header (RFC 8288) of the home page, the
// index, reports and the discovery document that points agents at them. No imports: every surface (API, pages,
// MCP, well-known documents) names these paths, so they sit below all of them.

export const MCP_PATH = '/mcp';
export const MCP_BODY_LIMIT_BYTES = 64 * 1024;
/** Breaking changes are announced in llms.txt and the changelog (docs/decisions.md "API"). */
export const CHANGELOG_PATH = '/changelog.md';
export const FUNCTION_DEFS_PATHS = ['/api/v1/tools.json', '/api/tools.json'];
/** The model APIs whose function-calling shape tools.json answers (`?format=`), the first by default. */
export const FUNCTION_DEFS_FORMATS = ['openai', 'anthropic', 'gemini'] as const;
export type FunctionDefsFormat = (typeof FUNCTION_DEFS_FORMATS)[number];
/** Where one format's definitions are. */
export const functionDefsUrl = (baseUrl: string, format: FunctionDefsFormat): string =>
  `${baseUrl}${FUNCTION_DEFS_PATHS[0]}${format === FUNCTION_DEFS_FORMATS[0] ? '' : `?format=${format}`}`;
/** How each format is named to people. */
export const FUNCTION_DEFS_NAMES: Record<FunctionDefsFormat, string> = { openai: 'OpenAI', anthropic: 'Anthropic', gemini: 'Gemini' };

export const API_CATALOG_PATH = '/.well-known/api-catalog';
// No parameter in the type hint: a ";" inside a quoted Link parameter trips naive header parsers.
export const OPENAPI_TYPE = 'application/vnd.oai.openapi+json';

/**
 * The API catalog, the OpenAPI description and llms.txt, plus the page's other representation when it has one
 * (`alternate.href`: an absolute URL built from validated parts, never from the raw request).
 */
export function linkHeader(baseUrl: string, alternate?: { href: string; type: 'text/markdown' | 'text/html' }): string {
  return [
    `<${baseUrl}${API_CATALOG_PATH}>; rel="api-catalog"; type="application/linkset+json"`,
    `<${baseUrl}/openapi.json>; rel="service-desc"; type="${OPENAPI_TYPE}"`,
    `<${baseUrl}/llms.txt>; rel="describedby"; type="text/plain"`,
    ...(alternate ? [`<${alternate.href}>; rel="alternate"; type="${alternate.type}"`] : []),
  ].join(', ');
}
