// How one agent's answer compares with the browser-like request's answer for the same page (docs/checks.md §13):
// blocked, challenged, rate-limited, a degraded page, or the page; and on a product page, whether the facts an
// agent quotes (name, price, stock) are the ones a browser-like request got. A bot shown another price or stock is
// cloaking. Pure: the requests are made in scan/fetching/agents-matrix.ts.
import type { AgentAccess, AgentVisit, FactsSeen, HttpResponse, ProductFacts, Resource } from '../artifacts.js';
import { challengeMarker, titleOf } from '../documents/challenge.js';
import { is2xx, responseOf } from '../documents/resources.js';

/** A page this much smaller than the browser-like one, with another title, is not the same page. */
const DEGRADED_RATIO = 0.5;

export function accessOf(res: HttpResponse | null, baseline: HttpResponse | null): { access: AgentAccess; challenge: string | null } {
  if (!res) return { access: 'failed', challenge: null };
  const marker = challengeMarker(res, baseline);
  if (marker) return { access: 'challenged', challenge: marker };
  if (res.status === 429) return { access: 'rate_limited', challenge: null };
  if (res.status >= 400) return { access: 'blocked', challenge: null };
  if (!is2xx(res.status)) return { access: 'failed', challenge: null };
  if (baseline && is2xx(baseline.status) && degraded(res, baseline)) return { access: 'degraded', challenge: null };
  return { access: 'served', challenge: null };
}

function degraded(res: HttpResponse, baseline: HttpResponse): boolean {
  if (baseline.body.length === 0 || res.body.length >= baseline.body.length * DEGRADED_RATIO) return false;
  const a = titleOf(res)?.toLowerCase() ?? null;
  return a === null || a !== titleOf(baseline)?.toLowerCase();
}

export function factsOf(p: ProductFacts | null): FactsSeen | null {
  if (!p) return null;
  return { name: p.name?.value ?? null, price: p.price?.value ?? null, currency: p.currency?.value ?? null, availability: p.availability?.value ?? null };
}

const cap = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const sameText = (a: string | null, b: string | null) => (a ?? '').replace(/\s+/g, ' ').trim().toLowerCase() === (b ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
const money = (f: FactsSeen) => (f.price === null ? 'none' : `${f.price}${f.currency ? ` ${f.currency}` : ''}`);

/** The facts an agent got unlike the browser-like request's, in words; none when the browser-like page had none. */
export function factDifferences(seen: FactsSeen | null, base: FactsSeen | null): string[] {
  if (!base) return [];
  if (!seen) return [`no product facts, where a browser-like request read "${cap(base.name ?? 'a product', 80)}"`];
  const out: string[] = [];
  if (!sameText(seen.name, base.name)) out.push(`name "${cap(seen.name ?? '', 80)}", not "${cap(base.name ?? '', 80)}"`);
  const priceDiffers = (seen.price === null) !== (base.price === null) || (seen.price !== null && base.price !== null && Math.abs(seen.price - base.price) > 0.005);
  if (priceDiffers || !sameText(seen.currency, base.currency)) out.push(`price ${money(seen)}, not ${money(base)}`);
  if (!sameText(seen.availability, base.availability)) out.push(`stock ${seen.availability ?? 'none'}, not ${base.availability ?? 'none'}`);
  return out;
}

export interface VisitInput {
  url: string;
  resource: Resource;
  /** The browser-like answer for the same page; null when it is the browser-like request itself. */
  baseline: HttpResponse | null;
  facts?: FactsSeen | null;
  baselineFacts?: FactsSeen | null;
}

export function visitOf(v: VisitInput): AgentVisit {
  const res = responseOf(v.resource);
  const { access, challenge } = accessOf(res, v.baseline);
  const facts = v.facts ?? null;
  return {
    url: v.url,
    status: res?.status ?? null,
    access,
    challenge: challenge ?? (res || v.resource.ok ? null : cap(`${v.resource.reason}: ${v.resource.detail}`, 120)),
    title: res ? (titleOf(res) ? cap(titleOf(res) as string, 80) : null) : null,
    server: res?.headers.server ? cap(res.headers.server, 40) : null,
    ms: Math.max(0, Math.round(res?.ms ?? 0)),
    facts,
    differences: access === 'served' || access === 'degraded' ? factDifferences(facts, v.baselineFacts ?? null) : [],
  };
}

/** An answer an agent could shop from: the page, as the browser-like request got it. */
export const gotPage = (v: AgentVisit | null): boolean => v?.access === 'served';
/** A wall in front of an agent: a block or a challenge. */
export const walled = (v: AgentVisit | null): boolean => v?.access === 'blocked' || v?.access === 'challenged';
