// access_live_agents_robots: all six live tokens allowed → pass; some blocked (or a 5xx robots.txt) → partial;
// all blocked at / or on every sampled product path → fail, which caps the score (H1, via hardBlock).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/access/access_live_agents_robots.js';
import { ORIGIN, failResource, makeArtifacts, makePdp, okResource, robotsFrom } from '../../../helpers/artifacts.js';

function withRobots(text: string, status = 200, pdpPaths: string[] = []) {
  return makeArtifacts({
    robotsTxt: okResource(`${ORIGIN}/robots.txt`, text, { status, contentType: 'text/plain' }),
    robots: robotsFrom(text, status),
    pdps: pdpPaths.map((p) => makePdp({ url: `${ORIGIN}${p}` })),
  });
}

describe('access_live_agents_robots', () => {
  it('is declared as the H1 hard block', () => {
    assert.equal(check.hardBlock, 'H1');
  });

  it('passes when training bots are refused but live agents are allowed', () => {
    const out = check.run(withRobots('User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /cart\n', 200, ['/products/mug']));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /allows all 6 live agents at \/, \/products\/mug/);
  });

  it('passes without robots.txt (404)', () => {
    const out = check.run(withRobots('', 404));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /No robots.txt/);
  });

  it('is partial when some live agents are blocked', () => {
    const out = check.run(withRobots('User-agent: OAI-SearchBot\nUser-agent: ChatGPT-User\nDisallow: /\n'));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /blocked: OAI-SearchBot, ChatGPT-User/);
    assert.match(out.evidence, /allowed: Claude-SearchBot/);
  });

  it('is partial when Googlebot is blocked, or a live agent only on one product path', () => {
    const g = check.run(withRobots('User-agent: Googlebot\nDisallow: /\n'));
    assert.equal(g.status, 'partial');
    assert.match(g.evidence, /search engines disallowed: Googlebot/);
    const some = check.run(withRobots('User-agent: *\nDisallow: /products/b\n', 200, ['/products/a', '/products/b']));
    assert.equal(some.status, 'partial');
    assert.match(some.evidence, /disallowed on some product paths/);
  });

  it('is partial on a 5xx robots.txt or a timeout, without capping', () => {
    const out = check.run(withRobots('', 503));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /503/);
    const t = makeArtifacts({ robotsTxt: failResource(`${ORIGIN}/robots.txt`, 'timeout') });
    assert.equal(check.run(t).status, 'partial');
  });

  it('fails when every live agent is disallowed at /', () => {
    const out = check.run(withRobots('User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n'));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /disallows every live agent/);
  });

  it('fails when every live agent is disallowed on every sampled product page', () => {
    const out = check.run(withRobots('User-agent: *\nDisallow: /products/\n', 200, ['/products/a', '/products/b']));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /\/products\/a, \/products\/b/);
  });

  it('is partial, not capped, when a live agent has a group without rules under a `*` that disallows all', () => {
    const out = check.run(withRobots('User-agent: *\nDisallow: /\n\nUser-agent: OAI-SearchBot\nContent-Signal: search=yes', 200, ['/products/mug']));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /allowed: OAI-SearchBot/);
  });

  it('blocks every agent of a user-agent run that a Sitemap line interrupts', () => {
    const out = check.run(withRobots('User-agent: Claude-SearchBot\nUser-agent: Claude-User\nSitemap: https://s/sm.xml\nUser-agent: ClaudeBot\nDisallow: /'));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /blocked: Claude-SearchBot, Claude-User;/);
    const all = ['OAI-SearchBot', 'ChatGPT-User', 'Claude-SearchBot', 'Claude-User', 'PerplexityBot', 'Perplexity-User'].map((t) => `User-agent: ${t}`);
    all.splice(3, 0, 'Sitemap: https://s/sm.xml');
    assert.equal(check.run(withRobots(`${all.join('\n')}\nDisallow: /\n`)).status, 'fail');
  });

  it('passes when the Disallow under a misspelt user-agent line would otherwise land on `*`', () => {
    for (const misspelt of ['User agent: BadBot', 'Useragent: BadBot']) {
      const out = check.run(withRobots(`User-agent: *\nDisallow: /cart\n\n${misspelt}\nDisallow: /\n`, 200, ['/products/mug']));
      assert.equal(out.status, 'pass', misspelt);
    }
  });
});
