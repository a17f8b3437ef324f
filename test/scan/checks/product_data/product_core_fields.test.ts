// product_core_fields: name + image + description ≥ 50 chars → pass; name + one of them → partial; no name → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/product_data/product_core_fields.js';
import { fact, makeArtifacts, makePdp } from '../../../helpers/artifacts.js';

const LONG = 'Three-layer waterproof shell jacket with taped seams, 20k/20k membrane and a helmet-compatible hood.';

describe('product_core_fields', () => {
  it('passes with name, image and a long description', () => {
    const pdp = makePdp({}, { name: fact('Storm Jacket'), images: fact(['https://cdn.store.example/jacket.jpg']), description: fact(LONG) });
    const out = check.run(makeArtifacts({ pdps: [pdp] }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /name "Storm Jacket", 1 image, description \d+ chars/);
  });

  it('is partial with a name and only an image (or a short description)', () => {
    const img = makePdp({}, { name: fact('Storm Jacket'), images: fact(['https://cdn.store.example/jacket.jpg']) });
    assert.equal(check.run(makeArtifacts({ pdps: [img] })).status, 'partial');
    const short = makePdp({}, { name: fact('Storm Jacket'), images: fact(['https://cdn.store.example/jacket.jpg']), description: fact('A jacket.') });
    const out = check.run(makeArtifacts({ pdps: [short] }));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /description 9 chars/);
  });

  it('fails without a name in the markup (a name read from the visible h1 does not count)', () => {
    const out = check.run(makeArtifacts({ pdps: [makePdp({}, { name: fact('Storm Jacket', 'html'), images: fact(['https://cdn.store.example/a.jpg']) })] }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /no product name in the markup/);
  });
});
