// Both MCP revisions on POST /mcp through the real app: the official v2 client pinned to 2026-07-28, the same client
// in its 2025 `legacy` mode and the v1 client each list and call the tools, read a report, get a prompt and complete
// a host; then the 2026-07-28 wire rules with raw requests (server/discover, _meta, cache hints, header checks,
// removed methods, subscriptions/listen, resource not found) and the guards in front of both paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { startApp, type TestApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { connectMcp, connectMcpV2, modernRequest, postMcp } from '../helpers/mcp-client.js';
import { SERVICE_VERSION } from '../../lib/version.js';
import { MCP_LIST_TTL_MS, MCP_READ_TTL_MS } from '../../mcp/server.js';

const MODERN = '2026-07-28';
const textOf = (contents: object[]): string => contents.map((c) => ('text' in c ? String(c.text) : '')).join('');

/** What every client must be able to do, whatever revision it speaks. */
type AnyClient = Awaited<ReturnType<typeof connectMcp>> | Awaited<ReturnType<typeof connectMcpV2>>;
async function usesEverything(client: AnyClient): Promise<void> {
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === 'check_merchant_readiness'));
  const called = (await client.callTool({ name: 'check_merchant_readiness', arguments: { host: 'shop.test' } })) as CallToolResult;
  assert.notEqual(called.isError, true);
  assert.equal((called.structuredContent as { score: number }).score, 70);
  const report = await client.readResource({ uri: 'readiness://reports/shop.test' });
  assert.match(textOf(report.contents), /# shop\.test: 70\/100/);
  const prompt = await client.getPrompt({ name: 'improve_store_readiness', arguments: { host: 'shop.test' } });
  assert.match(JSON.stringify(prompt.messages), /Help me make the online store shop\.test ready/);
  const completed = await client.complete({ ref: { type: 'ref/resource', uri: 'readiness://reports/{host}' }, argument: { name: 'host', value: 'sho' } });
  assert.deepEqual(completed.completion.values, ['shop.test']);
}

async function appWithShop(t: Parameters<typeof startApp>[0]): Promise<TestApp> {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'shop.test', score: 70 });
  return app;
}

test('the v2 client pinned to 2026-07-28 connects through server/discover and uses tools, resources, prompts and completions', async (t) => {
  const app = await appWithShop(t);
  const client = await connectMcpV2(t, app, 'modern');
  assert.equal(client.getProtocolEra(), 'modern');
  const discovered = client.getDiscoverResult();
  assert.ok(discovered?.supportedVersions.includes(MODERN));
  assert.equal(client.getServerVersion()?.version, SERVICE_VERSION);
  await usesEverything(client);
});

test('2025 clients keep working: the v2 client in legacy mode and the v1 client', async (t) => {
  const app = await appWithShop(t);
  const legacy = await connectMcpV2(t, app, 'legacy');
  assert.equal(legacy.getProtocolEra(), 'legacy');
  await usesEverything(legacy);
  const v1 = await connectMcp(t, app);
  assert.equal(v1.getServerVersion()?.name, 'store-readiness');
  await usesEverything(v1);
});

test('server/discover: versions, capabilities, serverInfo and instructions, with resultType and cache hints', async (t) => {
  const app = await startApp(t);
  const { body, headers } = modernRequest('server/discover');
  const res = await postMcp(app, body, headers);
  assert.equal(res.status, 200);
  const result = res.body.result;
  assert.deepEqual(result.supportedVersions, [MODERN]);
  assert.equal(result.resultType, 'complete');
  assert.deepEqual(result.capabilities.tools, { listChanged: false });
  assert.equal(result._meta['io.modelcontextprotocol/serverInfo'].name, 'store-readiness');
  assert.match(result.instructions, /never contact or scan a store/);
  assert.equal(result.ttlMs, MCP_LIST_TTL_MS);
  assert.equal(result.cacheScope, 'public');
});

test('every cacheable 2026-07-28 result carries ttlMs and cacheScope; a tool result carries resultType only', async (t) => {
  const app = await appWithShop(t);
  const cached: [string, Record<string, unknown>, number, string?][] = [
    ['tools/list', {}, MCP_LIST_TTL_MS],
    ['prompts/list', {}, MCP_LIST_TTL_MS],
    ['resources/list', {}, MCP_LIST_TTL_MS],
    ['resources/templates/list', {}, MCP_LIST_TTL_MS],
    ['resources/read', { uri: 'readiness://reports/shop.test' }, MCP_READ_TTL_MS, 'readiness://reports/shop.test'],
  ];
  for (const [method, params, ttl, name] of cached) {
    const { body, headers } = modernRequest(method, params, 1, name);
    const res = await postMcp(app, body, headers);
    assert.equal(res.status, 200, method);
    assert.equal(res.body.result.ttlMs, ttl, method);
    assert.equal(res.body.result.cacheScope, 'public', method);
    assert.equal(res.body.result.resultType, 'complete', method);
  }
  const call = modernRequest('tools/call', { name: 'check_merchant_readiness', arguments: { host: 'shop.test' } }, 2, 'check_merchant_readiness');
  const called = await postMcp(app, call.body, call.headers);
  assert.equal(called.body.result.resultType, 'complete');
  assert.equal(called.body.result.structuredContent.score, 70);
  assert.equal('ttlMs' in called.body.result, false);
  // A 2025 answer is as it was: no 2026 fields.
  const old = await postMcp(app, { jsonrpc: '2.0', id: 3, method: 'tools/list' });
  assert.equal('ttlMs' in old.body.result || 'resultType' in old.body.result, false);
});

test('2026-07-28 requests are checked: _meta envelope (-32602), Mcp-Method/Mcp-Name against the body (-32020)', async (t) => {
  const app = await startApp(t);
  const bad = modernRequest('tools/list');
  (bad.body.params._meta as Record<string, unknown>)['io.modelcontextprotocol/clientCapabilities'] = 'everything';
  const meta = await postMcp(app, bad.body, bad.headers);
  assert.equal(meta.status, 400);
  assert.equal(meta.body.error.code, -32602);
  const list = modernRequest('tools/list');
  const mismatch = await postMcp(app, list.body, { ...list.headers, 'mcp-method': 'prompts/list' });
  assert.equal(mismatch.status, 400);
  assert.equal(mismatch.body.error.code, -32020);
  const call = modernRequest('tools/call', { name: 'check_merchant_readiness', arguments: { host: 'a.test' } }, 1, 'get_readiness_report');
  const wrongName = await postMcp(app, call.body, call.headers);
  assert.equal(wrongName.status, 400);
  assert.equal(wrongName.body.error.code, -32020);
});

test('methods removed in 2026-07-28 are 404 -32601; an unknown report is -32602', async (t) => {
  const app = await startApp(t);
  for (const [method, params] of [['ping', {}], ['logging/setLevel', { level: 'info' }], ['resources/subscribe', { uri: 'readiness://index' }]] as const) {
    const { body, headers } = modernRequest(method, params);
    const res = await postMcp(app, body, headers);
    assert.equal(res.status, 404, method);
    assert.equal(res.body.error.code, -32601, method);
  }
  const uri = 'readiness://reports/never.test';
  const { body, headers } = modernRequest('resources/read', { uri }, 5, uri);
  const missing = await postMcp(app, body, headers);
  assert.equal(missing.body.error.code, -32602);
  assert.equal(missing.body.error.data.next_action.endpoint, '/api/v1/scan');
});

test('subscriptions/listen is acknowledged with no notification types: the lists never change', async (t) => {
  const app = await startApp(t);
  const { body, headers } = modernRequest('subscriptions/listen', { notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true } });
  const controller = new AbortController();
  t.after(() => controller.abort());
  const res = await fetch(`${app.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(body), signal: controller.signal });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
  const ack = JSON.parse(/data: (.*)/.exec(text)![1]);
  assert.equal(ack.method, 'notifications/subscriptions/acknowledged');
  assert.deepEqual(ack.params.notifications, {});
  controller.abort();
});

test('the guards stand in front of the 2026-07-28 path too: Origin, body cap, batches, nesting', async (t) => {
  const app = await startApp(t);
  const { body, headers } = modernRequest('tools/list');
  const foreign = await postMcp(app, body, { ...headers, origin: 'https://evil.example' });
  assert.equal(foreign.status, 403);
  const big = modernRequest('tools/call', { name: 'check_merchant_readiness', arguments: { host: 'x'.repeat(70_000) } }, 1, 'check_merchant_readiness');
  assert.equal((await postMcp(app, big.body, big.headers)).status, 413);
  const batch = await postMcp(app, [body, body], headers);
  assert.equal(batch.status, 400);
  assert.equal(batch.body.error.code, -32600);
  const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":${'['.repeat(100)}${']'.repeat(100)}}}`;
  assert.equal((await postMcp(app, deep, headers)).body.error.code, -32700);
});
