// checkout_payment_methods: a recognised method in the HTML, acceptedPaymentMethod, or UCP payment handlers → pass;
// none → fail. The real UCP sample's handlers count.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/checkout/checkout_payment_methods.js';
import { ORIGIN, jsonResource, makeArtifacts, makePage, okResource, readRealFixture, requireRealFixtures } from '../../../helpers/artifacts.js';

describe('checkout_payment_methods', () => {
  it('passes on payment icons in the HTML', () => {
    const body = '<footer><svg aria-labelledby="pi-apple_pay"><title id="pi-apple_pay">Apple Pay</title></svg><img alt="Visa"></footer>';
    const out = check.run(makeArtifacts({ home: okResource(`${ORIGIN}/`, body) }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /Apple Pay, Visa/);
  });

  it('passes on acceptedPaymentMethod and on the real UCP payment handlers', (t) => {
    const page = makePage({ entities: [{ types: ['Offer'], props: { acceptedPaymentMethod: ['http://purl.org/goodrelations/v1#PayPal'] }, source: 'json-ld' }] });
    assert.match(check.run(makeArtifacts({ homePage: page })).evidence, /acceptedPaymentMethod/);
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const ucp = jsonResource('/.well-known/ucp', readRealFixture(dir, join('wellknown', 'ucp-samples-rest-business-profile-templated-endpoint.ucp.json')));
    const out = check.run(makeArtifacts({ ucp: ucp.resource, ucpJson: ucp.json }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /UCP payment handlers: dev.shopify.shop_pay, com.google.pay/);
  });

  it('fails when nothing is named (words like "visage" or a CSS "stripe" class do not count)', () => {
    const out = check.run(makeArtifacts({ home: okResource(`${ORIGIN}/`, '<p class="stripe">Visage serum, ideal for dry skin.</p>') }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /No payment method/);
  });
});
