// list_agent_ready_stores: the agent-ready top of the readiness index (recent scans only), optionally per vertical.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listAgentReadyStores } from '../../tools/list-agent-ready-stores.js';
import { AgentReadyStores } from '../../schemas/readiness.js';
import { saveFakeScan } from '../helpers/scans.js';
import { toolContextForTest } from '../helpers/tool-context.js';

const DAY = 86_400_000;

async function setup(t: { after(fn: () => unknown): void }) {
  const { db, ctx } = await toolContextForTest(t);
  const call = (args: unknown) => listAgentReadyStores.handler(listAgentReadyStores.input.parse(args), ctx);
  return { db, call };
}

test('lists only recent agent-ready stores, best first, with ranks, links and the index size', async (t) => {
  const { db, call } = await setup(t);
  const a = await saveFakeScan(db, { host: 'a.test', score: 92, vertical: 'apparel' });
  const b = await saveFakeScan(db, { host: 'b.test', score: 80, vertical: 'beauty' });
  const c = await saveFakeScan(db, { host: 'c.test', score: 80, vertical: 'apparel' });
  await saveFakeScan(db, { host: 'capped.test', score: 88, capped: true }); // capped: never agent-ready
  await saveFakeScan(db, { host: 'low.test', score: 60 }); // below 70
  await saveFakeScan(db, { host: 'old.test', score: 99, createdAt: new Date(Date.now() - 100 * DAY) }); // stale
  await saveFakeScan(db, { host: 'gone.test', score: 97 });
  await db.setDelisted('gone.test', true);

  const out = await call({});
  assert.equal(AgentReadyStores.safeParse(out).success, true);
  assert.deepEqual(
    out.stores.map((s) => [s.rank, s.host, s.score, s.grade, s.vertical]),
    [
      [1, 'a.test', 92, 'A', 'apparel'],
      [2, 'b.test', 80, 'B', 'beauty'],
      [2, 'c.test', 80, 'B', 'apparel'],
    ],
  );
  assert.deepEqual(
    out.stores.map((s) => s.report_url),
    [a, b, c].map((r) => `http://localhost:3000/r/${r.scan_id}`),
  );
  assert.ok(out.stores.every((s) => !Number.isNaN(Date.parse(s.scanned_at))));
  assert.equal(out.total, 6); // every listed db in the index (the delisted one is out)
});

test('vertical narrows the list and the total; limit caps the list', async (t) => {
  const { db, call } = await setup(t);
  for (let i = 0; i < 15; i++) await saveFakeScan(db, { host: `s${i}.test`, score: 70 + i, vertical: i % 2 ? 'pets' : 'health' });
  const pets = await call({ vertical: 'pets' });
  assert.ok(pets.stores.length > 0);
  assert.ok(pets.stores.every((s) => s.vertical === 'pets'));
  assert.equal(pets.total, 7);
  assert.equal((await call({})).stores.length, 10); // default limit
  assert.equal((await call({ limit: 3 })).stores.length, 3);
  assert.equal((await call({ limit: 100 })).stores.length, 15);
  assert.deepEqual(await call({ vertical: 'automotive' }), { stores: [], total: 0 });
});

test('the input schema holds limit to 1–100 and vertical to the known categories', () => {
  const parse = (args: unknown) => listAgentReadyStores.input.safeParse(args);
  for (const limit of [0, 101, 1e9, 2.5, -1, '10']) assert.equal(parse({ limit }).success, false, String(limit));
  for (const vertical of ['cars', '', { $ne: null }]) assert.equal(parse({ vertical }).success, false, JSON.stringify(vertical));
  const ok = parse({});
  assert.equal(ok.success, true);
  assert.equal(ok.data?.limit, 10);
});

test('declared for MCP only, read-only and closed-world', () => {
  assert.deepEqual(listAgentReadyStores.expose, ['mcp']);
  assert.deepEqual(listAgentReadyStores.annotations, { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false });
});
