// trust_reviews: aggregateRating or review on any sampled PDP → pass; none (or no PDP) → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/trust/trust_reviews.js';
import { makeArtifacts, makePdp } from '../../../helpers/artifacts.js';

describe('trust_reviews', () => {
  it('passes when one PDP has ratings', () => {
    const out = check.run(makeArtifacts({ pdps: [makePdp({}, { hasReviews: false }), makePdp({ url: 'https://store.example/products/b' }, { hasReviews: true })] }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /products\/b: aggregateRating or review in the json-ld markup/);
  });

  it('fails without ratings or without product pages', () => {
    assert.match(check.run(makeArtifacts({ pdps: [makePdp()] })).evidence, /No aggregateRating/);
    assert.equal(check.run(makeArtifacts()).evidence, 'no product page found');
  });
});
