// protocolFlags: the adoption flags of docs/checks.md §8 from real well-known documents of the corpus and hand-set
// check results; null wherever this scan did not look, and always valid against the Protocols schema.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CheckStatus } from '../../scan/checks/check.js';
import { protocolFlags } from '../../scan/protocols.js';
import { CHECKS, runChecks } from '../../scan/checks/registry.js';
import { Protocols } from '../../schemas/scan-result.js';
import { ORIGIN, jsonResource, makeArtifacts, makePdp, okResource, readRealFixture, requireRealFixtures, robotsFrom } from '../helpers/artifacts.js';

function withStatus(statuses: Record<string, CheckStatus>) {
  return CHECKS.map((def) => ({ def, outcome: { status: statuses[def.id] ?? ('fail' as CheckStatus), evidence: '' } }));
}

describe('protocolFlags', () => {
  it('answers null for everything this scan did not fetch', () => {
    const a = makeArtifacts();
    const flags = protocolFlags(a, runChecks(a));
    Protocols.parse(flags);
    assert.deepEqual(flags, {
      ucp: null,
      ucp_version: null,
      ucp_capabilities: [],
      acp: null,
      acp_version: null,
      mcp: false,
      mcp_endpoint: null,
      mcp_tool_count: null,
      mcp_server_card: null,
      a2a: null,
      ap2: null,
      x402: null,
      llms_txt: false,
      markdown_negotiation: null,
      api_catalog: false,
      content_signals: null,
      structured_data: 'none',
      platform: 'other',
      agents_blocked: [],
      waf_blocks_agents: false,
    });
  });

  it('reads the real UCP sample, ACP discovery and server card', (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const read = (f: string) => readRealFixture(dir, join('wellknown', f));
    const ucp = jsonResource('/.well-known/ucp', read('ucp-samples-rest-business-profile-templated-endpoint.ucp.json'));
    const bundle = JSON.parse(read('acp-2026-04-17-examples-agentic-checkout-incl-discovery.json')) as Record<string, unknown>;
    const acp = jsonResource('/.well-known/acp.json', bundle.discovery_response_full);
    const card = jsonResource('/.well-known/mcp/server-card.json', read('mcp-server-card-valid-templated-remote.json'));
    const a = makeArtifacts({
      ucp: ucp.resource,
      ucpJson: ucp.json,
      acp: acp.resource,
      acpJson: acp.json,
      serverCard: card.resource,
      serverCardJson: card.json,
    });
    const flags = protocolFlags(a, runChecks(a));
    Protocols.parse(flags);
    assert.equal(flags.ucp, true);
    assert.equal(flags.ucp_version, '2026-01-11');
    assert.deepEqual(flags.ucp_capabilities, [
      'dev.ucp.shopping.checkout',
      'dev.ucp.shopping.order',
      'dev.ucp.shopping.discount',
      'dev.ucp.shopping.fulfillment',
      'dev.ucp.shopping.buyer_consent',
    ]);
    assert.equal(flags.ap2, false);
    assert.equal(flags.acp, true);
    assert.equal(flags.acp_version, '2026-04-17');
    assert.equal(flags.mcp_server_card, true);
  });

  it('reports MCP, AP2, x402, content signals, markup, blocked agents and the WAF from artifacts and results', () => {
    const ucp = jsonResource('/.well-known/ucp', { ucp: { version: '2026-04-08', capabilities: { 'dev.ucp.shopping.checkout': [], 'dev.ucp.shopping.ap2_mandate': [] } } });
    const endpoint = `${ORIGIN}/api/mcp`;
    const robotsText = 'User-agent: OAI-SearchBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n';
    const a = makeArtifacts({
      ucp: ucp.resource,
      ucpJson: ucp.json,
      robotsTxt: okResource(`${ORIGIN}/robots.txt`, robotsText, { contentType: 'text/plain' }),
      robots: robotsFrom(robotsText),
      mcp: {
        endpoint,
        initialize: okResource(endpoint, '{}'),
        initializeResult: { protocolVersion: '2025-06-18', serverName: 'shop' },
        jsonRpcError: null,
        toolsList: okResource(endpoint, '{}'),
        tools: ['search_shop_catalog', 'get_cart'],
      },
      pdps: [makePdp({}, { markup: 'microdata' }), makePdp({ url: `${ORIGIN}/products/b` }, { markup: 'json-ld' })],
      pdpAgentMarkdown: okResource(`${ORIGIN}/products/widget`, '<html></html>'),
      platform: 'shopify',
      x402: true,
    });
    const flags = protocolFlags(
      a,
      withStatus({ discovery_llms_txt: 'partial', protocol_markdown: 'fail', protocol_api_catalog: 'pass', access_no_bot_wall: 'fail' }),
    );
    Protocols.parse(flags);
    assert.equal(flags.ucp_version, '2026-04-08');
    assert.equal(flags.ap2, true);
    assert.equal(flags.mcp, true);
    assert.equal(flags.mcp_endpoint, endpoint);
    assert.equal(flags.mcp_tool_count, 2);
    assert.equal(flags.x402, true);
    assert.equal(flags.llms_txt, true);
    assert.equal(flags.markdown_negotiation, false);
    assert.equal(flags.api_catalog, true);
    assert.equal(flags.content_signals, true);
    assert.equal(flags.structured_data, 'json-ld');
    assert.equal(flags.platform, 'shopify');
    assert.deepEqual(flags.agents_blocked, ['OAI-SearchBot']);
    assert.equal(flags.waf_blocks_agents, true);
  });

  it('says false, not null, for documents that were fetched and absent', () => {
    const missing = (path: string) => okResource(`${ORIGIN}${path}`, 'Not found', { status: 404 });
    const a = makeArtifacts({
      ucp: missing('/.well-known/ucp'),
      acp: missing('/.well-known/acp.json'),
      serverCard: missing('/.well-known/mcp/server-card.json'),
      robotsTxt: missing('/robots.txt'),
      robots: robotsFrom('', 404),
    });
    const flags = protocolFlags(a, runChecks(a));
    assert.deepEqual([flags.ucp, flags.acp, flags.mcp_server_card, flags.ap2, flags.content_signals], [false, false, false, false, false]);
    assert.deepEqual(flags.agents_blocked, []);
  });
  it('counts a card found through a catalog and an AI-usage header, with robots.txt and the well-known card missing', () => {
    const missing = (path: string) => okResource(`${ORIGIN}${path}`, 'Not found', { status: 404 });
    const card = jsonResource('/mcp/server-card', { name: 'shop/mcp', remotes: [{ type: 'streamable-http', url: `${ORIGIN}/mcp` }] });
    const a = makeArtifacts({
      home: okResource(`${ORIGIN}/`, '<html></html>', { headers: { 'content-usage': 'train-ai=n' } }),
      serverCard: missing('/.well-known/mcp/server-card.json'),
      catalogCard: { resource: card.resource, json: card.json, catalogUrl: `${ORIGIN}/.well-known/ai-catalog.json`, catalogKind: 'ai-catalog', inline: false },
      robotsTxt: missing('/robots.txt'),
      robots: robotsFrom('', 404),
    });
    const flags = protocolFlags(a, runChecks(a));
    assert.equal(flags.mcp_server_card, true);
    assert.equal(flags.content_signals, true);
  });
});
