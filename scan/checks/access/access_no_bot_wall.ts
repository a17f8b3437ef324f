// Do the agents that shop get the store a browser gets? On a scan of a store's root the agents matrix asks as each
// agent (docs/checks.md §13) and this check judges the user fetchers one by one: a block or challenge for any of them
// where a browser-like request got the page fails it, naming them (capped, H2, when it walls every one of them);
// cloaking, a degraded page or a store that lets only signed requests in is partial. Elsewhere (another page of a
// store) the single agent probe R3/R13 decides, by the same differential rule (docs/checks.md §5). Always "as seen
// from our scanner".
import { defineCheck, type CheckOutcome } from '../check.js';
import type { AgentMatrix, Artifacts, HttpResponse } from '../../artifacts.js';
import { blockEvidence } from '../bot-wall.js';
import { challengeMarker, titleOf } from '../../documents/challenge.js';
import { describe, quote } from '../evidence.js';
import { is2xx, responseOf } from '../../documents/resources.js';
import { AGENTS } from '../../agents/table.js';
import { agentNames, matrixVerdicts, perAgent, whatHappened, type Hit } from '../../agents/verdicts.js';
import { BLOCKED_FIX, CLOAKING_FIX, DEGRADED_FIX, SIGNED_ONLY_FIX } from '../../agents/fixes.js';
import { signedOnlyDetail } from '../../agents/report.js';

const BLOCK_STATUSES = new Set([401, 403, 503]);
const SEEN = 'as seen from our scanner';
const USER_FETCHERS = AGENTS.filter((a) => a.kind === 'user_fetcher');

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
  why: 'Shopping agents announce themselves in the user-agent; a firewall that blocks or challenges them while serving browsers makes the store invisible to agents even when robots.txt allows them, and a page shown to bots with another price makes them quote it.',
  how: BLOCKED_FIX,
  fix: {
    plain: 'Let AI shopping assistants past your firewall on product pages, because today they get a block or a challenge that browsers do not get.',
    effort: 'about an hour',
    steps: {
      shopify: 'Shopify itself lets the known assistants in: check any bot-blocking app you installed and any CDN or proxy you put in front of the store (in Cloudflare: AI Crawl Control, set ChatGPT-User, Claude-User, Perplexity-User and MistralAI-User to Allow).',
      woocommerce: 'Check your security plugin (Wordfence, Sucuri, All-In-One Security, the Cloudflare plugin) for bot or user-agent rules that catch AI agents, and your host’s firewall: allow the AI user fetchers on catalogue pages, keep the protection on login and checkout.',
      bigcommerce: 'Check any bot-protection app and any CDN or proxy you put in front of the store, and allow verified bots, signed agents and the AI user fetchers on catalogue pages.',
      custom: 'In Cloudflare: AI Crawl Control → set the AI user fetchers to Allow, and allow verified bots and signed agents in Bot Management; in Akamai, DataDome, HUMAN or Imperva allow their AI-agent category on catalogue pages; keep challenges on checkout and login only.',
    },
  },
  run(a) {
    const neutral = responseOf(a.home);
    if (neutral && is2xx(neutral.status) && a.agentMatrix?.status === 'checked') return byMatrix(a.agentMatrix);
    return byProbe(a, neutral);
  },
});

/** The user fetchers one by one, then cloaking, a signed-only door, degraded pages (docs/checks.md §13). */
function byMatrix(m: AgentMatrix): CheckOutcome {
  const v = matrixVerdicts(m);
  const userWalls = v.walls.filter((h) => h.agent.kind === 'user_fetcher');
  if (userWalls.length > 0) {
    const everyone = (page: Hit['page']) => USER_FETCHERS.every((u) => userWalls.some((h) => h.agent === u && h.page === page));
    return {
      status: 'fail',
      capReason: everyone('home') || everyone('product') ? 'H2' : null,
      evidence: `Blocked where a browser-like request got the page: ${perAgent(userWalls, withEvidence)} (${SEEN}).`,
    };
  }
  const userFetchersAsked = v.asked.filter((a) => a.kind === 'user_fetcher');
  if (v.signedOnly && m.signedPair) {
    return { status: 'partial', evidence: `Only signed requests get in: ${signedOnlyDetail(m.signedPair, agentNames(v.unsignedWalls))} (${SEEN})`, how: SIGNED_ONLY_FIX };
  }
  if (v.cloaked.length > 0) {
    const said = perAgent(v.cloaked, (h) => h.visit.differences.join(', '));
    return { status: 'partial', evidence: `Cloaking: agents were shown other product facts than a browser-like request: ${said} (${SEEN}).`, how: CLOAKING_FIX };
  }
  const userDegraded = v.degraded.filter((h) => h.agent.kind === 'user_fetcher');
  if (userDegraded.length > 0) {
    return { status: 'partial', evidence: `A degraded page for ${perAgent(userDegraded, withEvidence)}: much smaller, with another title (${SEEN}).`, how: DEGRADED_FIX };
  }
  if (userFetchersAsked.length === 0) {
    return { status: 'partial', evidence: `No user fetcher got an answer to compare (${SEEN}).` };
  }
  const crawlers = v.asked.length - userFetchersAsked.length;
  const pages = m.productUrl ? 'the home page and the product page' : 'the home page';
  return {
    status: 'pass',
    evidence: `${userFetchersAsked.map((u) => u.name).join(', ')} got ${pages} as a browser-like request did; ${crawlers} crawlers asked too${m.note ? ` (${m.note})` : ''} (${SEEN}).`,
  };
}

/** What one answer was, with the server and title docs/checks.md §5 asks the evidence to show. */
const withEvidence = (h: Hit): string => {
  const v = h.visit;
  const details = [v.server ? `server: ${v.server}` : '', v.title ? `title ${quote(v.title, 60)}` : ''].filter(Boolean).join(', ');
  return `${whatHappened(h)}${details ? ` (${details})` : ''}`;
};

/** The single agent probe (R3, and R13 on the product page): scans of pages other than a store's root. */
function byProbe(a: Artifacts, neutral: HttpResponse | null): CheckOutcome {
  const agent = responseOf(a.homeAgent);
  if (!neutral || !is2xx(neutral.status)) {
    if (agent && is2xx(agent.status) && !challengeMarker(agent)) {
      return { status: 'pass', evidence: `Agent probe ${agent.url} → ${agent.status}; the neutral request failed (${describe(a.home)}).` };
    }
    return { status: 'partial', evidence: `Not comparable: the neutral request failed (${describe(a.home)}), agent probe ${describe(a.homeAgent)}.` };
  }
  if (!agent) {
    return { status: 'partial', evidence: `Agent probe ${describe(a.homeAgent)} while the neutral request got ${neutral.status} (${SEEN}).` };
  }
  const wall = walled(agent, neutral);
  if (wall) {
    return {
      status: 'fail',
      evidence: `Agent probe ${agent.url} was blocked (${wall}; ${blockEvidence(agent)}) while the neutral request got ${neutral.status} (${SEEN}).`,
    };
  }
  if (agent.status === 429) {
    return { status: 'partial', evidence: `Agent probe rate-limited: ${blockEvidence(agent)} while the neutral request got ${neutral.status} (${SEEN}).` };
  }
  if (!is2xx(agent.status)) {
    return { status: 'partial', evidence: `Agent probe got ${blockEvidence(agent)} while the neutral request got ${neutral.status} (${SEEN}).` };
  }
  const agentTitle = a.homeAgentPage?.title ?? titleOf(agent);
  const neutralTitle = a.homePage?.title ?? titleOf(neutral);
  const sameTitle = agentTitle !== null && neutralTitle !== null && agentTitle.trim().toLowerCase() === neutralTitle.trim().toLowerCase();
  const ratio = neutral.body.length > 0 ? agent.body.length / neutral.body.length : 1;
  if (!sameTitle && ratio < 0.5) {
    return {
      status: 'partial',
      evidence: `Agent probe got a degraded page: ${agent.body.length} vs ${neutral.body.length} characters, title ${quote(agentTitle ?? '', 80)} vs ${quote(neutralTitle ?? '', 80)} (${SEEN}).`,
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
        evidence: `Homepage served to the agent probe (${agent.status}), but product page ${pdpAgent.url} was blocked (${pdpWall}; ${blockEvidence(pdpAgent)}) while the neutral request got ${pdpNeutral.status} (${SEEN}).`,
      };
    }
  }
  // Without a product page R13 went to the homepage (gather.ts): the evidence names what was probed.
  const probed = a.pdps.length > 0 ? 'product page probe' : 'homepage Markdown probe';
  const pdpNote = pdpAgent ? `; ${probed} ${pdpAgent.status}` : '';
  return {
    status: 'pass',
    evidence: `Agent probe ${agent.url} → ${agent.status}, same page as the neutral request (title ${quote(agentTitle ?? '', 80)}, ${Math.round(ratio * 100)} % of its size)${pdpNote} (${SEEN}).`,
  };
}
