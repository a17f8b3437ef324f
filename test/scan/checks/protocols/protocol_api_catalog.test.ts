// protocol_api_catalog: /.well-known/api-catalog with a JSON linkset → pass (other content types noted); else fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/protocols/protocol_api_catalog.js';
import { ORIGIN, jsonResource, makeArtifacts, okResource } from '../../../helpers/artifacts.js';

const LINKSET = { linkset: [{ anchor: 'https://store.example/api', 'service-desc': [{ href: 'https://store.example/openapi.json' }] }] };

describe('protocol_api_catalog', () => {
  it('passes on a linkset', () => {
    const { resource, json } = jsonResource('/.well-known/api-catalog', LINKSET, 'application/linkset+json');
    const out = check.run(makeArtifacts({ apiCatalog: resource, apiCatalogJson: json }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /api-catalog → 200: linkset with 1 entry\.$/);
    const plain = jsonResource('/.well-known/api-catalog', LINKSET);
    assert.match(check.run(makeArtifacts({ apiCatalog: plain.resource, apiCatalogJson: plain.json })).evidence, /served as application\/json; application\/linkset\+json expected/);
  });

  it('fails when missing or without a linkset', () => {
    const missing = check.run(makeArtifacts({ apiCatalog: okResource(`${ORIGIN}/.well-known/api-catalog`, 'nope', { status: 404 }) }));
    assert.equal(missing.status, 'fail');
    assert.match(missing.evidence, /404 text\/html: no JSON linkset/);
    const { resource, json } = jsonResource('/.well-known/api-catalog', { apis: [] });
    assert.equal(check.run(makeArtifacts({ apiCatalog: resource, apiCatalogJson: json })).status, 'fail');
  });
});
