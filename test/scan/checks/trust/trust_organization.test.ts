// trust_organization: Organization with name, url, logo and a contact/verification field → pass; name/url only →
// partial; none → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Entity } from '../../../../scan/artifacts.js';
import check from '../../../../scan/checks/trust/trust_organization.js';
import { makeArtifacts, makePage } from '../../../helpers/artifacts.js';

const org = (types: string[], props: Entity['props']): Entity => ({ types, props, source: 'json-ld' });

describe('trust_organization', () => {
  it('passes on a complete OnlineStore', () => {
    const o = org(['OnlineStore'], { name: ['Acme'], url: ['https://store.example'], logo: ['https://store.example/logo.png'], sameAs: ['https://instagram.com/acme'] });
    const out = check.run(makeArtifacts({ homePage: makePage({ entities: [o] }) }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /OnlineStore "Acme" \(json-ld\) with url, logo, sameAs/);
  });

  it('is partial on name and url only', () => {
    const out = check.run(makeArtifacts({ homePage: makePage({ entities: [org(['Organization'], { name: ['Acme'], url: ['https://store.example'] })] }) }));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /pass needs url, logo and one of/);
  });

  it('fails without an Organization', () => {
    const out = check.run(makeArtifacts({ homePage: makePage({ entities: [org(['WebSite'], { name: ['Acme'] })] }) }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /No Organization/);
  });
});
