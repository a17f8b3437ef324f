// product_availability: a schema.org ItemAvailability value in the Offer → pass; free text or OG-only → partial;
// missing → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/product_data/product_availability.js';
import { fact, makeArtifacts, makePdp } from '../../../helpers/artifacts.js';

const run = (value: string | null, source: Parameters<typeof fact>[1] = 'json-ld') =>
  check.run(makeArtifacts({ pdps: [makePdp({}, { availability: value === null ? null : fact(value, source) })] }));

describe('product_availability', () => {
  it('passes on short names and schema.org URLs', () => {
    assert.equal(run('InStock').status, 'pass');
    const out = run('http://schema.org/SoldOut', 'microdata');
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /availability "http:\/\/schema.org\/SoldOut" \(microdata\)/);
  });

  it('is partial on free text or OpenGraph only', () => {
    const text = run('Dobavljivo');
    assert.equal(text.status, 'partial');
    assert.match(text.evidence, /not a schema.org ItemAvailability value/);
    const og = run('in stock', 'opengraph');
    assert.equal(og.status, 'partial');
    assert.match(og.evidence, /not in a structured Offer/);
  });

  it('fails when missing, or only read from the visible text', () => {
    const out = run(null);
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /no availability/);
    assert.match(run('InStock', 'html').evidence, /no availability in the markup/);
  });

  it('says a value guessed from a buy button is a guess, not what the page text says', () => {
    const guessed = check.run(makeArtifacts({ pdps: [makePdp({}, { availability: fact('InStock', 'html'), availabilityBasis: 'buy_button' })] }));
    assert.equal(guessed.status, 'fail');
    assert.match(guessed.evidence, /"InStock" only guessed from a buy button; the page states no stock/);
    const stated = check.run(makeArtifacts({ pdps: [makePdp({}, { availability: fact('InStock', 'html'), availabilityBasis: 'text' })] }));
    assert.match(stated.evidence, /only "InStock" stated in the page text/);
  });
});
