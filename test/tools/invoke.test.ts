// tools/invoke.ts is the one way a tool is called: the REST API, the MCP server, the home-page form and the
// monitoring worker each go through it (watched through the app's invoke observer), and a refused call runs
// neither the handler nor the count.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { z } from 'zod';
import { call, startApp } from '../helpers/start-app.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { brochureStore } from '../fixtures/stores.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { monitorScan } from '../../server/monitoring.js';
import { invoke } from '../../tools/invoke.js';
import { defineTool } from '../../tools/tool.js';
import { toolContextForTest } from '../helpers/tool-context.js';
import { AppError } from '../../lib/errors.js';

test('REST, MCP, the home form and the monitoring worker each call tools through invoke', async (t) => {
  const app = await startApp(t);
  const shop = await startStoreFrom(brochureStore);
  t.after(() => shop.close());
  const seen: string[] = [];
  app.state.observeInvoke = (name) => void seen.push(name);
  const since = (mark: number) => seen.slice(mark);

  let mark = seen.length;
  const rest = await call(`${app.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`);
  assert.equal(rest.status, 200);
  assert.deepEqual(since(mark), ['scan_store'], 'REST');

  mark = seen.length;
  const stored = await call(`${app.url}/api/v1/scan/${rest.body.scan_id}.json`);
  assert.equal(stored.status, 200);
  assert.deepEqual(since(mark), ['get_scan'], 'REST, a stored answer');

  mark = seen.length;
  const client = await connectMcp(t, app);
  const answered = await client.callTool({ name: 'check_merchant_readiness', arguments: { host: rest.body.host } });
  assert.equal(answered.isError, undefined);
  assert.deepEqual(since(mark), ['check_merchant_readiness'], 'MCP');

  mark = seen.length;
  const form = await fetch(`${app.url}/scan`, { method: 'POST', body: new URLSearchParams({ url: shop.url }), headers: { accept: 'text/html' }, redirect: 'manual' });
  assert.equal(form.status, 303);
  assert.deepEqual(since(mark), ['scan_store'], 'the home form');

  mark = seen.length;
  const scheduled = monitorScan({ config: app.config, db: app.db, state: app.state, log: pino({ level: 'silent' }) });
  const monitored = await scheduled({ origin: shop.origin, host: rest.body.host, accountId: 'acct_owner' });
  assert.ok('scanId' in monitored, JSON.stringify(monitored));
  assert.deepEqual(since(mark), ['scan_store'], 'the monitoring worker');
});

test('invoke: validate, preflight, count, handler, release, in that order; a refusal stops the rest', async (t) => {
  const { ctx } = await toolContextForTest(t);
  const steps: string[] = [];
  const tool = defineTool({
    name: 'probe',
    title: 'Probe',
    description: 'Records the steps of a call.',
    input: z.object({ n: z.int().min(1) }),
    output: z.object({ n: z.int() }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false },
    expose: [],
    preflight: ({ n }) => {
      steps.push('preflight');
      if (n === 2) throw new AppError('SCANNER_BUSY', 'busy');
      return { n, release: () => void steps.push('release') };
    },
    async handler({ n }, _ctx, prepared) {
      steps.push(`handler ${prepared?.n}`);
      if (n === 3) throw new Error('broke');
      return { n };
    },
  });
  const count = async () => void steps.push('count');
  const run = (args: unknown) => invoke(tool, args, { context: () => (steps.push('context'), ctx), count });

  assert.deepEqual(await run({ n: 1 }), { value: { n: 1 } });
  assert.deepEqual(steps.splice(0), ['context', 'preflight', 'count', 'handler 1', 'release']);

  await assert.rejects(run({ n: 0 }), (err: AppError) => err.code === 'INVALID_PARAMS' && /n:/.test(err.message));
  assert.deepEqual(steps.splice(0), [], 'invalid arguments: no context, nothing counted');

  await assert.rejects(run({ n: 2 }), (err: AppError) => err.code === 'SCANNER_BUSY');
  assert.deepEqual(steps.splice(0), ['context', 'preflight'], 'a preflight refusal: nothing counted');

  await assert.rejects(run({ n: 3 }), /broke/);
  assert.deepEqual(steps.splice(0), ['context', 'preflight', 'count', 'handler 3', 'release'], 'released when the handler throws');

  const refused = invoke(tool, { n: 1 }, { context: () => ctx, count: () => Promise.reject(new AppError('RATE_LIMITED', 'later')) });
  await assert.rejects(refused, (err: AppError) => err.code === 'RATE_LIMITED');
  assert.deepEqual(steps.splice(0), ['preflight', 'release'], 'a count refusal: no handler, the hold released');
});
