// The MCP endpoint check judges a store by the revision its server speaks: a real modern-only server (the official
// v2 SDK with legacy: 'reject') passes with 2026-07-28 in the evidence, a 2025-only server still passes with a note,
// a server answering neither fails. Each store is a loopback fixture scanned through the real app.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { call as get, startApp } from '../helpers/start-app.js';
import { startStoreFrom, type FixtureHandler } from '../helpers/fixture-store.js';
import { STOREFRONT_TOOLS, completeStore, mcpEndpoint } from '../fixtures/stores.js';
import type { ScanResult } from '../../schemas/scan-result.js';

/** A storefront MCP server that serves 2026-07-28 only: 2025 requests (initialize) are refused. */
function modernOnlyMcp(): FixtureHandler {
  const factory = () => {
    const server = new McpServer({ name: 'Modern storefront', version: '1.0.0' });
    for (const name of STOREFRONT_TOOLS) server.registerTool(name, { description: name, inputSchema: z.object({}) }, () => ({ content: [{ type: 'text', text: name }] }));
    return server;
  };
  const node = toNodeHandler(createMcpHandler(factory, { legacy: 'reject' }));
  return (req, res) => void node(req, res);
}

async function scanWith(t: TestContext, mcp: FixtureHandler) {
  const shop = await startStoreFrom((origin) => ({ ...completeStore(origin), '/api/mcp': mcp }));
  t.after(() => shop.close());
  const app = await startApp(t);
  const res = await get(`${app.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`);
  assert.equal(res.status, 200, res.text.slice(0, 300));
  const report = res.body as ScanResult;
  return { shop, report, check: report.pillars.flatMap((p) => p.checks).find((c) => c.id === 'protocol_mcp_endpoint')! };
}

test('a store whose MCP server speaks only 2026-07-28 passes, the revision in the evidence', async (t) => {
  const { shop, report, check } = await scanWith(t, modernOnlyMcp());
  assert.equal(check.status, 'pass', check.evidence);
  assert.match(check.evidence, /answered server\/discover \(Modern storefront; serves 2026-07-28, the current MCP revision\); 4 tools incl\. search_catalog/);
  assert.equal(report.protocols.mcp, true);
  // The fixture really is modern-only: the 2025 handshake gets nothing from it.
  const init = await fetch(`${shop.url.replace(/\/$/, '')}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
  });
  const answer = (await init.json()) as { result?: unknown; error?: { code: number } };
  assert.equal(answer.result, undefined);
  assert.ok(answer.error, JSON.stringify(answer));
});

test('a store whose MCP server speaks only 2025 still passes, with a note that it is not the current revision', async (t) => {
  const { check, report } = await scanWith(t, mcpEndpoint());
  assert.equal(check.status, 'pass', check.evidence);
  assert.match(check.evidence, /answered initialize \(.*storefront; serves 2025-06-18, not the current MCP revision 2026-07-28\)/);
  assert.equal(report.protocols.mcp, true);
});

test('a store whose endpoint answers neither server/discover nor initialize fails', async (t) => {
  const { check, report } = await scanWith(t, (_req, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>'));
  assert.equal(check.status, 'fail');
  assert.match(check.evidence, /did not answer server\/discover or initialize \(.*404/);
  assert.equal(report.protocols.mcp, false);
});
