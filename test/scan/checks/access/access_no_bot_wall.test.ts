// access_no_bot_wall: the agent probe gets the same page → pass; 429, a degraded page or a PDP-only block → partial;
// 401/403/503 or a challenge while the neutral request got 2xx → fail (H2). No fail without a successful neutral fetch.
// With the agents matrix (a root scan): the user fetchers one by one, cloaking and a signed-only door.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/access/access_no_bot_wall.js';
import { ORIGIN, failResource, makeArtifacts, makePage, makePdp, okResource } from '../../../helpers/artifacts.js';
import type { AgentMatrix, AgentVisit } from '../../../../scan/artifacts.js';
import { AGENTS } from '../../../../scan/agents/table.js';
import { CLOAKING_FIX, SIGNED_ONLY_FIX } from '../../../../scan/agents/fixes.js';

const PAGE = `<html><head><title>Acme Store</title></head><body>${'product '.repeat(500)}</body></html>`;

function probe(agentBody: string, opts: Parameters<typeof okResource>[2] = {}, extra = {}) {
  return makeArtifacts({
    home: okResource(`${ORIGIN}/`, PAGE),
    homePage: makePage({ title: 'Acme Store' }),
    homeAgent: okResource(`${ORIGIN}/`, agentBody, opts),
    ...extra,
  });
}

describe('access_no_bot_wall', () => {
  it('passes when the agent probe gets the same page', () => {
    const out = check.run(probe(PAGE, {}, { homeAgentPage: makePage({ title: 'Acme Store' }) }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /same page as the neutral request.*as seen from our scanner/);
  });

  it('fails on 403 with status, server, cf-mitigated and title in the evidence', () => {
    const out = check.run(probe('<title>Attention Required! | Cloudflare</title>', { status: 403, headers: { server: 'cloudflare', 'cf-mitigated': 'challenge' } }));
    assert.equal(out.status, 'fail');
    assert.equal(check.hardBlock, 'H2');
    assert.match(out.evidence, /403, server: cloudflare, cf-mitigated: challenge, title "Attention Required! \| Cloudflare"/);
  });

  it('fails on a 200 challenge page', () => {
    const out = check.run(probe('<html><head><title>Just a moment...</title></head><body>cf-chl-opt</body></html>'));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /Just a moment/);
  });

  it('is partial on 429 and on a degraded page', () => {
    const limited = check.run(probe('slow down', { status: 429 }));
    assert.equal(limited.status, 'partial');
    assert.match(limited.evidence, /rate-limited: 429/);
    const small = check.run(probe('<title>Other</title><body>tiny</body>'));
    assert.equal(small.status, 'partial');
    assert.match(small.evidence, /degraded page/);
  });

  it('names the probe it compared: the product page, or the homepage when the scan found no product page', () => {
    const pdpProbe = okResource(`${ORIGIN}/products/widget`, PAGE);
    const withPdp = check.run(probe(PAGE, {}, { homeAgentPage: makePage({ title: 'Acme Store' }), pdps: [makePdp()], pdpAgentMarkdown: pdpProbe }));
    assert.equal(withPdp.status, 'pass');
    assert.match(withPdp.evidence, /; product page probe 200/);
    const homeProbe = okResource(`${ORIGIN}/`, '# Acme Store', { headers: { 'content-type': 'text/markdown' } });
    const noPdp = check.run(probe(PAGE, {}, { homeAgentPage: makePage({ title: 'Acme Store' }), pdps: [], pdpAgentMarkdown: homeProbe }));
    assert.equal(noPdp.status, 'pass');
    assert.match(noPdp.evidence, /; homepage Markdown probe 200/);
    assert.doesNotMatch(noPdp.evidence, /product page/);
  });

  it('is partial when only the product-page probe is blocked', () => {
    const pdp = makePdp();
    const out = check.run(
      probe(PAGE, {}, {
        homeAgentPage: makePage({ title: 'Acme Store' }),
        pdps: [pdp],
        pdpAgentMarkdown: okResource(`${ORIGIN}/products/widget`, '<title>Access denied</title>', { status: 403 }),
      }),
    );
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /product page .* was blocked \(Access denied page; 403/);
  });

  it('never fails when the neutral request failed too', () => {
    const out = check.run(
      makeArtifacts({ home: okResource(`${ORIGIN}/`, 'down', { status: 503 }), homeAgent: okResource(`${ORIGIN}/`, 'down', { status: 503 }) }),
    );
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /Not comparable/);
    const timeout = check.run(makeArtifacts({ home: okResource(`${ORIGIN}/`, PAGE), homeAgent: failResource(`${ORIGIN}/`, 'timeout') }));
    assert.equal(timeout.status, 'partial');
  });

  it('ignores a captcha marker that the neutral page has too', () => {
    const withRecaptcha = `${PAGE}<script src="https://www.google.com/recaptcha/api.js"></script>`;
    const a = makeArtifacts({ home: okResource(`${ORIGIN}/`, withRecaptcha), homeAgent: okResource(`${ORIGIN}/`, withRecaptcha) });
    assert.equal(check.run(a).status, 'pass');
  });
});

// On a root scan the agents matrix decides (docs/checks.md §13): the user fetchers one by one.
const HOME = `${ORIGIN}/`;
const PRODUCT = `${ORIGIN}/products/widget`;
type Access = AgentVisit['access'];
const visit = (url: string, access: Access = 'served', extra: Partial<AgentVisit> = {}): AgentVisit => ({
  url, status: access === 'served' ? 200 : access === 'rate_limited' ? 429 : 403, access, challenge: access === 'challenged' ? 'cf-mitigated: challenge' : null,
  title: access === 'served' ? 'Acme Store' : 'Just a moment...', server: 'cloudflare', ms: 20, facts: null, differences: [], ...extra,
});
const USER_FETCHERS = AGENTS.filter((a) => a.kind === 'user_fetcher').map((a) => a.name);

function withMatrix(walls: Record<string, { home?: Access; product?: Access; differences?: string[] }>, extra: Partial<AgentMatrix> = {}) {
  const rows = ['ChatGPT-User', 'Claude-User', 'Perplexity-User', 'MistralAI-User', 'OAI-SearchBot', 'GPTBot'].map((agent) => ({
    agent,
    robots: { home: true, product: true },
    home: visit(HOME, walls[agent]?.home),
    product: visit(PRODUCT, walls[agent]?.product, { differences: walls[agent]?.differences ?? [] }),
    skipped: null,
  }));
  const agentMatrix: AgentMatrix = {
    status: 'checked', note: null, homeUrl: HOME, productUrl: PRODUCT,
    baseline: { home: visit(HOME), product: visit(PRODUCT) }, signedPair: null, rows, requests: 12, maxRequests: 24, ...extra,
  };
  return makeArtifacts({ home: okResource(HOME, PAGE), homePage: makePage({ title: 'Acme Store' }), homeAgent: failResource(HOME, 'not-fetched'), agentMatrix });
}

describe('access_no_bot_wall with the agents matrix', () => {
  it('passes when every user fetcher gets both pages as a browser-like request does', () => {
    const out = check.run(withMatrix({}));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, new RegExp(`${USER_FETCHERS.join(', ')} got the home page and the product page as a browser-like request did; 2 crawlers asked too`));
  });

  it('one user fetcher blocked fails the check naming it, without capping the score', () => {
    const out = check.run(withMatrix({ 'ChatGPT-User': { home: 'blocked', product: 'blocked' } }));
    assert.equal(out.status, 'fail');
    assert.equal(out.capReason, null);
    assert.match(out.evidence, /ChatGPT-User: 403 \(server: cloudflare, title "Just a moment\.\.\."\) on the home and product pages/);
    assert.doesNotMatch(out.evidence, /Claude-User/);
  });

  it('every user fetcher walled on a page caps the score (H2)', () => {
    const all = Object.fromEntries(USER_FETCHERS.map((a) => [a, { product: 'challenged' as Access }]));
    const out = check.run(withMatrix(all));
    assert.equal(out.status, 'fail');
    assert.equal(out.capReason, 'H2');
    assert.match(out.evidence, /Claude-User: a challenge \(cf-mitigated: challenge, 403\) \(server: cloudflare, title "Just a moment\.\.\."\) on the product page/);
  });

  it('a training crawler turned away costs nothing (principle 4)', () => {
    assert.equal(check.run(withMatrix({ GPTBot: { home: 'blocked', product: 'blocked' } })).status, 'pass');
  });

  it('cloaking is partial, with its own fix', () => {
    const out = check.run(withMatrix({ 'OAI-SearchBot': { differences: ['price 79 EUR, not 89 EUR'] } }));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /Cloaking: .*OAI-SearchBot: price 79 EUR, not 89 EUR on the product page/);
    assert.equal(out.how, CLOAKING_FIX);
  });

  it('a store that lets only signed requests in is partial: the unsigned agents are refused as the unsigned browser-like request is', () => {
    const all = Object.fromEntries(USER_FETCHERS.map((a) => [a, { product: 'blocked' as Access }]));
    const signedPair = { url: PRODUCT, signed: visit(PRODUCT), unsigned: visit(PRODUCT, 'blocked') };
    const out = check.run(withMatrix(all, { baseline: { home: visit(HOME), product: visit(PRODUCT, 'blocked') }, signedPair }));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /Only signed requests get in: .*signed 200, unsigned with the same user-agent 403; unsigned agents refused too: ChatGPT-User, Claude-User, Perplexity-User, MistralAI-User/);
    assert.equal(out.how, SIGNED_ONLY_FIX);
  });
});
