// The Link header (RFC 8288) of the home page, the index, reports and the discovery document: where agents find the
// API catalog, the OpenAPI description, llms.txt and the page's other representation. No imports, so any module
// (the discovery document included) can use it without an import cycle.

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
