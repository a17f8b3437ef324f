// product_server_rendered: name and price in the visible HTML → pass; name only (price in JSON-LD/meta) → partial;
// an empty app shell → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/product_data/product_server_rendered.js';
import { fact, makeArtifacts, makePdp } from '../../../helpers/artifacts.js';

describe('product_server_rendered', () => {
  it('passes when name and price are visible (decimal comma, thousands dot)', () => {
    const pdp = makePdp({ h1: 'Storm Jacket', visibleText: 'Home › Jackets Storm Jacket 1.299,00 € inkl. MwSt. In den Warenkorb' }, { name: fact('Storm Jacket'), price: fact(1299) });
    const out = check.run(makeArtifacts({ pdps: [pdp] }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /name "Storm Jacket" and price 1299 visible/);
  });

  it('finds the name when the page omits the variant suffix of the markup name', () => {
    const pdp = makePdp(
      { h1: 'VALLENTUNASofa-bed module', visibleText: 'Sofa-beds\nVALLENTUNA Sofa-bed module with backrests\nShow more images £515' },
      { name: fact('VALLENTUNA Sofa-bed module with backrests - Murum black'), price: fact(515) },
    );
    assert.equal(check.run(makeArtifacts({ pdps: [pdp] })).status, 'pass');
  });

  it('passes on a visible currency amount when no structured price exists', () => {
    const pdp = makePdp({ h1: 'Bralne leče STICK-ON', visibleText: 'Bralne leče STICK-ON 40.00€ Brez DDV: 36.53€' }, { name: null, price: null, markup: 'none' });
    assert.equal(check.run(makeArtifacts({ pdps: [pdp] })).status, 'pass');
  });

  it('is partial when the price is only in the markup ("Carregando preço...")', () => {
    const pdp = makePdp({ h1: 'Cama Box Queen', visibleText: 'Cama Box Queen Carregando preço... Comprar' }, { name: fact('Cama Box Queen'), price: fact(1759.99) });
    const out = check.run(makeArtifacts({ pdps: [pdp] }));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /price only in markup \(1759.99\)/);
  });

  it('fails on an empty app shell', () => {
    const pdp = makePdp({ h1: null, visibleText: '', noscriptText: 'You need to enable JavaScript to run this app.' }, { name: fact('Storm Jacket'), price: fact(189) });
    const out = check.run(makeArtifacts({ pdps: [pdp] }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /no product name in the visible HTML \(0 characters of text\); <noscript> says "You need to enable JavaScript/);
  });
});
