// discovery_site_search: WebSite SearchAction with a {search_term_string} target (string or EntryPoint) → pass;
// otherwise fail, noting a GET search form when there is one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Entity } from '../../../../scan/artifacts.js';
import check from '../../../../scan/checks/discovery/discovery_site_search.js';
import { makeArtifacts, makePage } from '../../../helpers/artifacts.js';

const entity = (types: string[], props: Entity['props']): Entity => ({ types, props, source: 'json-ld' });

describe('discovery_site_search', () => {
  it('passes on a SearchAction with a string target', () => {
    const action = entity(['SearchAction'], { target: ['https://store.example/search?q={search_term_string}'], 'query-input': ['required name=search_term_string'] });
    const site = entity(['WebSite'], { potentialAction: [action] });
    const out = check.run(makeArtifacts({ homePage: makePage({ entities: [site, action] }) }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /search\?q=\{search_term_string\}/);
  });

  it('passes on an EntryPoint urlTemplate with a custom placeholder named by query-input', () => {
    const entry = entity(['EntryPoint'], { urlTemplate: ['https://store.example/s?k={query}'] });
    const action = entity(['SearchAction'], { target: [entry], 'query-input': ['required name=query'] });
    const out = check.run(makeArtifacts({ homePage: makePage({ entities: [entity(['WebSite'], { potentialAction: [action] })] }) }));
    assert.equal(out.status, 'pass');
  });

  it('fails without SearchAction and notes a GET search form', () => {
    const page = makePage({ forms: [{ action: 'https://store.example/search', method: 'get', inputs: [{ name: 'q', type: 'search', value: '' }], buttons: [] }] });
    const out = check.run(makeArtifacts({ homePage: page }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /a GET search form exists \(https:\/\/store.example\/search\)/);
  });
});
