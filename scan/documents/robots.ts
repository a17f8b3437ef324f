// robots.txt as RFC 9309 crawlers read it, plus what the audit reports besides permissions: sitemaps, named groups,
// AI-usage records (Cloudflare's Content-Signal, the IETF aipref Content-Usage; docs/checks.md §11) and unknown lines. It never fetches; gather.ts hands in the R2 resource.
//
// Groups are rebuilt here (RFC 9309 §2.2.1) and only then handed to robots-parser, which does the rest: a named group
// beats `*`, groups naming one token are merged, the longest match wins, Allow wins ties, `*` and `$` patterns and
// percent-encoding (§2.2.2–2.2.3). Its own line reader gets group boundaries wrong in ways that flip the H1 verdict:
// a group without rules falls back to `*`, and any line other than user-agent (Sitemap, Content-Signal, a typo)
// between two user-agent lines splits one group into two.
import robotsParserModule from 'robots-parser';
import type { Resource, RobotsInfo, UsageRecord } from '../artifacts.js';

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
const MAX_USAGE_RECORDS = 20;
const MAX_LINES = 100_000;

/**
 * The product token a user-agent value names, lower case (RFC 9309 §2.2.1: matched case-insensitively): `*`, or the
 * value up to the first character that cannot be part of a token, so "ChatGPT-User/2.0" and "Googlebot Images" name
 * "chatgpt-user" and "googlebot". The RFC allows only letters, `_` and `-`; digits are kept because real tokens
 * carry them (AI2Bot, 360Spider). An empty result names nobody.
 */
export function normaliseToken(token: string): string {
  const value = token.trim();
  if (value === '*' || /^\*\s/.test(value)) return '*';
  return (/^[A-Za-z0-9_-]*/.exec(value)?.[0] ?? '').toLowerCase();
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

interface Rule {
  allow: boolean;
  path: string;
}

/** One group (RFC 9309 §2.2.1): the tokens of a run of user-agent lines and the rules that follow the run. */
interface Group {
  agents: string[];
  rules: Rule[];
  /** The group's Crawl-delay in seconds (a non-standard line many crawlers honour), if it gives one. */
  crawlDelay?: number;
}

/**
 * Does an unrecognised line look like a user-agent line gone wrong ("User agent: X", "Useragent: X", "User-agent X")?
 * Its name is the part before the colon, or the first two words when the colon is missing.
 */
function misspeltUserAgent(line: string): boolean {
  const colon = line.indexOf(':');
  const name = (colon >= 0 ? line.slice(0, colon) : line.split(/\s+/, 2).join(' ')).toLowerCase().replace(/[^a-z]/g, '');
  return name.startsWith('user') || name.includes('agent');
}

/**
 * Rebuilds the groups of a robots.txt body (comments stripped, lines trimmed, blank lines dropped):
 * - a run of user-agent lines ends only at an allow or disallow line (RFC 9309 §2.2.1); Sitemap, Crawl-delay,
 *   Content-Signal and unknown lines inside the run neither end it nor start a new group (§2.2.4: parsing other
 *   records MUST NOT interfere with parsing the ones the protocol defines);
 * - every named token gets its group, rules or not: a group without rules allows everything and its agents do not
 *   fall back to `*`;
 * - allow/disallow lines before any user-agent line belong to no group and are ignored;
 * - a misspelt user-agent line after a group's rules starts a new group that names nobody: RFC 9309 would ignore
 *   the line and hand the rules below it to the group above, but the writer meant them for another agent, and
 *   giving them to `*` (or to a live agent's group) is how one bot's `Disallow: /` turns into a block of the whole
 *   store. Those rules apply to no agent we check; the line still counts as unparseable.
 */
function rebuildGroups(lines: readonly string[]): Group[] {
  const groups: Group[] = [];
  let current: Group | null = null;
  let inRules = false; // the current group has had an allow/disallow line, so the next user-agent line opens a new one
  for (const line of lines) {
    const colon = line.indexOf(':');
    const field = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : '';
    const value = line.slice(colon + 1).trim();
    if (field === 'user-agent') {
      if (!current || inRules) {
        current = { agents: [], rules: [] };
        groups.push(current);
        inRules = false;
      }
      const token = normaliseToken(value);
      if (token !== '' && !current.agents.includes(token)) current.agents.push(token);
    } else if (field === 'allow' || field === 'disallow') {
      if (!current) continue;
      inRules = true;
      if (value !== '') current.rules.push({ allow: field === 'allow', path: value });
    } else if (field === 'crawl-delay' && current && /^\d+(?:\.\d+)?$/.test(value)) {
      current.crawlDelay ??= Number(value);
    } else if (!KNOWN_FIELDS.has(field) && current && inRules && misspeltUserAgent(line)) {
      current = { agents: [], rules: [] };
      groups.push(current);
      inRules = false;
    }
  }
  return groups;
}

/**
 * The rebuilt groups written out again, one run of user-agent lines and its rules per group, for robots-parser to
 * match paths against. Each group carries an empty Disallow (which matches nothing) so that robots-parser records a
 * group without rules too; groups that name nobody are left out.
 */
function normalisedText(groups: readonly Group[]): string {
  const out: string[] = [];
  for (const g of groups) {
    if (g.agents.length === 0) continue;
    for (const agent of g.agents) out.push(`User-agent: ${agent}`);
    out.push('Disallow:');
    if (g.crawlDelay !== undefined) out.push(`Crawl-delay: ${g.crawlDelay}`);
    for (const r of g.rules) out.push(`${r.allow ? 'Allow' : 'Disallow'}: ${r.path}`);
    out.push('');
  }
  return out.join('\n');
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
  const usageRecords: UsageRecord[] = [];
  let parseErrors = 0;
  const lines: string[] = [];
  for (const raw of text.split(/\r\n|\r|\n/, MAX_LINES)) {
    const hash = raw.indexOf('#');
    const line = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    if (line === '') continue;
    lines.push(line);
    const colon = line.indexOf(':');
    const field = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : '';
    if (!KNOWN_FIELDS.has(field)) {
      parseErrors++;
      continue;
    }
    const value = line.slice(colon + 1).trim();
    if (field === 'sitemap' && value !== '') {
      sitemaps.push(value);
    } else if ((field === 'content-signal' || field === 'content-usage') && value !== '' && usageRecords.length < MAX_USAGE_RECORDS) {
      usageRecords.push({ field: field === 'content-signal' ? 'Content-Signal' : 'Content-Usage', value: value.slice(0, 200) });
    }
  }

  const rebuilt = rebuildGroups(lines);
  const groups: string[] = [];
  for (const g of rebuilt) for (const agent of g.agents) if (!groups.includes(agent)) groups.push(agent);

  const parser = is2xx ? robotsParser(`${BASE}/robots.txt`, normalisedText(rebuilt)) : null;
  return {
    present: is2xx,
    status,
    isAllowed(userAgent: string, url: string): boolean {
      // The crawler's own token, read like a user-agent line; one that names nothing obeys `*` (RFC 9309 §2.2.1).
      if (parser) return parser.isAllowed(onBase(url), normaliseToken(userAgent) || '*') !== false;
      return !unreachable;
    },
    crawlDelay(userAgent: string): number | null {
      const seconds = parser?.getCrawlDelay(normaliseToken(userAgent) || '*');
      return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
    },
    sitemaps,
    groups,
    contentSignal: usageRecords.some((r) => r.field === 'Content-Signal'),
    usageRecords,
    parseErrors,
  };
}

export interface LiveAgentAccess {
  verdict: 'allowed' | 'partly' | 'blocked';
  blocked: string[]; // live tokens disallowed at / or at every sampled product path
  restricted: string[]; // live tokens disallowed at some sampled product path only
}

/** docs/checks.md §5 H1: a live token counts as blocked when `/` or every sampled PDP path is disallowed for it. */
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

/**
 * AI-usage preferences sent as HTTP response headers: `Content-Usage` (IETF aipref attachment draft) and
 * `Content-Signal` (Cloudflare), as the store sent them on the given responses. Empty values say nothing.
 */
export function usageHeaders(responses: readonly ({ headers: Record<string, string>; url: string } | null | undefined)[]): (UsageRecord & { url: string })[] {
  const out: (UsageRecord & { url: string })[] = [];
  for (const res of responses) {
    if (!res) continue;
    for (const field of ['Content-Signal', 'Content-Usage'] as const) {
      const value = (res.headers[field.toLowerCase()] ?? '').trim();
      if (value !== '') out.push({ field, value: value.slice(0, 200), url: res.url });
    }
  }
  return out;
}
