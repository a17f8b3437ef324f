// GET /robots.txt: every public page is open to search engines and AI agents (the live shopping agents are named,
// as the audit asks of stores), with a Content-Signal policy and the sitemap. Only starting a scan is closed to
// crawlers: each one fetches a third-party store and spends a scan quota. Reading stored reports stays open.
import { LIVE_AGENT_TOKENS } from '../scan/documents/robots.js';
import { SITEMAP_PATH } from './sitemap.js';

/**
 * RFC 9309 matching: "$" ends the path and a rule matches path + query, so "/api/v1/scan?" and "/api/v1/scan$"
 * refuse the scan itself while "/api/v1/scan/12.json" (a stored report) stays allowed.
 */
export const SCAN_DISALLOWS = ['/api/v1/scan?', '/api/v1/scan$', '/api/scan?', '/api/scan$', '/scan'];

/** Scores change with every scan: agents may search and quote them, but should read them live, not learn them. */
export const CONTENT_SIGNAL = 'search=yes, ai-input=yes, ai-train=no';

export function robotsTxt(baseUrl: string): string {
  return [
    '# Store Readiness: agent-readiness scores of e-commerce stores.',
    '# Every public page is open to search engines and AI agents. Crawlers must not start scans (each one fetches',
    '# a third-party store); stored reports, the index and the documents stay open. Agents: see /llms.txt.',
    '',
    // One group for the live shopping agents and everyone else: named groups do not inherit from "*", so they share
    // the rules rather than repeat them.
    ...LIVE_AGENT_TOKENS.map((token) => `User-agent: ${token}`),
    'User-agent: *',
    `Content-Signal: ${CONTENT_SIGNAL}`,
    'Allow: /',
    ...SCAN_DISALLOWS.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${baseUrl}${SITEMAP_PATH}`,
    '',
  ].join('\n');
}
