// get_readiness_report: the full latest stored report of one db, exactly as stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getReadinessReport } from '../../tools/get-readiness-report.js';
import { ReadinessReport } from '../../schemas/readiness.js';
import { AppError } from '../../lib/errors.js';
import { saveFakeScan } from '../helpers/scans.js';
import { toolContextForTest } from '../helpers/tool-context.js';

async function setup(t: { after(fn: () => unknown): void }) {
  const { db, ctx } = await toolContextForTest(t);
  const call = (host: string) => getReadinessReport.handler(getReadinessReport.input.parse({ host }), ctx);
  return { db, call };
}

test('returns the latest stored report of the host, unchanged and schema-valid', async (t) => {
  const { db, call } = await setup(t);
  await saveFakeScan(db, { host: 'shop.test', score: 50, createdAt: new Date(Date.now() - 86_400_000) });
  const latest = await saveFakeScan(db, { host: 'shop.test', score: 77, vertical: 'apparel' });
  await saveFakeScan(db, { host: 'other.test', score: 99 });
  const out = await call('https://www.shop.test/');
  assert.deepEqual(out, latest);
  assert.equal(ReadinessReport.safeParse(out).success, true);
  assert.ok(out.pillars.every((p) => p.checks.every((c) => ['pass', 'partial', 'fail'].includes(c.status))));
});

test('an unknown or delisted host is HOST_NOT_FOUND with a next_action', async (t) => {
  const { db, call } = await setup(t);
  await saveFakeScan(db, { host: 'gone.test', score: 80 });
  await db.setDelisted('gone.test', true);
  for (const host of ['never.test', 'gone.test']) {
    await assert.rejects(call(host), (err: unknown) => err instanceof AppError && err.code === 'HOST_NOT_FOUND' && err.nextAction?.endpoint === '/api/v1/scan');
  }
});

test('a relisted host is readable again', async (t) => {
  const { db, call } = await setup(t);
  const report = await saveFakeScan(db, { host: 'back.test', score: 66 });
  await db.setDelisted('back.test', true);
  await db.setDelisted('back.test', false);
  assert.equal((await call('back.test')).scan_id, report.scan_id);
});

test('bad hosts are INVALID_PARAMS; the schema refuses non-strings', async (t) => {
  const { call } = await setup(t);
  await assert.rejects(call('shop.test/admin'), (err: unknown) => err instanceof AppError && err.code === 'INVALID_PARAMS');
  for (const host of [{ $ne: null }, 'shop.test\u0000', 'a'.repeat(10_000)]) {
    assert.equal(getReadinessReport.input.safeParse({ host }).success, false, JSON.stringify(host).slice(0, 40));
  }
});

test('declared for MCP only, read-only and closed-world; its output root is an inline object', () => {
  assert.deepEqual(getReadinessReport.expose, ['mcp']);
  assert.deepEqual(getReadinessReport.annotations, { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false });
});
