// trust_return_policy: a complete MerchantReturnPolicy → pass; only a linked returns page, or an incomplete node →
// partial; neither → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Entity } from '../../../../scan/artifacts.js';
import check from '../../../../scan/checks/trust/trust_return_policy.js';
import { makeArtifacts, makePage, makePdp } from '../../../helpers/artifacts.js';

const policy = (props: Entity['props']): Entity => ({ types: ['MerchantReturnPolicy'], props, source: 'json-ld' });

describe('trust_return_policy', () => {
  it('passes on a complete policy on the Offer', () => {
    const p = policy({ applicableCountry: ['DE'], returnPolicyCategory: ['https://schema.org/MerchantReturnFiniteReturnWindow'], merchantReturnDays: ['30'] });
    const out = check.run(makeArtifacts({ pdps: [makePdp({ entities: [p] })] }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /MerchantReturnPolicy: DE, .*FiniteReturnWindow, 30 days/);
  });

  it('passes on a policy with merchantReturnLink on the homepage Organization', () => {
    const out = check.run(makeArtifacts({ homePage: makePage({ entities: [policy({ merchantReturnLink: ['https://store.example/returns'] })] }) }));
    assert.equal(out.status, 'pass');
  });

  it('is partial on a linked returns page or an incomplete node', () => {
    const link = makePage({ links: [{ href: '/policies/refund-policy', url: 'https://store.example/policies/refund-policy', text: 'Refund policy', rel: [] }] });
    const out = check.run(makeArtifacts({ homePage: link }));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /Only a linked returns page: "Refund policy"/);
    const incomplete = policy({ applicableCountry: ['DE'], returnPolicyCategory: ['MerchantReturnFiniteReturnWindow'] });
    const partial = check.run(makeArtifacts({ pdps: [makePdp({ entities: [incomplete] })] }));
    assert.equal(partial.status, 'partial');
    assert.match(partial.evidence, /MerchantReturnPolicy without/);
  });

  it('fails with neither (a "return_to" query parameter is not a returns page)', () => {
    const signin = { href: '/signin?return_to=%2F', url: 'https://store.example/signin?return_to=%2F', text: 'Sign in', rel: [] };
    const out = check.run(makeArtifacts({ homePage: makePage({ links: [{ href: '/about', url: 'https://store.example/about', text: 'About', rel: [] }, signin] }) }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /No MerchantReturnPolicy/);
  });
});
