// access_ai_policy_declared: a Content-Signal line or groups for ≥ 3 known AI tokens → pass; otherwise (or without
// robots.txt) → fail. No partial grade.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/access/access_ai_policy_declared.js';
import { makeArtifacts, robotsFrom } from '../../../helpers/artifacts.js';

describe('access_ai_policy_declared', () => {
  it('passes on a Content-Signal line', () => {
    const out = check.run(makeArtifacts({ robots: robotsFrom('User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n') }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /Content-Signal/);
  });

  it('passes on three AI groups (any case, versions stripped)', () => {
    const out = check.run(makeArtifacts({ robots: robotsFrom('User-agent: gptbot\nUser-agent: ClaudeBot/1.0\nUser-agent: CCBot\nDisallow: /\n') }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /3 AI agents: gptbot, claudebot, ccbot/);
  });

  it('fails with fewer groups or no robots.txt', () => {
    const two = check.run(makeArtifacts({ robots: robotsFrom('User-agent: GPTBot\nUser-agent: Googlebot\nUser-agent: CCBot\nDisallow: /\n') }));
    assert.equal(two.status, 'fail');
    assert.match(two.evidence, /only 2 AI groups/);
    const none = check.run(makeArtifacts({ robots: robotsFrom('', 404) }));
    assert.equal(none.status, 'fail');
    assert.match(none.evidence, /No robots.txt/);
  });
});
