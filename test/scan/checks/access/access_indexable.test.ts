// access_indexable: no noindex/none → pass; only noai/nosnippet-style limits → partial; noindex on a sampled PDP (or
// on the homepage when there is no PDP) → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/access/access_indexable.js';
import { makeArtifacts, makePage, makePdp } from '../../../helpers/artifacts.js';

describe('access_indexable', () => {
  it('passes without blocking directives', () => {
    const out = check.run(makeArtifacts({ homePage: makePage({ robots: ['index', 'follow'] }), pdps: [makePdp()] }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /No noindex\/none directive/);
  });

  it('is partial with only noai or nosnippet', () => {
    const out = check.run(makeArtifacts({ homePage: makePage(), pdps: [makePdp({ robots: ['noai', 'noimageai'] })] }));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /products\/widget: noai, noimageai/);
  });

  it('fails on noindex on a PDP (also from X-Robots-Tag with a bot prefix)', () => {
    const out = check.run(makeArtifacts({ homePage: makePage(), pdps: [makePdp({ robots: ['googlebot: noindex'] })] }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /products\/widget: noindex/);
  });

  it('judges the homepage when there is no PDP', () => {
    const out = check.run(makeArtifacts({ homePage: makePage({ robots: ['none'] }) }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /: none/);
  });
});
