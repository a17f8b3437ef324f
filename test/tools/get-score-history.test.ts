// get_score_history: a store's stored scans, newest first, with the change from the scan before; over MCP and
// REST (with the /api alias) too. Delisted hosts have no public history.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getScoreHistory } from '../../tools/get-score-history.js';
import { ScoreHistory } from '../../schemas/score-history.js';
import { AppError } from '../../lib/errors.js';
import { saveFakeScan } from '../helpers/scans.js';
import { toolContextForTest } from '../helpers/tool-context.js';
import { call, startApp } from '../helpers/start-app.js';
import { connectMcp } from '../helpers/mcp-client.js';

const NOW = Date.now();
const day = (n: number) => new Date(NOW - (10 - n) * 86_400_000);

async function setup(t: { after(fn: () => unknown): void }) {
  const { db, ctx } = await toolContextForTest(t);
  const run = (args: Record<string, unknown>) => getScoreHistory.handler(getScoreHistory.input.parse(args), ctx);
  return { db, run };
}

test('lists the host\'s scans newest first with score changes, up to the limit, schema-valid', async (t) => {
  const { db, run } = await setup(t);
  const a = await saveFakeScan(db, { host: 'shop.test', score: 40, createdAt: day(1) });
  const b = await saveFakeScan(db, { host: 'shop.test', score: 55, createdAt: day(2) });
  await saveFakeScan(db, { host: 'other.test', score: 90, createdAt: day(3) });
  const c = await saveFakeScan(db, { host: 'shop.test', score: 72, createdAt: day(4), capped: false });
  const out = await run({ host: 'https://www.shop.test/' });
  assert.equal(ScoreHistory.safeParse(out).success, true);
  assert.equal(out.host, 'shop.test');
  assert.deepEqual(out.scans.map((s) => [s.scan_id, s.score, s.grade, s.score_change]), [
    [c.scan_id, 72, 'B', 17],
    [b.scan_id, 55, 'C', 15],
    [a.scan_id, 40, 'D', null],
  ]);
  assert.equal(out.scans[0].report_url, `http://localhost:3000/r/${c.scan_id}`);
  assert.equal(out.scans[0].scanned_at, day(4).toISOString());
  assert.equal(out.scans[0].agent_ready, true);
  const two = await run({ host: 'shop.test', limit: 2 });
  assert.deepEqual(two.scans.map((s) => s.score_change), [17, 15], 'the oldest row shown still has its change');
});

test('an unknown or delisted host has no history: HOST_NOT_FOUND', async (t) => {
  const { db, run } = await setup(t);
  await saveFakeScan(db, { host: 'gone.test', score: 80 });
  await db.setDelisted('gone.test', true);
  for (const host of ['never.test', 'gone.test']) {
    await assert.rejects(run({ host }), (err: unknown) => err instanceof AppError && err.code === 'HOST_NOT_FOUND');
  }
});

test('limits outside 1–50 and bad hosts are refused by the schema', () => {
  for (const args of [{ host: 'a.test', limit: 0 }, { host: 'a.test', limit: 51 }, { host: 'a.test', limit: 1.5 }, { host: { $ne: null } }, { host: 'a.test\u0000' }]) {
    assert.equal(getScoreHistory.input.safeParse(args).success, false, JSON.stringify(args));
  }
});

test('REST GET /api/v1/history/{host} and the /api alias; MCP tools/call', async (t) => {
  const app = await startApp(t);
  const first = await saveFakeScan(app.db, { host: 'shop.test', score: 50, createdAt: day(1) });
  await saveFakeScan(app.db, { host: 'shop.test', score: 61, createdAt: day(2) });
  for (const prefix of ['/api/v1', '/api']) {
    const res = await call(`${app.url}${prefix}/history/shop.test?limit=1`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.scans.map((s: { score: number; score_change: number }) => [s.score, s.score_change]), [[61, 11]]);
  }
  assert.equal((await call(`${app.url}/api/v1/history/shop.test`)).body.scans.at(-1).scan_id, first.scan_id);
  const unknown = await call(`${app.url}/api/v1/history/never.test`);
  assert.deepEqual([unknown.status, unknown.body.code], [404, 'HOST_NOT_FOUND']);
  for (const q of ['?limit=0', '?limit=51', '?limit=abc', '?limit=1&limit=2']) {
    const bad = await call(`${app.url}/api/v1/history/shop.test${q}`);
    assert.deepEqual([bad.status, bad.body.code], [400, 'INVALID_PARAMS'], q);
  }
  const client = await connectMcp(t, app);
  const result = await client.callTool({ name: 'get_score_history', arguments: { host: 'shop.test' } });
  assert.equal(result.isError, undefined);
  assert.deepEqual((result.structuredContent as { scans: { score: number }[] }).scans.map((s) => s.score), [61, 50]);
});
