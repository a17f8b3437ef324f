// product_brand: Brand/Organization node with a name → pass; plain string → partial; none → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/product_data/product_brand.js';
import { fact, makeArtifacts, makePdp } from '../../../helpers/artifacts.js';

const run = (p: Parameters<typeof makePdp>[1]) => check.run(makeArtifacts({ pdps: [makePdp({}, p)] }));

describe('product_brand', () => {
  it('passes on a Brand node', () => {
    const out = run({ brand: fact('Tommy Hilfiger'), brandIsEntity: true });
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /Brand "Tommy Hilfiger" \(json-ld\)/);
  });

  it('is partial on a plain string', () => {
    const out = run({ brand: fact('Panasonic', 'microdata'), brandIsEntity: false });
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /plain string/);
  });

  it('fails without a brand', () => {
    assert.equal(run({}).status, 'fail');
  });
});
