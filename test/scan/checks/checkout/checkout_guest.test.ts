// checkout_guest: explicit guest wording or a protocol checkout without identity linking → pass; no evidence → partial;
// an account wall ("sign in to checkout", "members only") → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/checkout/checkout_guest.js';
import { jsonResource, makeArtifacts, makePage } from '../../../helpers/artifacts.js';

describe('checkout_guest', () => {
  it('passes on guest wording', () => {
    const out = check.run(makeArtifacts({ homePage: makePage({ visibleText: 'Fast delivery. Checkout as guest or sign in.' }) }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /"checkout as guest"/);
  });

  it('passes on a UCP checkout without identity linking', () => {
    const ucp = jsonResource('/.well-known/ucp', { ucp: { version: '2026-01-11', capabilities: [{ name: 'dev.ucp.shopping.checkout' }] } });
    assert.equal(check.run(makeArtifacts({ ucp: ucp.resource, ucpJson: ucp.json, homePage: makePage() })).status, 'pass');
    const linked = jsonResource('/.well-known/ucp', { ucp: { version: '2026-01-11', capabilities: [{ name: 'dev.ucp.shopping.checkout' }, { name: 'dev.ucp.common.identity_linking' }] } });
    assert.equal(check.run(makeArtifacts({ ucp: linked.resource, ucpJson: linked.json, homePage: makePage() })).status, 'partial');
  });

  it('is partial without evidence either way', () => {
    const out = check.run(makeArtifacts({ homePage: makePage({ visibleText: 'Welcome to our store' }) }));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /No evidence either way/);
  });

  it('fails on an account wall', () => {
    const out = check.run(makeArtifacts({ homePage: makePage({ visibleText: 'Trade prices. Members only — log in to see prices.' }) }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /"members only"/);
  });
});
