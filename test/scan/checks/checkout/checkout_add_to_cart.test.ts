// checkout_add_to_cart: a cart form with a product/variant id, or a cart link with an id → pass; a script-bound buy
// button, an off-site purchase or "request a quote" → partial; nothing → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/checkout/checkout_add_to_cart.js';
import { makeArtifacts, makePdp } from '../../../helpers/artifacts.js';

describe('checkout_add_to_cart', () => {
  it('passes on a Shopify-style cart form', () => {
    const form = { action: 'https://store.example/cart/add', method: 'post' as const, inputs: [{ name: 'id', type: 'hidden', value: '4242' }, { name: 'quantity', type: 'number', value: '1' }], buttons: ['Add to cart'] };
    const out = check.run(makeArtifacts({ pdps: [makePdp({ forms: [form] })] }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /<form method=post action=https:\/\/store.example\/cart\/add> with input "id"/);
  });

  it('passes on a WooCommerce form and on a cart permalink', () => {
    const woo = { action: 'https://store.example/product/mug/', method: 'post' as const, inputs: [{ name: 'add-to-cart', type: 'hidden', value: '12' }], buttons: ['Add to basket'] };
    assert.equal(check.run(makeArtifacts({ pdps: [makePdp({ forms: [woo] })] })).status, 'pass');
    const link = { href: '/cart/4242:1', url: 'https://store.example/cart/4242:1', text: 'Buy', rel: [] };
    assert.match(check.run(makeArtifacts({ pdps: [makePdp({ links: [link] })] })).evidence, /cart link https:\/\/store.example\/cart\/4242:1/);
  });

  it('is partial on a script-bound button or on "request a quote"', () => {
    const button = check.run(makeArtifacts({ pdps: [makePdp({ buttons: ['Add to Cart'] })] }));
    assert.equal(button.status, 'partial');
    assert.match(button.evidence, /"add to cart" button without a cart form or URL/);
    assert.equal(check.run(makeArtifacts({ pdps: [makePdp({ buttons: ['Lisa ostukorvi'] })] })).status, 'partial');
    const quote = check.run(makeArtifacts({ pdps: [makePdp({ visibleText: 'Industrial pump. Request a quote today.' })] }));
    assert.equal(quote.status, 'partial');
    assert.match(quote.evidence, /"request a quote" instead of a cart/);
  });

  it('fails with nothing purchasable or without product pages', () => {
    assert.equal(check.run(makeArtifacts({ pdps: [makePdp({ visibleText: 'A nice widget.' })] })).status, 'fail');
    assert.equal(check.run(makeArtifacts()).evidence, 'no product page found');
  });
});
