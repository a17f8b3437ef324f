// protocol_mcp_server_card on the corpus' real server cards: the templated-remote card passes, the minimal card (no
// endpoint) and the card without a name fail; the older transport.endpoint shape passes too; a card found through a
// catalog (by URL or inline) is judged first and named with the catalog, the well-known card second.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/protocols/protocol_mcp_server_card.js';
import { ORIGIN, jsonResource, makeArtifacts, okResource, readRealFixture, requireRealFixtures } from '../../../helpers/artifacts.js';

function withCard(doc: unknown, contentType = 'application/json') {
  const { resource, json } = jsonResource('/.well-known/mcp/server-card.json', doc, contentType);
  return makeArtifacts({ serverCard: resource, serverCardJson: json });
}

describe('protocol_mcp_server_card', () => {
  it('grades the real cards', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const read = (f: string) => readRealFixture(dir, join('wellknown', f));
    const remote = check.run(withCard(read('mcp-server-card-valid-templated-remote.json')));
    assert.equal(remote.status, 'pass');
    assert.match(remote.evidence, /"example-org\/with-remote" at https:\/\/\{tenant\}.example.com\/mcp/);
    const minimal = check.run(withCard(read('mcp-server-card-valid-minimal.json')));
    assert.equal(minimal.status, 'fail');
    assert.match(minimal.evidence, /lists no endpoint/);
    const noName = check.run(withCard(read('mcp-server-card-invalid-missing-name.json')));
    assert.equal(noName.status, 'fail');
    assert.match(noName.evidence, /no name/);
  });

  it('passes on the SEP-1649 shape and fails when missing', () => {
    const old = check.run(withCard({ serverInfo: { name: 'shop', version: '1' }, transport: { type: 'streamable-http', endpoint: 'https://store.example/mcp' } }));
    assert.equal(old.status, 'pass');
    const missing = check.run(makeArtifacts());
    assert.equal(missing.status, 'fail');
    assert.match(missing.evidence, /server-card.json → not fetched/);
  });

  it('judges the card a catalog points at first, and falls back to the well-known card', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const real = JSON.parse(readRealFixture(dir, join('wellknown', 'mcp-server-card-valid-templated-remote.json'))) as unknown;
    const catalogUrl = `${ORIGIN}/.well-known/ai-catalog.json`;
    const viaUrl = jsonResource('/mcp/server-card', real, 'application/mcp-server-card+json');
    const found = check.run(makeArtifacts({ catalogCard: { resource: viaUrl.resource, json: viaUrl.json, catalogUrl, catalogKind: 'ai-catalog', inline: false } }));
    assert.equal(found.status, 'pass');
    assert.match(found.evidence, /^https:\/\/store\.example\/mcp\/server-card \(found through the AI Catalog https:\/\/store\.example\/\.well-known\/ai-catalog\.json\): "example-org\/with-remote" at /);
    const catalog = okResource(catalogUrl, '{}', { contentType: 'application/ai-catalog+json' });
    const inline = check.run(makeArtifacts({ catalogCard: { resource: catalog, json: real, catalogUrl, catalogKind: 'mcp-catalog', inline: true } }));
    assert.equal(inline.status, 'pass');
    assert.match(inline.evidence, /\(carried inline in the MCP catalog https:\/\/store\.example\/\.well-known\/ai-catalog\.json\)/);
    // The catalog's card has no endpoint (the real minimal card); the well-known card decides.
    const minimal = jsonResource('/mcp/server-card', JSON.parse(readRealFixture(dir, join('wellknown', 'mcp-server-card-valid-minimal.json'))));
    const wellKnown = jsonResource('/.well-known/mcp/server-card.json', real);
    const fallback = check.run(
      makeArtifacts({
        catalogCard: { resource: minimal.resource, json: minimal.json, catalogUrl, catalogKind: 'ai-catalog', inline: false },
        serverCard: wellKnown.resource,
        serverCardJson: wellKnown.json,
      }),
    );
    assert.equal(fallback.status, 'pass');
    assert.match(fallback.evidence, /^https:\/\/store\.example\/\.well-known\/mcp\/server-card\.json: "example-org\/with-remote"/);
    const neither = check.run(makeArtifacts({ catalogCard: { resource: minimal.resource, json: minimal.json, catalogUrl, catalogKind: 'ai-catalog', inline: false } }));
    assert.equal(neither.status, 'fail');
    assert.match(neither.evidence, /\(found through the AI Catalog .*\): card "example-org\/minimal" lists no endpoint .*; Server card .*server-card\.json → not fetched: no JSON server card\.$/);
  });
});
