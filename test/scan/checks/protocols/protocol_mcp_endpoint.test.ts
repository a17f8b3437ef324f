// protocol_mcp_endpoint: initialize answered and tools/list has a commerce tool → pass; initialize only, or a
// JSON-RPC error → partial; no endpoint or no answer → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { McpProbe } from '../../../../scan/artifacts.js';
import check from '../../../../scan/checks/protocols/protocol_mcp_endpoint.js';
import { ORIGIN, failResource, makeArtifacts, okResource } from '../../../helpers/artifacts.js';

const ENDPOINT = `${ORIGIN}/api/mcp`;
function probe(p: Partial<McpProbe>): McpProbe {
  return {
    endpoint: ENDPOINT,
    initialize: okResource(ENDPOINT, '{}', { contentType: 'application/json' }),
    initializeResult: { protocolVersion: '2025-06-18', serverName: 'storefront' },
    jsonRpcError: null,
    toolsList: okResource(ENDPOINT, '{}', { contentType: 'application/json' }),
    tools: [],
    ...p,
  };
}

describe('protocol_mcp_endpoint', () => {
  it('passes with commerce tools', () => {
    const out = check.run(makeArtifacts({ mcp: probe({ tools: ['search_shop_catalog', 'get_cart', 'update_cart'] }) }));
    assert.equal(out.status, 'pass');
    assert.match(out.evidence, /api\/mcp answered initialize \(storefront; serves 2025-06-18, not the current MCP revision 2026-07-28\); 3 tools incl. search_shop_catalog/);
  });

  it('names the document that declared the endpoint (a card found through a catalog, UCP), none for a platform default', () => {
    const tools = ['search_catalog'];
    const declared = check.run(makeArtifacts({ mcp: probe({ tools, declaredIn: `${ORIGIN}/mcp/server-card` }) }));
    assert.match(declared.evidence, /^https:\/\/store\.example\/api\/mcp \(declared in https:\/\/store\.example\/mcp\/server-card\) answered initialize/);
    const platform = check.run(makeArtifacts({ mcp: probe({ tools, declaredIn: null }) }));
    assert.match(platform.evidence, /^https:\/\/store\.example\/api\/mcp answered initialize/);
  });

  it('is partial without commerce tools, with a failed tools/list, or on a JSON-RPC error', () => {
    const other = check.run(makeArtifacts({ mcp: probe({ tools: ['echo'] }) }));
    assert.equal(other.status, 'partial');
    assert.match(other.evidence, /tools echo are not commerce tools/);
    const failed = check.run(makeArtifacts({ mcp: probe({ toolsList: failResource(ENDPOINT, 'timeout'), tools: [] }) }));
    assert.match(failed.evidence, /tools\/list gave no tools \(.*timeout\)/);
    const rpc = check.run(makeArtifacts({ mcp: probe({ initializeResult: null, jsonRpcError: '-32600 Invalid Request' }) }));
    assert.equal(rpc.status, 'partial');
    assert.match(rpc.evidence, /JSON-RPC error: -32600/);
  });

  it('fails without an endpoint or an answer', () => {
    assert.match(check.run(makeArtifacts()).evidence, /No MCP endpoint declared/);
    const dead = check.run(makeArtifacts({ mcp: probe({ initialize: okResource(ENDPOINT, 'no', { status: 404 }), initializeResult: null, toolsList: null }) }));
    assert.equal(dead.status, 'fail');
    assert.match(dead.evidence, /did not answer server\/discover or initialize .*404/);
  });
});
