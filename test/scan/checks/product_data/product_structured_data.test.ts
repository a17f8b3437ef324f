// product_structured_data: JSON-LD Product on every PDP → pass; microdata/RDFa only, JSON-LD on some PDPs only, or
// broken JSON-LD with og:type=product → partial; a product page without markup, or no PDP → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/product_data/product_structured_data.js';
import { makeArtifacts, makePdp } from '../../../helpers/artifacts.js';

const broken = { jsonLd: { blocks: 1, invalidBlocks: 1, raw: [], errors: ['Unexpected token'] } };

describe('product_structured_data', () => {
  it('passes when every PDP has JSON-LD', () => {
    const out = check.run(makeArtifacts({ pdps: [makePdp({}, { markup: 'json-ld' }), makePdp({ url: 'https://store.example/products/b' }, { markup: 'json-ld' })] }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /products\/widget: JSON-LD Product; .*products\/b: JSON-LD/);
  });

  it('is partial on microdata only, on JSON-LD on some PDPs only, and on broken JSON-LD plus og:type', () => {
    assert.equal(check.run(makeArtifacts({ pdps: [makePdp({}, { markup: 'microdata' })] })).status, 'partial');
    const mixed = check.run(makeArtifacts({ pdps: [makePdp({}, { markup: 'json-ld' }), makePdp({ url: 'https://store.example/products/b' }, { markup: 'none' })] }));
    assert.equal(mixed.status, 'partial');
    assert.match(mixed.evidence, /products\/b: product page without markup/);
    const og = check.run(makeArtifacts({ pdps: [makePdp(broken, { markup: 'opengraph' })] }));
    assert.equal(og.status, 'partial');
    assert.match(og.evidence, /only og:type=product, 1 unparseable JSON-LD block/);
  });

  it('fails without a Product entity or without a product page', () => {
    const none = check.run(makeArtifacts({ pdps: [makePdp({}, { markup: 'opengraph' })] }));
    assert.equal(none.status, 'fail');
    assert.match(none.evidence, /no Product entity/);
    const bare = check.run(makeArtifacts({ pdps: [makePdp({ url: 'https://store.example/products/c' }, { markup: 'none' })] }));
    assert.equal(bare.status, 'fail');
    assert.match(bare.evidence, /^https:\/\/store\.example\/products\/c: product page without markup/);
    const noPdp = check.run(makeArtifacts());
    assert.equal(noPdp.status, 'fail');
    assert.equal(noPdp.evidence, 'no product page found');
  });
});
