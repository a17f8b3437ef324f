// access_response_time: home < 1.5 s and PDPs < 2 s → pass; everything < 4 s → partial; ≥ 4 s or a timeout → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/access/access_response_time.js';
import { ORIGIN, failResource, makeArtifacts, makePage, okResource } from '../../../helpers/artifacts.js';

function timed(homeMs: number, pdpMs: number[]) {
  return makeArtifacts({
    home: okResource(`${ORIGIN}/`, '<html></html>', { ms: homeMs }),
    pdps: pdpMs.map((ms, i) => ({
      resource: okResource(`${ORIGIN}/products/p${i}`, '<html></html>', { ms }),
      page: makePage({ url: `${ORIGIN}/products/p${i}` }),
      product: null,
      foundVia: 'sitemap' as const,
    })),
  });
}

describe('access_response_time', () => {
  it('passes on a fast homepage and product pages', () => {
    const out = check.run(timed(800, [1200, 1900]));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /homepage 800 ms; .*p0 1200 ms/);
  });

  it('is partial under 4 s', () => {
    const out = check.run(timed(1500, [2500]));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /homepage 1500 ms/);
  });

  it('fails at 4 s or on a timeout', () => {
    assert.equal(check.run(timed(4000, [])).status, 'fail');
    const pdpTimeout = makeArtifacts({
      home: okResource(`${ORIGIN}/`, '', { ms: 300 }),
      pdps: [{ resource: failResource(`${ORIGIN}/products/a`, 'timeout'), page: null, product: null, foundVia: 'home' }],
    });
    const out = check.run(pdpTimeout);
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /timeout/);
    assert.equal(check.run(makeArtifacts({ home: failResource(`${ORIGIN}/`, 'timeout') })).status, 'fail');
  });
});
