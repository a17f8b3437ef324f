// product_identifiers: a valid GTIN, or MPN + brand → pass; only SKU, an invalid GTIN, or MPN without brand →
// partial; none → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/product_data/product_identifiers.js';
import { fact, makeArtifacts, makePdp } from '../../../helpers/artifacts.js';

const run = (p: Parameters<typeof makePdp>[1]) => check.run(makeArtifacts({ pdps: [makePdp({}, p)] }));

describe('product_identifiers', () => {
  it('passes on a valid GTIN or on MPN + brand', () => {
    const gtin = run({ gtin: fact('4054278533728', 'microdata'), gtinValid: true });
    assert.equal(gtin.status, 'pass');
    assert.match(gtin.evidence, /GTIN 4054278533728 \(microdata\)/);
    const mpn = run({ mpn: fact('EGO-15-1430'), brand: fact('BST') });
    assert.equal(mpn.status, 'pass');
    assert.match(mpn.evidence, /MPN "EGO-15-1430" with brand "BST"/);
  });

  it('is partial on only a SKU or an invalid GTIN', () => {
    const sku = run({ sku: fact('000051366425') });
    assert.equal(sku.status, 'partial');
    assert.match(sku.evidence, /only SKU "000051366425"/);
    const bad = run({ gtin: fact('32429335302', 'opengraph'), gtinValid: false });
    assert.equal(bad.status, 'partial');
    assert.match(bad.evidence, /fails the length\/check-digit test/);
  });

  it('fails without identifiers (a barcode scraped from text does not count)', () => {
    const out = run({ gtin: fact('6935364088101', 'html'), gtinValid: true });
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /no GTIN, MPN or SKU/);
  });
});
