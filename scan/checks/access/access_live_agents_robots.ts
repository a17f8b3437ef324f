// Are the live shopping agents (the fetchers behind ChatGPT, Claude and Perplexity answers) allowed by robots.txt
// at `/` and on the sampled product paths? Blocking all of them caps the score (H1); training bots never count.
import { defineCheck } from '../check.js';
import { LIVE_AGENT_TOKENS, SEARCH_ENGINE_TOKENS, liveAgentAccess } from '../../documents/robots.js';
import { describe } from '../evidence.js';
import { resourceUrl, statusOf } from '../../documents/resources.js';
import { pathOf } from '../../documents/urls.js';

export default defineCheck({
  id: 'access_live_agents_robots',
  label: 'Live shopping agents allowed in robots.txt',
  title: 'robots.txt lets the live shopping agents in',
  failureTitle: 'Allow AI shopping agents in robots.txt',
  why: 'OAI-SearchBot, ChatGPT-User, Claude-User, PerplexityBot and their peers obey robots.txt; if they may not fetch your pages, your products never appear in their shopping answers.',
  how: 'Add explicit groups for `OAI-SearchBot`, `ChatGPT-User`, `Claude-SearchBot`, `Claude-User`, `PerplexityBot` and `Perplexity-User` with `Allow: /` (and your usual `Disallow: /cart`, `/checkout`, `/account` lines, because named groups do not inherit from `*`). If you want to refuse training, disallow only `GPTBot`, `ClaudeBot`, `Google-Extended`, `CCBot` and similar — that keeps you visible in ChatGPT, Claude and Perplexity shopping answers.',
  fix: {
    plain: 'Let the AI assistants that shop for people (ChatGPT, Claude, Perplexity) into your store; today your robots.txt turns them away.',
    effort: 'a few minutes',
    steps: {
      shopify: 'Online Store → Themes → Edit code → add the template robots.txt.liquid if it is missing, and add the lines below after the default rules.',
      woocommerce: 'Edit robots.txt with your SEO plugin (Yoast: Tools → File editor; Rank Math: General settings → Edit robots.txt) and add the lines below.',
      bigcommerce: 'Settings → Website → Search engine robots: add the lines below to the storefront rules.',
      custom: 'Add the lines below to the robots.txt at the root of your site.',
    },
    snippet: 'User-agent: OAI-SearchBot\nUser-agent: ChatGPT-User\nUser-agent: Claude-SearchBot\nUser-agent: Claude-User\nUser-agent: PerplexityBot\nUser-agent: Perplexity-User\nAllow: /\nDisallow: /cart\nDisallow: /checkout\nDisallow: /account',
  },
  run(a) {
    const status = statusOf(a.robotsTxt);
    const where = describe(a.robotsTxt);
    // docs/checks.md §5: a 5xx (or unreachable) robots.txt stops compliant crawlers, but is transient: partial, no cap.
    if ((status !== null && status >= 500) || (!a.robotsTxt.ok && status === null && (a.robotsTxt.reason === 'timeout' || a.robotsTxt.reason === 'error'))) {
      return { status: 'partial', evidence: `robots.txt ${where}: compliant agents treat the whole store as disallowed until it answers.` };
    }
    if (!a.robots.present) {
      return { status: 'pass', evidence: `No robots.txt (${where}): every agent is allowed.` };
    }
    const pdpUrls = a.pdps.map((p) => p.page?.url ?? resourceUrl(p.resource));
    const access = liveAgentAccess(a.robots, pdpUrls);
    const paths = ['/', ...pdpUrls.map(pathOf)].join(', ');
    const engines = SEARCH_ENGINE_TOKENS.filter((t) => !a.robots.isAllowed(t, '/') || pdpUrls.some((u) => !a.robots.isAllowed(t, u)));
    const url = resourceUrl(a.robotsTxt);
    if (access.verdict === 'blocked') {
      return { status: 'fail', evidence: `${url} disallows every live agent (${LIVE_AGENT_TOKENS.join(', ')}) at ${paths}.` };
    }
    if (access.verdict === 'partly' || engines.length > 0) {
      const parts: string[] = [];
      if (access.blocked.length > 0) parts.push(`blocked: ${access.blocked.join(', ')}`);
      if (access.restricted.length > 0) parts.push(`disallowed on some product paths: ${access.restricted.join(', ')}`);
      if (engines.length > 0) parts.push(`search engines disallowed: ${engines.join(', ')}`);
      const allowed = LIVE_AGENT_TOKENS.filter((t) => !access.blocked.includes(t) && !access.restricted.includes(t));
      if (allowed.length > 0) parts.push(`allowed: ${allowed.join(', ')}`);
      return { status: 'partial', evidence: `${url} (checked ${paths}): ${parts.join('; ')}.` };
    }
    return { status: 'pass', evidence: `${url} allows all ${LIVE_AGENT_TOKENS.length} live agents at ${paths}.` };
  },
});
