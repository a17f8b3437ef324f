// product_price: numeric price > 0 with an ISO 4217 currency in a structured Offer → pass; formatted, zero, without
// currency or OpenGraph-only → partial; no price → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/product_data/product_price.js';
import { fact, makeArtifacts, makePdp } from '../../../helpers/artifacts.js';

const run = (p: Parameters<typeof makePdp>[1]) => check.run(makeArtifacts({ pdps: [makePdp({}, p)] }));

describe('product_price', () => {
  it('passes on price and currency in the Offer', () => {
    const out = run({ price: fact(189), priceText: fact('189.00'), currency: fact('EUR') });
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /price 189 \(json-ld\), EUR \(json-ld\)/);
  });

  it('is partial on a formatted string, a zero price, a missing currency or an OG-only price', () => {
    const formatted = run({ price: null, priceText: fact('€1.299,00'), currency: fact('EUR') });
    assert.equal(formatted.status, 'partial');
    assert.match(formatted.evidence, /"€1.299,00" is not a plain number/);
    assert.match(run({ price: fact(0), currency: fact('EUR') }).evidence, /zero price, agents read this item as free/);
    assert.match(run({ price: fact(10.75, 'microdata'), currency: fact('€', 'microdata') }).evidence, /no ISO 4217 priceCurrency/);
    const og = run({ price: fact(109, 'opengraph'), currency: fact('EUR', 'opengraph') });
    assert.equal(og.status, 'partial');
    assert.match(og.evidence, /not in a structured Offer/);
  });

  it('fails without a price, and when the price is only in the visible text', () => {
    const out = run({});
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /no price/);
    const visible = run({ price: fact(220, 'html'), currency: fact('GBP', 'html') });
    assert.equal(visible.status, 'fail');
    assert.match(visible.evidence, /no price in the markup \(only 220 in the visible text\)/);
    const free = run({ price: fact(0, 'html'), currency: fact('GBP', 'html') });
    assert.match(free.evidence, /only 0 in the visible text: agents read this item as free/);
  });
});
