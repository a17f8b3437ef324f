// Every method this server answers, on both revisions, with a wrongly typed parameter: each answers JSON-RPC -32602
// in one sentence that names the parameter, never -32603 with the validator's issue list. A tool's own arguments of
// the wrong type are the tool's to refuse: an isError result, as MCP asks, so a model can correct its call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from '../helpers/start-app.js';
import { modernRequest, postMcp } from '../helpers/mcp-client.js';

/** Each method with params that do not fit it. initialize exists only on 2025; server/discover and subscriptions/listen only on 2026-07-28. */
const BOTH: [string, Record<string, unknown>][] = [
  ['tools/list', { cursor: 5 }],
  ['tools/call', { name: 5, arguments: {} }],
  ['tools/call', { name: 'get_readiness_report', arguments: 'shop.example' }],
  ['resources/list', { cursor: { page: 2 } }],
  ['resources/templates/list', { cursor: [] }],
  ['resources/read', { uri: 123 }],
  ['prompts/list', { cursor: true }],
  ['prompts/get', { name: 5 }],
  ['prompts/get', { name: 'improve_store_readiness', arguments: 5 }],
  ['completion/complete', { ref: 5, argument: { name: 'host', value: 'a' } }],
  ['completion/complete', { ref: { type: 'ref/prompt', name: 'compare_stores' }, argument: { name: 'hosts', value: 7 } }],
];
const LEGACY_ONLY: [string, Record<string, unknown>][] = [
  ['initialize', { protocolVersion: 5, capabilities: {}, clientInfo: { name: 'x', version: '1' } }],
  ['ping', { _meta: 5 }],
];
const MODERN_ONLY: [string, Record<string, unknown>][] = [['subscriptions/listen', { notifications: 'all' }]];

const LEGACY_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

function assertOneSentence(method: string, leg: string, res: { status: number; body: any }): void {
  const what = `${leg} ${method}: ${JSON.stringify(res.body).slice(0, 300)}`;
  assert.equal(res.status, 200, what);
  assert.equal(res.body?.error?.code, -32602, what);
  const message = String(res.body.error.message);
  assert.match(message, /^Invalid params: /, what);
  assert.doesNotMatch(message, /\n|"code":|invalid_type|\[\s*\{/, `${what}: no validator dump`);
  assert.ok(message.length <= 200, what);
  assert.equal(message.match(/\.(\s|$)/g)?.length, 1, `${what}: one sentence`);
}

test('every method with a wrongly typed parameter answers -32602 in one sentence, on the 2025 leg', async (t) => {
  const app = await startApp(t);
  for (const [method, params] of [...BOTH, ...LEGACY_ONLY]) {
    assertOneSentence(method, '2025', await postMcp(app, { jsonrpc: '2.0', id: 7, method, params }, LEGACY_HEADERS));
  }
});

test('every method with a wrongly typed parameter answers -32602 in one sentence, on the 2026-07-28 leg', async (t) => {
  const app = await startApp(t);
  for (const [method, params] of [...BOTH, ...MODERN_ONLY]) {
    const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
    const { body, headers } = modernRequest(method, params, 7, name);
    assertOneSentence(method, '2026', await postMcp(app, body, headers));
  }
});

test("a tool's arguments of the wrong type are an isError result naming the argument, on both legs", async (t) => {
  const app = await startApp(t);
  const params = { name: 'get_readiness_report', arguments: { host: 5 } };
  const modern = modernRequest('tools/call', params, 1, 'get_readiness_report');
  for (const res of [await postMcp(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params }, LEGACY_HEADERS), await postMcp(app, modern.body, modern.headers)]) {
    assert.equal(res.body?.result?.isError, true, JSON.stringify(res.body).slice(0, 300));
    assert.match(res.body.result.content[0].text, /host/);
  }
});
