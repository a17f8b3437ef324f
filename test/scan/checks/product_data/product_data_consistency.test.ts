// product_data_consistency: structured price visible on the page and agreeing with OG and stock wording → pass;
// nothing visible to compare, or a mismatch on one PDP of two → partial; a different price, sold-out text with
// InStock, or no structured price → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/product_data/product_data_consistency.js';
import { fact, makeArtifacts, makePdp } from '../../../helpers/artifacts.js';

const product = { price: fact(49.99), currency: fact('EUR'), availability: fact('InStock') };

describe('product_data_consistency', () => {
  it('passes when price, currency and stock agree', () => {
    const pdp = makePdp({ visibleText: 'Cardigan €49,99 In stock Add to bag', meta: { 'og:price:amount': ['49.99'], 'og:price:currency': ['EUR'] } }, product);
    const out = check.run(makeArtifacts({ pdps: [pdp] }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /price 49.99 EUR matches the page, InStock consistent/);
  });

  it('fails on an OpenGraph price that differs (almedina: 10.1400 vs 10.75)', () => {
    const pdp = makePdp({ visibleText: 'The One Device 10,75 € 11,95 €', meta: { 'product:price:amount': ['10.1400'] } }, { price: fact(10.75, 'microdata'), currency: fact('EUR', 'microdata') });
    const out = check.run(makeArtifacts({ pdps: [pdp] }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /OpenGraph price "10.1400" vs structured 10.75/);
  });

  it('fails on "sold out" text with InStock markup and on a different visible price', () => {
    const soldOut = makePdp({ visibleText: 'Garni 570 Easy II 54,50 € Sold out' }, { ...product, price: fact(54.5) });
    assert.match(check.run(makeArtifacts({ pdps: [soldOut] })).evidence, /markup says InStock but the page says "sold out"/);
    const other = makePdp({ h1: 'Cardigan', visibleText: 'Cardigan now only €39.99' }, product);
    const out = check.run(makeArtifacts({ pdps: [other] }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /structured price 49.99 not on the page, which shows "€39.99" next to the product name/);
  });

  it('ignores stock wording and prices far from the buy box (delivery notes, recommendations)', () => {
    const filler = ' lorem ipsum'.repeat(60);
    const text = `Cardigan €49.99 Add to bag${filler} Please note: if we're out of stock of an item we tell you. Related: Scarf €19.99`;
    const out = check.run(makeArtifacts({ pdps: [makePdp({ h1: 'Cardigan', visibleText: text }, product)] }));
    assert.equal(out.status, 'pass');
  });

  it('fails without a structured price', () => {
    const out = check.run(makeArtifacts({ pdps: [makePdp({ visibleText: '£220.00' }, { price: fact(220, 'opengraph') })] }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /no structured price to compare/);
  });

  it('is partial with no visible price, or a mismatch on one PDP of two', () => {
    const hidden = makePdp({ visibleText: 'Cardigan Carregando preço...' }, product);
    const partial = check.run(makeArtifacts({ pdps: [hidden] }));
    assert.equal(partial.status, 'partial');
    assert.match(partial.evidence, /no visible price to compare/);
    const good = makePdp({ visibleText: 'Cardigan €49.99' }, product);
    const bad = makePdp({ url: 'https://store.example/products/b', h1: 'Cardigan', visibleText: 'Cardigan €39.99' }, product);
    assert.equal(check.run(makeArtifacts({ pdps: [good, bad] })).status, 'partial');
  });
});
