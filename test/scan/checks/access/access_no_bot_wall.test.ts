// access_no_bot_wall: the agent probe gets the same page → pass; 429, a degraded page or a PDP-only block → partial;
// 401/403/503 or a challenge while the neutral request got 2xx → fail (H2). No fail without a successful neutral fetch.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/access/access_no_bot_wall.js';
import { ORIGIN, failResource, makeArtifacts, makePage, makePdp, okResource } from '../../../helpers/artifacts.js';

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
