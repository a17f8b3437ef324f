// Overlapping requests on POST /mcp, each served by a server of its own (mcp/server.ts): 200 overlapping tools/call
// from different clients, all with the same JSON-RPC id, each get their own answer; clients that leave early do
// not disturb the others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { startApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { postMcp } from '../helpers/mcp-client.js';

const call = (host: string, id: number | string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'check_merchant_readiness', arguments: { host } },
});

test('200 overlapping tools/call with the same JSON-RPC id from different clients each get their own answer', async (t) => {
  const app = await startApp(t);
  const N = 200;
  for (let i = 0; i < N; i++) await saveFakeScan(app.db, { host: `s${i}.test`, score: i % 101 });
  // One connection per client: no keep-alive pool shared between them.
  const agents = Array.from({ length: N }, () => new Agent({ keepAlive: false, maxSockets: 1 }));
  t.after(() => agents.forEach((a) => a.destroy()));
  const answers = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const body = JSON.stringify(call(`s${i}.test`, 'same'));
        const req = request(`${app.url}/mcp`, { method: 'POST', agent: agents[i], headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (c) => (text += c)).on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.end(body);
      }),
    ),
  );
  answers.forEach((res, i) => {
    assert.equal(res.status, 200, `client ${i}`);
    assert.equal(res.body.id, 'same', `client ${i}`);
    assert.equal(res.body.result.structuredContent.host, `s${i}.test`, `client ${i}`);
    assert.equal(res.body.result.structuredContent.score, i % 101, `client ${i}`);
  });
});

test('clients that leave before their answer do not disturb the others, and the server keeps serving', async (t) => {
  const app = await startApp(t);
  for (let i = 0; i < 20; i++) await saveFakeScan(app.db, { host: `s${i}.test`, score: 40 + i });
  const leaving = Array.from({ length: 20 }, (_, i) => {
    const controller = new AbortController();
    const sent = fetch(`${app.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call(`s${i}.test`, 1)), signal: controller.signal }).catch(() => null);
    controller.abort();
    return sent;
  });
  const staying = Array.from({ length: 20 }, (_, i) => postMcp(app, call(`s${i}.test`, 1)));
  await Promise.all(leaving);
  const answers = await Promise.all(staying);
  answers.forEach((res, i) => {
    assert.equal(res.status, 200);
    assert.equal(res.body.id, 1);
    assert.equal(res.body.result.structuredContent.score, 40 + i);
  });
  assert.equal((await postMcp(app, { jsonrpc: '2.0', id: 9, method: 'ping' })).body.id, 9);
});

test('what the SDK transport did, the endpoint still does: protocol version, 202s, unknown methods, bad params', async (t) => {
  const app = await startApp(t);
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  const old = await postMcp(app, list, { 'content-type': 'application/json', 'mcp-protocol-version': '1999-01-01' });
  assert.equal(old.status, 400);
  assert.equal(old.body.jsonrpc, '2.0');
  assert.match(old.body.error.message, /protocol version/i);
  assert.equal((await postMcp(app, list, { 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' })).status, 200);
  const init = { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
  const initialized = await postMcp(app, init, { 'content-type': 'application/json', 'mcp-protocol-version': '1999-01-01' });
  assert.equal(initialized.status, 200);
  assert.equal(initialized.body.result.protocolVersion, '2025-06-18');
  const response = await fetch(`${app.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 5, result: {} }) });
  assert.equal(response.status, 202);
  assert.equal(await response.text(), '');
  const unknown = await postMcp(app, { jsonrpc: '2.0', id: 'u', method: 'no/such' });
  assert.equal(unknown.status, 200);
  assert.equal(unknown.body.id, 'u');
  assert.equal(unknown.body.error.code, -32601);
  const badParams = await postMcp(app, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: 'x' });
  assert.equal(badParams.body.id, 7);
  assert.equal(typeof badParams.body.error.code, 'number');
});
