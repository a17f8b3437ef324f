// The `agents` part of a scan result (schemas/agents.ts): the matrix's rows in the table's order with their robots
// verdicts, the browser agents' row from the browser view, the signed/unsigned pair, and the findings with fixes.
import type { AgentMatrix, AgentRun, AgentVisit } from '../artifacts.js';
import type { Agents } from '../../schemas/agents.js';
import type { BrowserView } from '../../schemas/browser-view.js';
import type { RequestSigner } from '../../outbound/request-signer.js';
import { NEUTRAL_UA } from '../../outbound/fetch.js';
import { AGENTS, type KnownAgent } from './table.js';
import { agentNames, matrixVerdicts, perAgent, type Hit } from './verdicts.js';
import { BLOCKED_FIX, CLOAKING_FIX, DEGRADED_FIX, RATE_LIMIT_FIX, SIGNED_ONLY_FIX } from './fixes.js';

type Row = Agents['rows'][number];
type Visit = Agents['rows'][number]['home'];
type Finding = Agents['findings'][number];

export interface ReportInput {
  matrix: AgentMatrix | undefined;
  browserView: BrowserView | undefined;
  signer: RequestSigner | undefined;
  /** Why no matrix ran on this scan, when none did. */
  notRun: string | null;
  baseUrl: string;
}

export function agentsReport(r: ReportInput): Agents {
  const m = r.matrix;
  const signature = signatureOf(m, r.signer);
  if (!m || m.status !== 'checked') {
    return { status: 'not_run', note: m?.note ?? r.notRun ?? 'Not run.', baseline: null, signature, rows: [], findings: [], requests: m?.requests ?? 0, max_requests: m?.maxRequests ?? 0 };
  }
  const runs = new Map(m.rows.map((run) => [run.agent, run]));
  return {
    status: 'checked',
    note: m.note,
    baseline: { user_agent: NEUTRAL_UA(r.baseUrl), home: visitOut(m.baseline.home), product: visitOut(m.baseline.product) },
    signature,
    rows: AGENTS.map((agent) => (agent.kind === 'browser' ? browserRow(agent, r.browserView) : matrixRow(agent, runs.get(agent.name)))),
    findings: findingsOf(m),
    requests: m.requests,
    max_requests: m.maxRequests,
  };
}

function visitOut(v: AgentVisit | null): Visit {
  return v && { url: v.url, status: v.status, access: v.access, challenge: v.challenge, ms: v.ms, differences: v.differences };
}

function described(agent: KnownAgent): Pick<Row, 'agent' | 'operator' | 'kind' | 'purpose' | 'robots_token' | 'user_agent' | 'source'> {
  return { agent: agent.name, operator: agent.operator, kind: agent.kind, purpose: agent.purpose, robots_token: agent.token, user_agent: agent.userAgent, source: agent.source };
}

function matrixRow(agent: KnownAgent, run: AgentRun | undefined): Row {
  const visits = [run?.home, run?.product].filter((v): v is AgentVisit => Boolean(v));
  const product = run?.product ?? null;
  return {
    ...described(agent),
    robots: run?.robots ?? { home: null, product: null },
    home: visitOut(run?.home ?? null),
    product: visitOut(product),
    got_page: visits.length === 0 ? null : visits.every((v) => v.access === 'served'),
    same_facts: product && product.facts !== null ? product.differences.length === 0 : product && product.differences.length > 0 ? false : null,
    note: run?.skipped ?? agent.note ?? null,
  };
}

/** Browser agents' row: the pages the browser view rendered, each as served, challenged or failed. */
function browserRow(agent: KnownAgent, view: BrowserView | undefined): Row {
  const pages = view?.status === 'rendered' && Array.isArray(view.pages) ? view.pages : [];
  const visit = (kind: 'home' | 'product'): Visit => {
    const p = pages.find((x) => x.kind === kind);
    if (!p) return null;
    const access = p.challenge ? 'challenged' : p.outcome === 'rendered' ? 'served' : 'failed';
    return { url: p.url, status: p.http_status, access, challenge: p.challenge ?? (p.outcome === 'rendered' ? null : p.detail), ms: null, differences: [] };
  };
  const home = visit('home');
  const product = visit('product');
  const asked = [home, product].filter((v) => v !== null);
  return {
    ...described(agent),
    robots: { home: null, product: null },
    home,
    product,
    got_page: asked.length === 0 ? null : asked.every((v) => v.access === 'served'),
    same_facts: null,
    note: view?.status === 'rendered' ? (agent.note ?? null) : (view?.note ?? 'The browser view did not run on this scan.'),
  };
}

function signatureOf(m: AgentMatrix | undefined, signer: RequestSigner | undefined): Agents['signature'] {
  const pair = m?.signedPair ?? null;
  const got = (v: AgentVisit) => v.access === 'served';
  const verdict = !pair ? 'not_compared' : got(pair.signed) === got(pair.unsigned) ? 'same' : got(pair.signed) ? 'signed_only' : 'unsigned_only';
  return {
    signing: signer !== undefined,
    signature_agent: signer?.signatureAgent ?? null,
    key_id: signer?.keyId ?? null,
    url: pair?.url ?? null,
    signed_status: pair?.signed.status ?? null,
    unsigned_status: pair?.unsigned.status ?? null,
    verdict,
  };
}

/** "https://…/p: signed 200, unsigned with the same user-agent 403; refused too: ChatGPT-User, Claude-User." */
export function signedOnlyDetail(pair: NonNullable<AgentMatrix['signedPair']>, refused: string[]): string {
  const unsigned = pair.unsigned.access === 'challenged' ? `a challenge (${pair.unsigned.challenge})` : String(pair.unsigned.status ?? 'no answer');
  return `${pair.url}: signed ${pair.signed.status}, unsigned with the same user-agent ${unsigned}${refused.length > 0 ? `; unsigned agents refused too: ${refused.join(', ')}` : ''}.`;
}

const differencesOf = (h: Hit) => h.visit.differences.join(', ');

function findingsOf(m: AgentMatrix): Finding[] {
  const v = matrixVerdicts(m);
  const out: Finding[] = [];
  const add = (id: Finding['id'], hits: Hit[], title: string, detail: string, fix: string) => {
    if (hits.length > 0) out.push({ id, agents: agentNames(hits), title, detail, fix });
  };
  add('agents_blocked', v.walls, 'AI agents are blocked or challenged where a browser gets the page', `${perAgent(v.walls)}, while a browser-like request got the page (as seen from our scanner).`, BLOCKED_FIX);
  if (v.signedOnly && m.signedPair) {
    const refused = agentNames(v.unsignedWalls);
    out.push({ id: 'signed_agents_only', agents: refused, title: 'Only signed requests get in', detail: signedOnlyDetail(m.signedPair, refused), fix: SIGNED_ONLY_FIX });
  }
  add('cloaking', v.cloaked, 'Agents are shown other product facts than shoppers', `${perAgent(v.cloaked, differencesOf)}.`, CLOAKING_FIX);
  add('agents_degraded', v.degraded, 'Agents get a smaller page than shoppers', `${perAgent(v.degraded)}: a much smaller page with another title.`, DEGRADED_FIX);
  add('agents_rate_limited', v.rateLimited, 'Agents were rate-limited', `${perAgent(v.rateLimited)}.`, RATE_LIMIT_FIX);
  return out;
}
