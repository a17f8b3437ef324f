// product_open_graph: og:type product (or product.item) with price amount + currency and og:image → pass; else fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/product_data/product_open_graph.js';
import { makeArtifacts, makePdp } from '../../../helpers/artifacts.js';

describe('product_open_graph', () => {
  it('passes on product tags (product: and og:price: namespaces)', () => {
    const meta = { 'og:type': ['product.item'], 'product:price:amount': ['17.99'], 'product:price:currency': ['USD'], 'og:image': ['https://cdn.example/a.jpg'] };
    const out = check.run(makeArtifacts({ pdps: [makePdp({ meta })] }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /og:type product.item, price 17.99 USD/);
    const og = { 'og:type': ['product'], 'og:price:amount': ['109.00'], 'og:price:currency': ['EUR'], 'og:image': ['https://cdn.example/b.jpg'] };
    assert.equal(check.run(makeArtifacts({ pdps: [makePdp({ meta: og })] })).status, 'pass');
  });

  it('fails without a price or with another og:type', () => {
    const out = check.run(makeArtifacts({ pdps: [makePdp({ meta: { 'og:type': ['product'], 'og:image': ['https://cdn.example/a.jpg'] } })] }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /no product:price:amount\/currency/);
    const site = check.run(makeArtifacts({ pdps: [makePdp({ meta: { 'og:type': ['website'] } })] }));
    assert.match(site.evidence, /og:type is "website"/);
  });
});
