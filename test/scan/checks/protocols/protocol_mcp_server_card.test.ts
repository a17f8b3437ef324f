// protocol_mcp_server_card on the corpus' real server cards: the templated-remote card passes, the minimal card (no
// endpoint) and the card without a name fail; the older transport.endpoint shape passes too.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/protocols/protocol_mcp_server_card.js';
import { jsonResource, makeArtifacts, readRealFixture, requireRealFixtures } from '../../../helpers/artifacts.js';

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
});
