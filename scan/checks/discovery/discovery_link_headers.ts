// Does the homepage advertise machine-readable resources in an RFC 8288 `Link` response header? HTML <link> elements
// are noted in the evidence but earn nothing: agents read headers before (or instead of) parsing the HTML.
import { defineCheck } from '../check.js';
import { describe } from '../evidence.js';
import { responseOf } from '../../documents/resources.js';

const RELS = ['api-catalog', 'describedby', 'service-desc', 'sitemap'];

interface LinkValue {
  target: string;
  rel: string[];
  type: string | null;
}

/** Splits a Link header into link-values; commas inside <…> or quotes do not separate. */
function parseLinkHeader(value: string): LinkValue[] {
  const out: LinkValue[] = [];
  const parts: string[] = [];
  let current = '';
  let inAngle = false;
  let inQuote = false;
  for (const ch of value.slice(0, 8192)) {
    if (ch === '<' && !inQuote) inAngle = true;
    else if (ch === '>' && !inQuote) inAngle = false;
    else if (ch === '"' && !inAngle) inQuote = !inQuote;
    if (ch === ',' && !inAngle && !inQuote) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  for (const part of parts) {
    const open = part.indexOf('<');
    const close = part.indexOf('>', open);
    if (open < 0 || close < 0) continue;
    const params = part.slice(close + 1).split(';').map((p) => p.trim());
    let rel: string[] = [];
    let type: string | null = null;
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const key = p.slice(0, eq).trim().toLowerCase();
      const val = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
      if (key === 'rel') rel = val.toLowerCase().split(/\s+/).filter(Boolean);
      else if (key === 'type') type = val.toLowerCase();
    }
    out.push({ target: part.slice(open + 1, close), rel, type });
  }
  return out;
}

function useful(l: { rel: string[]; type: string | null }): boolean {
  return l.rel.some((r) => RELS.includes(r)) || (l.rel.includes('alternate') && l.type === 'text/markdown');
}

export default defineCheck({
  id: 'discovery_link_headers',
  label: 'Machine surfaces advertised',
  title: 'HTTP Link headers advertise your machine-readable resources',
  failureTitle: 'Advertise agent resources in HTTP Link headers',
  why: 'A Link header points agents at your API catalog, llms.txt or Markdown version before they parse any HTML (RFC 8288, RFC 9727).',
  how: 'Add a `Link` response header to HTML pages pointing at your machine-readable resources, e.g. `</llms.txt>; rel="describedby"; type="text/plain"`, `</.well-known/api-catalog>; rel="api-catalog"` and a markdown alternate; agents read headers before parsing HTML.',
  fix: {
    plain: 'Point agents to your machine-readable files (your store guide for AI assistants, your list of services) in the first answer of every page, before they read it.',
    effort: 'about an hour',
    steps: {
      shopify: 'A theme cannot add response headers: this needs a rule at a CDN or proxy in front of the store, set up by a developer.',
      woocommerce: 'Add the header in your web server or CDN configuration, or with a plugin that sets response headers.',
      bigcommerce: 'A theme cannot add response headers: this needs a rule at a CDN or proxy in front of the store, set up by a developer.',
      custom: 'Send the header below with your HTML pages (web server, CDN or application), listing the files you publish.',
    },
    snippet: 'Link: </llms.txt>; rel="describedby"; type="text/plain", </.well-known/api-catalog>; rel="api-catalog"',
  },
  run(a) {
    const res = responseOf(a.home);
    if (!res) return { status: 'fail', evidence: `Homepage ${describe(a.home)}.` };
    const links = parseLinkHeader(res.headers['link'] ?? '').filter(useful);
    if (links.length > 0) {
      return { status: 'pass', evidence: `Link header: ${links.map((l) => `<${l.target.slice(0, 100)}>; rel=${l.rel.join(' ')}`).join(', ').slice(0, 300)}.` };
    }
    const html = (a.homePage?.headLinks ?? []).filter(useful);
    if (html.length > 0) {
      return {
        status: 'fail',
        evidence: `No Link response header; only HTML <link> elements (${html.map((l) => `rel=${l.rel.join(' ')} ${l.href.slice(0, 80)}`).join(', ')}), which earn nothing.`,
      };
    }
    return { status: 'fail', evidence: `No Link header with ${RELS.join(', ')} or a text/markdown alternate on ${res.url}.` };
  },
});
