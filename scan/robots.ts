// robots.txt as RFC 9309 crawlers read it (robots-parser: a named group beats `*`, longest match wins, Allow wins
// ties, groups for one token are merged), plus what the audit reports besides permissions: sitemaps, named groups,
// Content-Signal and unknown lines. It never fetches; gather.ts hands in the R2 resource.
import robotsParserModule from 'robots-parser';
import type { Resource, RobotsInfo } from './artifacts.js';

// robots-parser is CommonJS exporting the function itself, while its typings declare an ES default export.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** Agents that fetch pages live for a shopper (search indexes behind answers, user-triggered fetchers). */
export const LIVE_AGENT_TOKENS = [
  'OAI-SearchBot',
  'ChatGPT-User',
  'Claude-SearchBot',
  'Claude-User',
  'PerplexityBot',
  'Perplexity-User',
] as const;

/** Known AI crawlers and agents; disallowing the training ones is a legitimate choice and never penalised. */
export const AI_TOKENS = [
  ...LIVE_AGENT_TOKENS,
  'GPTBot',
  'ClaudeBot',
  'Claude-Web',
  'anthropic-ai',
  'Google-Extended',
  'Google-CloudVertexBot',
  'Gemini-Deep-Research',
  'CCBot',
  'Applebot-Extended',
  'Bytespider',
  'Meta-ExternalAgent',
  'Meta-ExternalFetcher',
  'FacebookBot',
  'cohere-ai',
  'cohere-training-data-crawler',
  'Amazonbot',
  'MistralAI-User',
  'DuckAssistBot',
  'YouBot',
  'AI2Bot',
  'Ai2Bot-Dolma',
  'Diffbot',
  'omgili',
  'Timpibot',
  'ImagesiftBot',
] as const;

/** Our own product token, for honouring robots.txt on the pages we crawl beyond the audited documents. */
export const SCANNER_TOKEN = 'store-readiness';

export const SEARCH_ENGINE_TOKENS = ['Googlebot', 'Bingbot'] as const;

const KNOWN_FIELDS = new Set([
  'user-agent',
  'allow',
  'disallow',
  'sitemap',
  'crawl-delay',
  'host',
  'clean-param',
  'request-rate',
  'visit-time',
  'noindex',
  'content-signal',
  'content-usage',
]);

const BASE = 'http://robots.invalid';
const MAX_LINES = 100_000;

/** Lower case and without "/version", the same normalisation robots-parser applies to group names. */
export function normaliseToken(token: string): string {
  const lower = token.toLowerCase();
  const slash = lower.indexOf('/');
  return (slash >= 0 ? lower.slice(0, slash) : lower).trim();
}

/** Path and query of a URL or a bare path, re-rooted on a fixed origin: robots-parser refuses other origins. */
function onBase(url: string): string {
  try {
    const u = new URL(url, BASE);
    return BASE + u.pathname + u.search;
  } catch {
    return BASE + '/';
  }
}

function statusOf(resource: Resource): number | null {
  return resource.ok ? resource.res.status : (resource.res?.status ?? null);
}

export function parseRobots(resource: Resource): RobotsInfo {
  const status = statusOf(resource);
  const is2xx = status !== null && status >= 200 && status < 300;
  // RFC 9309 §2.3.1.3–4: 4xx (or no file) means no restrictions; 5xx or an unreachable server means complete
  // disallow. A file cut at the size cap is still read (§2.5 allows parsing the first 500 KiB).
  const unreachable =
    (status !== null && status >= 500) ||
    (!resource.ok && status === null && (resource.reason === 'timeout' || resource.reason === 'error'));
  const body = is2xx ? (resource.ok ? resource.res.body : (resource.res?.body ?? '')) : '';
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;

  const sitemaps: string[] = [];
  const groups: string[] = [];
  let contentSignal = false;
  let parseErrors = 0;
  const lines = text.split(/\r\n|\r|\n/, MAX_LINES);
  for (const raw of lines) {
    const hash = raw.indexOf('#');
    const line = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    const field = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : '';
    if (!KNOWN_FIELDS.has(field)) {
      parseErrors++;
      continue;
    }
    const value = line.slice(colon + 1).trim();
    if (field === 'user-agent' && value !== '') {
      const token = normaliseToken(value);
      if (!groups.includes(token)) groups.push(token);
    } else if (field === 'sitemap' && value !== '') {
      sitemaps.push(value);
    } else if (field === 'content-signal') {
      contentSignal = true;
    }
  }

  const parser = is2xx ? robotsParser(`${BASE}/robots.txt`, text) : null;
  return {
    present: is2xx,
    status,
    isAllowed(userAgent: string, url: string): boolean {
      if (parser) return parser.isAllowed(onBase(url), userAgent) !== false;
      return !unreachable;
    },
    sitemaps,
    groups,
    contentSignal,
    parseErrors,
  };
}

export interface LiveAgentAccess {
  verdict: 'allowed' | 'partly' | 'blocked';
  blocked: string[]; // live tokens disallowed at / or at every sampled product path
  restricted: string[]; // live tokens disallowed at some sampled product path only
}

/** checks.md §5 H1: a live token counts as blocked when `/` or every sampled PDP path is disallowed for it. */
export function liveAgentAccess(robots: RobotsInfo, pdpUrls: readonly string[]): LiveAgentAccess {
  const blocked: string[] = [];
  const restricted: string[] = [];
  for (const token of LIVE_AGENT_TOKENS) {
    const rootAllowed = robots.isAllowed(token, '/');
    const denied = pdpUrls.filter((u) => !robots.isAllowed(token, u)).length;
    if (!rootAllowed || (pdpUrls.length > 0 && denied === pdpUrls.length)) blocked.push(token);
    else if (denied > 0) restricted.push(token);
  }
  const verdict =
    blocked.length === LIVE_AGENT_TOKENS.length ? 'blocked' : blocked.length + restricted.length > 0 ? 'partly' : 'allowed';
  return { verdict, blocked, restricted };
}
