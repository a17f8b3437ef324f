// trust_shipping_policy: OfferShippingDetails with destination country and rate + currency → pass; only a linked
// shipping page, or a node missing destination/rate → partial; neither → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Entity } from '../../../../scan/artifacts.js';
import check from '../../../../scan/checks/trust/trust_shipping_policy.js';
import { makeArtifacts, makePage, makePdp } from '../../../helpers/artifacts.js';

const node = (types: string[], props: Entity['props']): Entity => ({ types, props, source: 'json-ld' });

describe('trust_shipping_policy', () => {
  it('passes on destination and rate', () => {
    const details = node(['OfferShippingDetails'], {
      shippingDestination: [node(['DefinedRegion'], { addressCountry: ['DE'] })],
      shippingRate: [node(['MonetaryAmount'], { value: ['4.95'], currency: ['EUR'] })],
      deliveryTime: [node(['ShippingDeliveryTime'], {})],
    });
    const out = check.run(makeArtifacts({ pdps: [makePdp({ entities: [details] })] }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /OfferShippingDetails: DE, rate 4.95 EUR, deliveryTime given/);
  });

  it('is partial on a node without a rate, or on a linked shipping page', () => {
    const details = node(['OfferShippingDetails'], { shippingDestination: [node(['DefinedRegion'], { addressCountry: ['DE'] })] });
    assert.equal(check.run(makeArtifacts({ pdps: [makePdp({ entities: [details] })] })).status, 'partial');
    const link = makePage({ links: [{ href: '/versand', url: 'https://store.example/versand', text: 'Versand & Lieferung', rel: [] }] });
    const out = check.run(makeArtifacts({ homePage: link }));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /Only a linked shipping page: "Versand & Lieferung"/);
  });

  it('fails with neither', () => {
    assert.equal(check.run(makeArtifacts({ homePage: makePage() })).status, 'fail');
  });
});
