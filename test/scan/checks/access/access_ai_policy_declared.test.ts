// access_ai_policy_declared: a Content-Signal or Content-Usage record in robots.txt, the same as a response header on
// the homepage or a product page, or groups for ≥ 3 known AI tokens → pass; otherwise → fail. No partial grade.
// The robots.txt records are the published examples in test/fixtures/protocols.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/access/access_ai_policy_declared.js';
import { ORIGIN, makeArtifacts, makePdp, okResource, readProtocolFixture, robotsFrom } from '../../../helpers/artifacts.js';

describe('access_ai_policy_declared', () => {
  it('passes on a Content-Signal line (Content Signals Policy example)', () => {
    const out = check.run(makeArtifacts({ robots: robotsFrom(readProtocolFixture('content-signals-policy.robots.txt')) }));
    assert.equal(out.status, 'pass');
    assert.equal(out.evidence, 'robots.txt declares Content-Signal: search=yes, ai-train=no.');
  });

  it('passes on a Content-Usage record (IETF aipref attachment example), refusing training included', () => {
    const out = check.run(makeArtifacts({ robots: robotsFrom(readProtocolFixture('aipref-attach-05-content-usage.robots.txt')) }));
    assert.equal(out.status, 'pass');
    assert.equal(out.evidence, 'robots.txt declares Content-Usage: train-ai=n.');
  });

  it('passes on a Content-Usage or Content-Signal response header, even without robots.txt', () => {
    const home = okResource(`${ORIGIN}/`, '<html></html>', { headers: { 'Content-Usage': 'train-ai=n' } });
    const out = check.run(makeArtifacts({ home, robots: robotsFrom('', 404) }));
    assert.equal(out.status, 'pass');
    assert.equal(out.evidence, `${ORIGIN}/ answers with the header Content-Usage: train-ai=n.`);
    const url = `${ORIGIN}/products/a`;
    const pdp = { ...makePdp({ url }), resource: okResource(url, '<html></html>', { headers: { 'content-signal': 'ai-train=no, search=yes, ai-input=yes' } }) };
    const onPdp = check.run(makeArtifacts({ pdps: [pdp], robots: robotsFrom('User-agent: *\nDisallow: /cart\n') }));
    assert.equal(onPdp.status, 'pass');
    assert.match(onPdp.evidence, /products\/a answers with the header Content-Signal: ai-train=no/);
  });

  it('passes on three AI groups (any case, versions stripped)', () => {
    const out = check.run(makeArtifacts({ robots: robotsFrom('User-agent: gptbot\nUser-agent: ClaudeBot/1.0\nUser-agent: CCBot\nDisallow: /\n') }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /3 AI agents: gptbot, claudebot, ccbot/);
  });

  it('fails with fewer groups, empty records, or no robots.txt and no header', () => {
    const two = check.run(makeArtifacts({ robots: robotsFrom('User-agent: GPTBot\nUser-agent: Googlebot\nUser-agent: CCBot\nDisallow: /\n') }));
    assert.equal(two.status, 'fail');
    assert.match(two.evidence, /only 2 AI groups/);
    const empty = check.run(makeArtifacts({ robots: robotsFrom('User-agent: *\nContent-Signal:\nContent-Usage: \nAllow: /\n') }));
    assert.equal(empty.status, 'fail');
    const none = check.run(makeArtifacts({ robots: robotsFrom('', 404) }));
    assert.equal(none.status, 'fail');
    assert.match(none.evidence, /^no robots.txt .*no Content-Signal or Content-Usage response header/);
  });
});
