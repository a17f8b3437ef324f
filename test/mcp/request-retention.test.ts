// An answered MCP request must not stay in memory. The SDK's node adapter gives each request an AbortSignal that
// undici keeps reachable until a finalizer runs after a later collection; anything the request's async scope holds
// rides along, and under load that kept thousands of requests (and the memory they hold) alive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ServerResponse } from 'node:http';
import { startApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { modernRequest, postMcp } from '../helpers/mcp-client.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const CALLS = 20;

for (const revision of ['2025-11-25', '2026-07-28'] as const) {
  test(`MCP ${revision}: no answered tools/call keeps its response alive`, async (t) => {
    const app = await startApp(t);
    await saveFakeScan(app.db, { host: 'kept.example', score: 80 });
    const responses: WeakRef<ServerResponse>[] = [];
    app.server.prependListener('request', (_req, res: ServerResponse) => void responses.push(new WeakRef(res)));

    const args = { name: 'check_merchant_readiness', arguments: { host: 'kept.example' } };
    for (let i = 0; i < CALLS; i++) {
      const { body, headers } =
        revision === '2026-07-28'
          ? modernRequest('tools/call', args, i, args.name)
          : { body: { jsonrpc: '2.0', id: i, method: 'tools/call', params: args }, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } };
      const answer = await postMcp(app, body, headers);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.result?.isError, undefined, JSON.stringify(answer.body));
    }
    assert.equal(responses.length, CALLS);
    for (let i = 0; i < 3; i++) await tick(); // every response's 'close' has run

    // Checked right after the collection, before any finalizer had its turn: what is still alive now is held.
    collect();
    const alive = responses.filter((ref) => ref.deref() !== undefined).length;
    assert.ok(alive <= 1, `${alive} of ${CALLS} answered responses are still reachable`);
  });
}
