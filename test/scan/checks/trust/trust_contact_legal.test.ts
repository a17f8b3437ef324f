// trust_contact_legal: a contact route and a terms/privacy link → pass; one of them → partial; neither → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LinkInfo } from '../../../../scan/artifacts.js';
import check from '../../../../scan/checks/trust/trust_contact_legal.js';
import { makeArtifacts, makePage } from '../../../helpers/artifacts.js';

const link = (href: string, text: string): LinkInfo => ({ href, url: href.startsWith('http') ? href : null, text, rel: [] });

describe('trust_contact_legal', () => {
  it('passes with mailto: and a privacy policy', () => {
    const page = makePage({ links: [link('mailto:help@store.example', 'Email us'), link('https://store.example/policies/privacy-policy', 'Privacy')] });
    const out = check.run(makeArtifacts({ homePage: page }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /Contact "Email us" → mailto:help@store.example; legal "Privacy"/);
  });

  it('is partial with only one of the two', () => {
    const out = check.run(makeArtifacts({ homePage: makePage({ links: [link('https://store.example/pages/contact', 'Contact')] }) }));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /no terms or privacy link/);
    const legal = check.run(makeArtifacts({ homePage: makePage({ links: [link('https://store.example/agb', 'AGB')] }) }));
    assert.equal(legal.status, 'partial');
  });

  it('fails with neither', () => {
    const out = check.run(makeArtifacts({ homePage: makePage({ links: [link('https://store.example/collections/all', 'Shop')] }) }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /among 1 links/);
  });
});
