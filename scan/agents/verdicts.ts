// What the agents matrix says, for the score (access_no_bot_wall) and the report (scan/agents/report.ts) alike:
// which agents met a wall where a browser-like request got the page, which were shown other product facts
// (cloaking), which got a degraded page or a rate limit, and whether only signed requests get in.
import type { AgentMatrix, AgentVisit } from '../artifacts.js';
import { AGENTS, type KnownAgent } from './table.js';
import { walled } from './judge.js';

export type PageKind = 'home' | 'product';

export interface Hit {
  agent: KnownAgent;
  page: PageKind;
  visit: AgentVisit;
}

export interface MatrixVerdicts {
  /** A block or challenge where the browser-like request got the page. */
  walls: Hit[];
  /** Product facts unlike the browser-like request's. */
  cloaked: Hit[];
  degraded: Hit[];
  rateLimited: Hit[];
  /** The unsigned request was walled where the same request signed got the page. */
  signedOnly: boolean;
  /** Walls where the browser-like request (unsigned) was walled too: what a signed-only store does to agents. */
  unsignedWalls: Hit[];
  /** Agents that were asked at least one page. */
  asked: KnownAgent[];
}

const BY_NAME = new Map(AGENTS.map((a) => [a.name, a]));

export function matrixVerdicts(m: AgentMatrix): MatrixVerdicts {
  const hits: Hit[] = [];
  const asked: KnownAgent[] = [];
  for (const run of m.rows) {
    const agent = BY_NAME.get(run.agent);
    if (!agent) continue;
    if (run.home || run.product) asked.push(agent);
    for (const page of ['home', 'product'] as const) {
      const visit = run[page];
      if (visit) hits.push({ agent, page, visit });
    }
  }
  const browserGot = (page: PageKind) => m.baseline[page]?.access === 'served';
  const pair = m.signedPair;
  return {
    walls: hits.filter((h) => walled(h.visit) && browserGot(h.page)),
    cloaked: hits.filter((h) => h.visit.differences.length > 0),
    degraded: hits.filter((h) => h.visit.access === 'degraded' && browserGot(h.page)),
    rateLimited: hits.filter((h) => h.visit.access === 'rate_limited'),
    signedOnly: pair !== null && pair.signed.access === 'served' && walled(pair.unsigned),
    unsignedWalls: hits.filter((h) => walled(h.visit) && walled(m.baseline[h.page])),
    asked,
  };
}

/** The agents of some hits, once each, in the table's order. */
export function agentNames(hits: Hit[]): string[] {
  const names = new Set(hits.map((h) => h.agent.name));
  return AGENTS.filter((a) => names.has(a.name)).map((a) => a.name);
}

/** "403" / "a challenge (Cloudflare challenge platform, 403)" / "429": what one answer was, without its page. */
export function whatHappened(h: Hit): string {
  const v = h.visit;
  if (v.access === 'challenged') return `a challenge (${v.challenge ?? 'challenge page'}${v.status ? `, ${v.status}` : ''})`;
  return `${v.status ?? v.challenge ?? 'no answer'}`;
}

/**
 * Each agent with what it got, pages with the same answer said once: "ChatGPT-User: 403 on the home and product
 * pages; Claude-User: a challenge (cf-mitigated: challenge, 403) on the product page".
 */
export function perAgent(hits: Hit[], say: (h: Hit) => string = whatHappened): string {
  return agentNames(hits)
    .map((name) => {
      const byAnswer = new Map<string, Hit['page'][]>();
      for (const h of hits.filter((x) => x.agent.name === name)) byAnswer.set(say(h), [...(byAnswer.get(say(h)) ?? []), h.page]);
      const parts = [...byAnswer].map(([answer, pages]) => `${answer} on the ${pages.length > 1 ? 'home and product pages' : `${pages[0]} page`}`);
      return `${name}: ${parts.join(' and ')}`;
    })
    .join('; ');
}
