// POST /mcp through the real app: the SDK's own client for the protocol, raw fetch for the transport guards
// (docs/security.md O5). The tools read stored data only; a fixture store proves nothing is ever fetched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startApp, type TestApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { connectMcp, postMcp } from '../helpers/mcp-client.js';
import { startFixtureStore } from '../helpers/fixture-store.js';
import { AgentReadyStores, ReadinessReport, ReadinessSummary } from '../../schemas/readiness.js';
import { TOOLS } from '../../tools/index.js';
import { assertWithin } from '../helpers/timing.js';
import { SERVICE_VERSION } from '../../lib/version.js';

// Derived from the registry; test/tools/invariants.test.ts holds every MCP tool to reading stored data only.
const READ_TOOLS = TOOLS.filter((tool) => tool.expose.includes('mcp')).map((tool) => tool.name);

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const textOf = (result: CallToolResult): string => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** The JSON error body of an isError result, as the wrapper writes it. */
function errorBody(result: CallToolResult): { code: string; message: string; next_action?: { method: string; endpoint: string } } {
  assert.equal(result.isError, true, textOf(result));
  assert.equal(result.structuredContent, undefined);
  return JSON.parse(textOf(result));
}

const rpc = (method: string, params?: unknown, id: number | string = 1) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });

test('initialize: server info, instructions and the tools capability', async (t) => {
  const app = await startApp(t);
  const client = await connectMcp(t, app);
  assert.deepEqual(client.getServerVersion(), { name: 'store-readiness', title: 'Store Readiness', version: SERVICE_VERSION });
  assert.ok(client.getServerCapabilities()?.tools);
  assert.match(client.getInstructions() ?? '', /never contact or scan a store/);
});

test('tools/list: exactly the read tools, each fully declared and portable', async (t) => {
  const app = await startApp(t);
  const client = await connectMcp(t, app);
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((tool) => tool.name),
    READ_TOOLS,
  );
  assert.ok(!tools.some((tool) => tool.name === 'scan_store'));
  for (const tool of tools) {
    assert.ok(tool.title && tool.description, tool.name);
    assert.equal(tool.outputSchema?.type, 'object', `${tool.name} outputSchema`);
    assert.deepEqual(tool.annotations, { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false }, tool.name);
    assert.equal(tool.inputSchema.type, 'object');
    assert.ok(tool.inputSchema.properties && typeof tool.inputSchema.properties === 'object', `${tool.name} has properties`);
    for (const combinator of ['anyOf', 'oneOf', 'allOf']) assert.ok(!(combinator in tool.inputSchema), `${tool.name}: no top-level ${combinator}`);
  }
});

test('check_merchant_readiness: structured summary matching the output schema, plus a text block', async (t) => {
  const app = await startApp(t);
  const report = await saveFakeScan(app.db, { host: 'shop.test', score: 82 });
  const client = await connectMcp(t, app);
  await client.listTools(); // the client validates structuredContent against the listed output schemas from here on
  const result = await call(client, 'check_merchant_readiness', { host: 'https://www.shop.test/' });
  assert.notEqual(result.isError, true, textOf(result));
  const data = ReadinessSummary.parse(result.structuredContent);
  assert.equal(data.host, 'shop.test');
  assert.equal(data.score, 82);
  assert.equal(data.grade, 'B');
  assert.equal(data.report_url, `http://localhost:3000/r/${report.scan_id}`);
  assert.deepEqual(data.protocols, report.protocols);
  assert.equal(data.agent_ready_verified, true);
  assert.match(textOf(result), /^shop\.test: 82\/100, grade B/);
  // The JSON comes last (after the untrusted-content note); with no store text in it, it equals structuredContent.
  assert.deepEqual(JSON.parse(textOf(result).split('\n\n').at(-1)!), result.structuredContent);
});

test('get_readiness_report: the full stored report', async (t) => {
  const app = await startApp(t);
  const report = await saveFakeScan(app.db, { host: 'shop.test', score: 64, vertical: 'pets' });
  const client = await connectMcp(t, app);
  await client.listTools();
  const result = await call(client, 'get_readiness_report', { host: 'shop.test' });
  assert.notEqual(result.isError, true, textOf(result));
  assert.deepEqual(result.structuredContent, report);
  assert.equal(ReadinessReport.safeParse(result.structuredContent).success, true);
  assert.ok(textOf(result).length > 0);
});

test('list_agent_ready_stores: ranked agent-ready stores', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'a.test', score: 91, vertical: 'apparel' });
  await saveFakeScan(app.db, { host: 'b.test', score: 75, vertical: 'beauty' });
  await saveFakeScan(app.db, { host: 'c.test', score: 40 });
  const client = await connectMcp(t, app);
  await client.listTools();
  const all = await call(client, 'list_agent_ready_stores', {});
  assert.notEqual(all.isError, true, textOf(all));
  const data = AgentReadyStores.parse(all.structuredContent);
  assert.deepEqual(
    data.stores.map((s) => [s.rank, s.host]),
    [
      [1, 'a.test'],
      [2, 'b.test'],
    ],
  );
  assert.equal(data.total, 3);
  assert.match(textOf(all), /#1 a\.test 91\/100/);
  const beauty = await call(client, 'list_agent_ready_stores', { vertical: 'beauty', limit: 5 });
  assert.deepEqual((beauty.structuredContent as typeof data).stores.map((s) => s.host), ['b.test']);
});

test('unknown and delisted hosts are isError results carrying next_action to the scan endpoint', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'gone.test', score: 80 });
  await app.db.setDelisted('gone.test', true);
  const client = await connectMcp(t, app);
  for (const name of ['check_merchant_readiness', 'get_readiness_report']) {
    for (const host of ['never.test', 'gone.test']) {
      const body = errorBody(await call(client, name, { host }));
      assert.equal(body.code, 'HOST_NOT_FOUND', `${name} ${host}`);
      assert.equal(body.next_action?.method, 'GET');
      assert.equal(body.next_action?.endpoint, '/api/v1/scan');
    }
  }
});

test('bad arguments are isError results that name the field; hostile values never reach a store query', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'shop.test', score: 80 });
  let queries = 0;
  const original = app.db.latestByHost.bind(app.db);
  app.db.latestByHost = async (host) => {
    queries++;
    return original(host);
  };
  const client = await connectMcp(t, app);
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['check_merchant_readiness', {}, /host/],
    ['check_merchant_readiness', { host: 42 }, /host/],
    ['check_merchant_readiness', { host: { $regex: '.*' } }, /host/],
    ['check_merchant_readiness', { host: 'a'.repeat(10_000) }, /host/],
    ['check_merchant_readiness', { host: 'shop.test\u0000' }, /host/],
    ['get_readiness_report', { host: { $regex: '.*' } }, /host/],
    ['get_readiness_report', { host: 'shop.test\u0000' }, /host/],
    ['list_agent_ready_stores', { limit: 1e9 }, /limit/],
    ['list_agent_ready_stores', { limit: 0 }, /limit/],
    ['list_agent_ready_stores', { vertical: 'cars' }, /vertical/],
  ];
  for (const [name, args, field] of cases) {
    const result = await call(client, name, args);
    assert.equal(result.isError, true, `${name} ${JSON.stringify(args).slice(0, 60)}`);
    assert.match(textOf(result), field);
    assert.ok(textOf(result).length < 2000, 'the error does not echo a 10,000-character value in full');
  }
  const invalid = errorBody(await call(client, 'check_merchant_readiness', { host: '<script>alert(1)</script>' }));
  assert.equal(invalid.code, 'INVALID_PARAMS');
  assert.equal(queries, 0);
});

test('scan-like tool names are not found: MCP never scans', async (t) => {
  const app = await startApp(t);
  const client = await connectMcp(t, app);
  // An unknown tool is a protocol error (-32602), as the MCP spec lists it, on every revision.
  for (const name of ['scan_store', 'scan', 'get_scan', 'read_reports', 'get_agent_brief']) {
    const err = await call(client, name, { url: 'https://shop.test' }).then(() => null, (e: unknown) => e as { code?: number; message?: string });
    assert.equal(err?.code, -32602, name);
    assert.match(String(err?.message), /not found/, name);
  }
});

test('no tool call sends a single request to the store it names', async (t) => {
  const fixture = await startFixtureStore({ '*': { body: '<!doctype html><title>shop</title>' } });
  t.after(() => fixture.close());
  const unscanned = await startFixtureStore({ '*': { body: 'x' } });
  t.after(() => unscanned.close());
  const app = await startApp(t);
  const host = `127.0.0.1:${fixture.port}`;
  await saveFakeScan(app.db, { host, score: 88 });
  const client = await connectMcp(t, app);
  for (const h of [host, fixture.url, `127.0.0.1:${unscanned.port}`, unscanned.url]) {
    await call(client, 'check_merchant_readiness', { host: h });
    await call(client, 'get_readiness_report', { host: h });
  }
  await call(client, 'list_agent_ready_stores', { limit: 100 });
  const ok = await call(client, 'check_merchant_readiness', { host });
  assert.notEqual(ok.isError, true, textOf(ok)); // the seeded one really was found
  assert.deepEqual(fixture.requests, []);
  assert.deepEqual(unscanned.requests, []);
  assert.equal(fixture.connections + unscanned.connections, 0);
});

test('an unexpected exception becomes a generic isError result; the internal message stays in the log', async (t) => {
  const app = await startApp(t);
  app.db.latestByHost = async () => {
    throw new Error('secret internal detail at /srv/app/store.ts:12');
  };
  const client = await connectMcp(t, app);
  const result = await call(client, 'check_merchant_readiness', { host: 'shop.test' });
  const body = errorBody(result);
  assert.equal(body.code, 'INTERNAL_ERROR');
  assert.doesNotMatch(textOf(result), /secret|\/srv\/|store\.ts/);
});

test('a plain JSON-RPC POST with only Content-Type: application/json gets a 200 JSON answer', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'shop.test', score: 70 });
  const list = await postMcp(app, rpc('tools/list', undefined, 7));
  assert.equal(list.status, 200);
  assert.match(list.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(list.body.jsonrpc, '2.0');
  assert.equal(list.body.id, 7);
  assert.deepEqual(
    list.body.result.tools.map((tool: { name: string }) => tool.name),
    READ_TOOLS,
  );
  const called = await postMcp(app, rpc('tools/call', { name: 'check_merchant_readiness', arguments: { host: 'shop.test' } }, 'x'));
  assert.equal(called.status, 200);
  assert.equal(called.body.id, 'x');
  assert.equal(called.body.result.structuredContent.score, 70);
  const jsonOnly = await postMcp(app, rpc('tools/list'), { 'content-type': 'application/json', accept: 'application/json' });
  assert.equal(jsonOnly.status, 200);
});

test('GET and DELETE /mcp answer 405 with Allow: POST at once (never an open stream)', async (t) => {
  const app = await startApp(t);
  for (const method of ['GET', 'DELETE', 'PUT']) {
    const started = Date.now();
    const res = await fetch(`${app.url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
    const body = (await res.json()) as { jsonrpc: string };
    assert.equal(res.status, 405, method);
    assert.equal(res.headers.get('allow'), 'POST');
    assert.equal(body.jsonrpc, '2.0');
    assertWithin(`${method} answer`, Date.now() - started, 100); // an open stream would never answer
  }
});

test('malformed JSON is -32700; batches, {} and non-messages are -32600; nothing is HTML', async (t) => {
  const app = await startApp(t);
  const bad = await postMcp(app, '{"jsonrpc": "2.0", "id": 1, "method": ');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, -32700);
  assert.equal(bad.body.id, null);
  const batch = await postMcp(app, Array.from({ length: 50 }, (_, i) => rpc('tools/call', { name: 'check_merchant_readiness', arguments: { host: 'a.test' } }, i)));
  assert.equal(batch.status, 400);
  assert.equal(batch.body.error.code, -32600);
  for (const body of [{}, [], 'null', '42', '"x"', { jsonrpc: '1.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: { a: 1 }, method: 'tools/list' }]) {
    const res = await postMcp(app, typeof body === 'string' ? body : JSON.stringify(body));
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, -32600, JSON.stringify(body));
  }
  const text = await postMcp(app, 'hello', { 'content-type': 'text/plain' });
  assert.equal(text.status, 415);
  assert.equal(text.body.jsonrpc, '2.0');
});

test('a malformed 2025 initialize is -32602 in a sentence, not an internal error; a good one still initializes', async (t) => {
  const app = await startApp(t);
  const clientInfo = { name: 'probe', version: '1' };
  for (const params of [{}, { protocolVersion: 5, capabilities: {}, clientInfo }, { protocolVersion: '2025-11-25', capabilities: {} }, { protocolVersion: null, capabilities: {}, clientInfo }]) {
    const res = await postMcp(app, rpc('initialize', params, 7));
    assert.equal(res.status, 200, JSON.stringify(params));
    assert.equal(res.body.id, 7);
    assert.equal(res.body.error.code, -32602, JSON.stringify(params));
    assert.match(res.body.error.message, /^Invalid params: initialize needs params\.protocolVersion/);
  }
  const good = await postMcp(app, rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo }));
  assert.equal(good.status, 200);
  assert.equal(good.body.result.protocolVersion, '2025-11-25');
});

test('an id nested 20,000 deep is a -32700 and the process keeps serving', async (t) => {
  const app = await startApp(t);
  const depth = 20_000;
  const res = await postMcp(app, `{"jsonrpc":"2.0","id":${'['.repeat(depth)}${']'.repeat(depth)},"method":"tools/list"}`);
  assert.equal(res.status, 400);
  assert.equal(res.body.error.code, -32700);
  const objects = await postMcp(app, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`);
  assert.equal(objects.body.error.code, -32700);
  const after = await postMcp(app, rpc('tools/list'));
  assert.equal(after.status, 200);
});

test('a body over 64 KiB is refused with 413 and a JSON-RPC error', async (t) => {
  const app = await startApp(t);
  const res = await postMcp(app, rpc('tools/call', { name: 'check_merchant_readiness', arguments: { host: 'a'.repeat(100 * 1024) } }));
  assert.equal(res.status, 413);
  assert.equal(res.body.jsonrpc, '2.0');
  assert.equal(typeof res.body.error.code, 'number');
});

async function withOrigin(app: TestApp, origin: string) {
  return postMcp(app, rpc('tools/list'), { 'content-type': 'application/json', origin });
}

test('a foreign Origin is refused with 403; our own origin and configured ones are allowed', async (t) => {
  const app = await startApp(t, { MCP_ALLOWED_ORIGINS: 'https://agent.example, https://other.example' });
  const evil = await withOrigin(app, 'https://evil.test');
  assert.equal(evil.status, 403);
  assert.equal(evil.body.jsonrpc, '2.0');
  assert.equal(evil.body.id, null);
  assert.equal(typeof evil.body.error.code, 'number');
  assert.equal((await withOrigin(app, 'null')).status, 403);
  for (const origin of ['http://localhost:3000', 'https://agent.example', 'https://other.example']) {
    const res = await withOrigin(app, origin);
    assert.equal(res.status, 200, origin);
    assert.equal(res.headers.get('access-control-allow-origin'), origin);
  }
  assert.equal((await postMcp(app, rpc('tools/list'))).status, 200); // no Origin: not a browser
  const preflight = await fetch(`${app.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'https://agent.example' } });
  assert.equal(preflight.status, 204);
  assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
  const evilPreflight = await fetch(`${app.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'https://evil.test' } });
  assert.equal(evilPreflight.status, 403);
});

test('notifications are accepted with 202 and no body', async (t) => {
  const app = await startApp(t);
  const res = await fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  assert.equal(res.status, 202);
});

test('overlapping calls each get their own answer (fresh server per request)', async (t) => {
  const app = await startApp(t);
  for (let i = 0; i < 20; i++) await saveFakeScan(app.db, { host: `s${i}.test`, score: 50 + i });
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      postMcp(app, rpc('tools/call', { name: 'check_merchant_readiness', arguments: { host: `s${i}.test` } }, i)),
    ),
  );
  answers.forEach((res, i) => {
    assert.equal(res.status, 200);
    assert.equal(res.body.id, i);
    assert.equal(res.body.result.structuredContent.score, 50 + i);
  });
});
