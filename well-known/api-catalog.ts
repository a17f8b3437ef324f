// GET /.well-known/api-catalog (RFC 9727): an RFC 9264 linkset naming the service's two APIs, the REST API and the
// MCP server, each with its description (OpenAPI and the function-calling definitions of each model API, the MCP
// server card), its guides (/llms.txt, /auth.md), its status
// (/readyz) and the changelog.
import { MCP_PATH } from '../lib/links.js';
import { CHANGELOG_PATH } from '../lib/links.js';
import { OPENAPI_TYPE } from '../lib/links.js';
import { FUNCTION_DEFS_FORMATS, FUNCTION_DEFS_NAMES, functionDefsUrl } from '../lib/links.js';
import { SERVER_CARD_PATH } from './server-card.js';

export { API_CATALOG_PATH } from '../lib/links.js';
/** RFC 9727 §4.2: the linkset media type, with the profile parameter naming the RFC. */
export const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

interface Target {
  href: string;
  type: string;
  title?: string;
}

export function apiCatalog(baseUrl: string): { linkset: Record<string, string | Target[]>[] } {
  const docs: Target[] = [
    { href: `${baseUrl}/llms.txt`, type: 'text/plain', title: 'How agents should use this service (llms.txt)' },
    { href: `${baseUrl}/auth.md`, type: 'text/markdown', title: 'Authentication, Pro keys and limits' },
  ];
  const status: Target[] = [{ href: `${baseUrl}/readyz`, type: 'application/json' }];
  const meta: Target[] = [{ href: `${baseUrl}${CHANGELOG_PATH}`, type: 'text/markdown', title: 'Changelog, breaking changes and deprecations' }];
  return {
    linkset: [
      {
        anchor: `${baseUrl}/api/v1`,
        'service-desc': [
          { href: `${baseUrl}/openapi.json`, type: OPENAPI_TYPE, title: 'OpenAPI 3.1 description of the REST API' },
          ...FUNCTION_DEFS_FORMATS.map((f) => ({ href: functionDefsUrl(baseUrl, f), type: 'application/json', title: `Function-calling definitions, ${FUNCTION_DEFS_NAMES[f]} shape` })),
        ],
        'service-doc': docs,
        status,
        'service-meta': meta,
      },
      {
        anchor: `${baseUrl}${MCP_PATH}`,
        'service-desc': [{ href: `${baseUrl}${SERVER_CARD_PATH}`, type: 'application/json', title: 'MCP server card' }],
        'service-doc': docs,
        status,
        'service-meta': meta,
      },
    ],
  };
}
