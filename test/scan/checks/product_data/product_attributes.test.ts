// product_attributes: ≥ 2 filterable attributes on every PDP → pass; otherwise fail (no partial grade).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/product_data/product_attributes.js';
import { makeArtifacts, makePdp } from '../../../helpers/artifacts.js';

describe('product_attributes', () => {
  it('passes with two attributes', () => {
    const out = check.run(makeArtifacts({ pdps: [makePdp({}, { attributes: ['color', 'size'] })] }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /attributes: color, size/);
  });

  it('fails with one, and when only one of two PDPs has enough', () => {
    const one = check.run(makeArtifacts({ pdps: [makePdp({}, { attributes: ['category'] })] }));
    assert.equal(one.status, 'fail');
    assert.match(one.evidence, /attributes: category \(2 needed\)/);
    const mixed = check.run(makeArtifacts({ pdps: [makePdp({}, { attributes: ['color', 'variesBy'] }), makePdp({}, { attributes: [] })] }));
    assert.equal(mixed.status, 'fail');
  });
});
