// Has the merchant said what AI systems may do with the pages? Either vocabulary counts (docs/checks.md §11):
// Cloudflare's Content-Signal or the IETF aipref Content-Usage, as robots.txt records or as HTTP response headers on
// the homepage or a sampled product page; so do explicit robots.txt groups for several AI tokens. Which way the
// policy goes (allow or refuse training) does not matter here.
import { defineCheck } from '../check.js';
import { AI_TOKENS, normaliseToken, usageHeaders } from '../../documents/robots.js';
import { describe, snippet } from '../evidence.js';
import { responseOf } from '../../documents/resources.js';

const AI = new Set(AI_TOKENS.map(normaliseToken));

export default defineCheck({
  id: 'access_ai_policy_declared',
  label: 'AI usage policy declared',
  title: 'The store declares an AI usage policy',
  failureTitle: 'Declare your AI usage policy',
  why: 'A declared policy (Content Signals, Content-Usage or named AI groups) tells agents they may quote and act on your pages, instead of leaving them to guess from the `*` group.',
  how: 'Add a `Content-Signal:` line to the `User-agent: *` group (and to each named AI group) stating `search=yes, ai-input=yes` and your choice for `ai-train` (or the IETF form `Content-Usage: search=y, train-ai=n`), or send the same as a `Content-Signal` / `Content-Usage` response header, or give the main AI agents explicit groups, so agents know they may quote and act on your pages.',
  fix: {
    plain: 'Say plainly that AI assistants may read and quote your pages, so they do not have to guess whether you allow it.',
    effort: 'a few minutes',
    steps: {
      shopify: 'In Online Store → Themes → Edit code, add the line below to the robots.txt.liquid template (create it if it is missing), in the group for all agents.',
      woocommerce: 'Add the line below under "User-agent: *" with your SEO plugin’s robots.txt editor, or in the robots.txt file at the root of the site.',
      bigcommerce: 'In Settings → Website → Search engine robots, add the line below under "User-agent: *".',
      custom: 'Add the line below under "User-agent: *" in robots.txt; choose yes or no for ai-train as you prefer.',
    },
    snippet: 'Content-Signal: search=yes, ai-input=yes, ai-train=no',
  },
  run(a) {
    const named = a.robots.present ? a.robots.groups.filter((g) => AI.has(g)) : [];
    const groups = named.length > 0 ? `; AI groups: ${named.join(', ')}` : '';
    const records = a.robots.present ? a.robots.usageRecords : [];
    if (records.length > 0) {
      const shown = records.slice(0, 2).map((r) => `${r.field}: ${snippet(r.value, 80)}`).join('; ');
      return { status: 'pass', evidence: `robots.txt declares ${shown}${groups}.` };
    }
    const pages = [responseOf(a.home), ...a.pdps.map((p) => responseOf(p.resource))];
    const headers = usageHeaders(pages);
    if (headers.length > 0) {
      const h = headers[0];
      return { status: 'pass', evidence: `${h.url} answers with the header ${h.field}: ${snippet(h.value, 80)}${groups}.` };
    }
    if (named.length >= 3) return { status: 'pass', evidence: `robots.txt has groups for ${named.length} AI agents: ${named.join(', ')}.` };
    const robots = a.robots.present ? 'robots.txt has no Content-Signal or Content-Usage record' : `no robots.txt (${describe(a.robotsTxt)})`;
    const ai = named.length === 0 ? 'no AI agent groups' : `only ${named.length} AI group${named.length > 1 ? 's' : ''} (${named.join(', ')})`;
    return { status: 'fail', evidence: `${robots}, ${ai}, and no Content-Signal or Content-Usage response header on the homepage or product pages.` };
  },
});
