// checkout_handoff_url: a UCP/ACP/MCP cart or checkout path, or a platform with cart permalinks → pass; a GET cart
// form or query-parameter cart link → partial; nothing (or POST-only on an unknown platform) → fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import check from '../../../../scan/checks/checkout/checkout_handoff_url.js';
import { ORIGIN, jsonResource, makeArtifacts, makePdp, okResource } from '../../../helpers/artifacts.js';

describe('checkout_handoff_url', () => {
  it('passes on a UCP checkout capability, on ACP checkout, on MCP cart tools and on Shopify', () => {
    const ucp = jsonResource('/.well-known/ucp', { ucp: { version: '2026-01-11', capabilities: [{ name: 'dev.ucp.shopping.checkout' }] } });
    assert.match(check.run(makeArtifacts({ ucp: ucp.resource, ucpJson: ucp.json })).evidence, /UCP capability dev.ucp.shopping.checkout/);
    const acp = jsonResource('/.well-known/acp.json', { protocol: { name: 'acp', version: '2026-04-17' }, capabilities: { services: ['checkout'] } });
    assert.equal(check.run(makeArtifacts({ acp: acp.resource, acpJson: acp.json })).status, 'pass');
    const mcp = {
      endpoint: `${ORIGIN}/api/mcp`,
      initialize: okResource(`${ORIGIN}/api/mcp`, '{}'),
      initializeResult: { protocolVersion: '2025-06-18' },
      jsonRpcError: null,
      toolsList: okResource(`${ORIGIN}/api/mcp`, '{}'),
      tools: ['get_cart', 'update_cart'],
    };
    assert.match(check.run(makeArtifacts({ mcp })).evidence, /MCP tools get_cart, update_cart/);
    const shopify = check.run(makeArtifacts({ platform: 'shopify' }));
    assert.equal(shopify.status, 'pass');
    assert.match(shopify.evidence, /Detected platform shopify/);
  });

  it('is partial on a GET cart form', () => {
    const form = { action: 'https://store.example/basket', method: 'get' as const, inputs: [{ name: 'sku', type: 'hidden', value: '1' }], buttons: [] };
    const out = check.run(makeArtifacts({ pdps: [makePdp({ forms: [form] })] }));
    assert.equal(out.status, 'partial');
    assert.match(out.evidence, /GET form to https:\/\/store.example\/basket/);
  });

  it('fails on a POST-only form on an unknown platform', () => {
    const form = { action: 'https://store.example/cart', method: 'post' as const, inputs: [{ name: 'sku', type: 'hidden', value: '1' }], buttons: [] };
    const out = check.run(makeArtifacts({ pdps: [makePdp({ forms: [form] })] }));
    assert.equal(out.status, 'fail');
    assert.match(out.evidence, /platform other/);
  });
});
