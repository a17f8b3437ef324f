// Do agent user-agents get the store a neutral client gets? Differential rule (docs/checks.md §5): a block or challenge
// for the agent probe only counts when the neutral request got the page, and it is "as seen from our scanner".
import { defineCheck } from '../check.js';
import type { HttpResponse } from '../../artifacts.js';
import { blockEvidence, challengeMarker, titleOf } from '../bot-wall.js';
import { describe, quote } from '../evidence.js';
import { is2xx, responseOf } from '../../documents/resources.js';

const BLOCK_STATUSES = new Set([401, 403, 503]);

function walled(agent: HttpResponse, neutral: HttpResponse): string | null {
  const marker = challengeMarker(agent, neutral);
  if (marker) return marker;
  return BLOCK_STATUSES.has(agent.status) ? `status ${agent.status}` : null;
}

export default defineCheck({
  id: 'access_no_bot_wall',
  label: 'No bot wall for agent user-agents',
  title: 'Agent user-agents get the same store as browsers',
  failureTitle: 'Let AI agents past your bot protection',
  why: 'Shopping agents announce themselves in the user-agent; a firewall that blocks or challenges them while serving browsers makes the store invisible to agents even when robots.txt allows them.',
  how: 'Your firewall answered an agent user-agent with a block or challenge while browsers get the store. In Cloudflare, allow verified bots and signed agents (AI Crawl Control / WAF skip rule on the verified-bot or ChatGPT agent detection), or create a skip rule for the live agents\' user-agents on catalogue paths; in Akamai, HUMAN, DataDome or Imperva allow their AI-bot categories. Keep protection on checkout and login, not on product pages.',
  fix: {
    plain: 'Let AI shopping assistants past your firewall on product pages, because today they get a block or a challenge that browsers do not get.',
    effort: 'about an hour',
    steps: {
      shopify: 'Shopify itself lets the known assistants in: check any bot-blocking app you installed and any CDN or proxy you put in front of the store, and allow AI agents there.',
      woocommerce: 'Check your security plugin and your host’s firewall: allow verified bots and AI agents on catalogue pages, and keep the protection on login and checkout.',
      bigcommerce: 'Check any bot-protection app and any CDN or proxy you put in front of the store, and allow verified bots and AI agents on catalogue pages.',
      custom: 'In your CDN or firewall (Cloudflare, Akamai, DataDome, HUMAN, Imperva), allow verified bots and the AI-agent category on catalogue pages; keep challenges on checkout and login only.',
    },
  },
  run(a) {
    const neutral = responseOf(a.home);
    const agent = responseOf(a.homeAgent);
    const seen = 'as seen from our scanner';
    if (!neutral || !is2xx(neutral.status)) {
      if (agent && is2xx(agent.status) && !challengeMarker(agent)) {
        return { status: 'pass', evidence: `Agent probe ${agent.url} → ${agent.status}; the neutral request failed (${describe(a.home)}).` };
      }
      return { status: 'partial', evidence: `Not comparable: the neutral request failed (${describe(a.home)}), agent probe ${describe(a.homeAgent)}.` };
    }
    if (!agent) {
      return { status: 'partial', evidence: `Agent probe ${describe(a.homeAgent)} while the neutral request got ${neutral.status} (${seen}).` };
    }
    const wall = walled(agent, neutral);
    if (wall) {
      return {
        status: 'fail',
        evidence: `Agent probe ${agent.url} was blocked (${wall}; ${blockEvidence(agent)}) while the neutral request got ${neutral.status} (${seen}).`,
      };
    }
    if (agent.status === 429) {
      return { status: 'partial', evidence: `Agent probe rate-limited: ${blockEvidence(agent)} while the neutral request got ${neutral.status} (${seen}).` };
    }
    if (!is2xx(agent.status)) {
      return { status: 'partial', evidence: `Agent probe got ${blockEvidence(agent)} while the neutral request got ${neutral.status} (${seen}).` };
    }
    const agentTitle = a.homeAgentPage?.title ?? titleOf(agent);
    const neutralTitle = a.homePage?.title ?? titleOf(neutral);
    const sameTitle = agentTitle !== null && neutralTitle !== null && agentTitle.trim().toLowerCase() === neutralTitle.trim().toLowerCase();
    const ratio = neutral.body.length > 0 ? agent.body.length / neutral.body.length : 1;
    if (!sameTitle && ratio < 0.5) {
      return {
        status: 'partial',
        evidence: `Agent probe got a degraded page: ${agent.body.length} vs ${neutral.body.length} characters, title ${quote(agentTitle ?? '', 80)} vs ${quote(neutralTitle ?? '', 80)} (${seen}).`,
      };
    }

    // R13: the PDP probe. A wall only there (homepage fine) is partial (docs/checks.md §4 access_no_bot_wall).
    const pdpAgent = responseOf(a.pdpAgentMarkdown);
    const pdpNeutral = a.pdps.length > 0 ? responseOf(a.pdps[0].resource) : null;
    if (pdpAgent && pdpNeutral && is2xx(pdpNeutral.status)) {
      const pdpWall = walled(pdpAgent, pdpNeutral);
      if (pdpWall) {
        return {
          status: 'partial',
          evidence: `Homepage served to the agent probe (${agent.status}), but product page ${pdpAgent.url} was blocked (${pdpWall}; ${blockEvidence(pdpAgent)}) while the neutral request got ${pdpNeutral.status} (${seen}).`,
        };
      }
    }
    // Without a product page R13 went to the homepage (gather.ts): the evidence names what was probed.
    const probed = a.pdps.length > 0 ? 'product page probe' : 'homepage Markdown probe';
    const pdpNote = pdpAgent ? `; ${probed} ${pdpAgent.status}` : '';
    return {
      status: 'pass',
      evidence: `Agent probe ${agent.url} → ${agent.status}, same page as the neutral request (title ${quote(agentTitle ?? '', 80)}, ${Math.round(ratio * 100)} % of its size)${pdpNote} (${seen}).`,
    };
  },
});
