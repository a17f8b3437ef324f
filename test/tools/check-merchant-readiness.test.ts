// check_merchant_readiness: the stored summary of one db, from the index only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkMerchantReadiness } from '../../tools/check-merchant-readiness.js';
import { ReadinessSummary } from '../../schemas/readiness.js';
import { AppError } from '../../lib/errors.js';
import { fakeReport, saveFakeScan, saveReport } from '../helpers/scans.js';
import { toolContextForTest } from '../helpers/tool-context.js';

async function setup(t: { after(fn: () => unknown): void }) {
  const { db, ctx } = await toolContextForTest(t);
  const call = (host: string) => checkMerchantReadiness.handler(checkMerchantReadiness.input.parse({ host }), ctx);
  return { db, call };
}

const DAY = 86_400_000;

test('returns score, grade, capped, protocols, report link, scan time and verification', async (t) => {
  const { db, call } = await setup(t);
  const createdAt = new Date(Date.now() - 3 * DAY);
  const report = await saveFakeScan(db, { host: 'shop.test', score: 82, createdAt });
  const out = await call('shop.test');
  assert.deepEqual(out, {
    host: 'shop.test',
    score: 82,
    grade: 'B',
    capped: false,
    protocols: report.protocols,
    report_url: `http://localhost:3000/r/${report.scan_id}`,
    scanned_at: createdAt.toISOString(),
    agent_ready_verified: true,
  });
  assert.equal(ReadinessSummary.safeParse(out).success, true);
});

test('a URL, upper case or www. prefix names the same index entry', async (t) => {
  const { db, call } = await setup(t);
  await saveFakeScan(db, { host: 'shop.test', score: 60 });
  for (const host of ['https://www.Shop.test/', 'WWW.SHOP.TEST', ' shop.test ']) {
    assert.equal((await call(host)).host, 'shop.test', host);
  }
});

test('the latest scan wins; capped, old or low scans are not verified agent-ready', async (t) => {
  const { db, call } = await setup(t);
  await saveFakeScan(db, { host: 'a.test', score: 90, createdAt: new Date(Date.now() - 10 * DAY) });
  await saveFakeScan(db, { host: 'a.test', score: 30, capped: true });
  const a = await call('a.test');
  assert.equal(a.score, 30);
  assert.equal(a.capped, true);
  assert.equal(a.agent_ready_verified, false);

  await saveFakeScan(db, { host: 'old.test', score: 95, createdAt: new Date(Date.now() - 120 * DAY) });
  assert.equal((await call('old.test')).agent_ready_verified, false);
  await saveFakeScan(db, { host: 'low.test', score: 65 });
  assert.equal((await call('low.test')).agent_ready_verified, false);
});

test('an unknown or delisted host is HOST_NOT_FOUND with next_action pointing at the scan endpoint', async (t) => {
  const { db, call } = await setup(t);
  await saveFakeScan(db, { host: 'gone.test', score: 80 });
  await db.setDelisted('gone.test', true);
  for (const host of ['never.test', 'gone.test']) {
    await assert.rejects(call(host), (err: unknown) => {
      assert.ok(err instanceof AppError);
      assert.equal(err.code, 'HOST_NOT_FOUND');
      assert.equal(err.nextAction?.method, 'GET');
      assert.equal(err.nextAction?.endpoint, '/api/v1/scan');
      assert.deepEqual(err.nextAction?.params, { url: `https://${host}` });
      return true;
    });
  }
});

test('a value that is not a host name is INVALID_PARAMS and reaches no store query', async (t) => {
  const { db, call } = await setup(t);
  let queries = 0;
  const original = db.latestByHost.bind(db);
  db.latestByHost = async (h) => {
    queries++;
    return original(h);
  };
  for (const host of ['shop .test', '<script>', 'user:pw@shop.test', 'shop.test/path', 'https://']) {
    await assert.rejects(call(host), (err: unknown) => err instanceof AppError && err.code === 'INVALID_PARAMS', host);
  }
  assert.equal(queries, 0);
});

test('the input schema refuses non-strings and over-long hosts before the handler runs', () => {
  for (const host of [{ $regex: '.*' }, 42, null, '', 'a'.repeat(10_000), 'shop.test\u0000', 'shop.test\r\nX: 1']) {
    assert.equal(checkMerchantReadiness.input.safeParse({ host }).success, false, JSON.stringify(host).slice(0, 40));
  }
  assert.equal(checkMerchantReadiness.input.safeParse({}).success, false);
});

test('protocols is null when the stored report has none in the current shape', async (t) => {
  const { db, call } = await setup(t);
  const id = await db.allocateScanId();
  const report: Record<string, unknown> = { ...fakeReport(id, { host: 'legacy.test', score: 75 }) };
  delete report.protocols;
  await db.saveScan({ id, host: 'legacy.test', vertical: null, score: 75, grade: 'B', capped: false, agentReady: true, createdAt: new Date(), ownerKeyId: null, report });
  const out = await call('legacy.test');
  assert.equal(out.protocols, null);
  assert.equal(ReadinessSummary.safeParse(out).success, true);
});

test('declared for MCP and function calling, read-only and closed-world', () => {
  assert.deepEqual(checkMerchantReadiness.expose, ['mcp', 'functions']);
  assert.deepEqual(checkMerchantReadiness.annotations, { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false });
  assert.doesNotMatch(checkMerchantReadiness.description, /\bhost\b.*\(string/i);
});

test('a scan\'s protocols are read from its report once; a new scan of the store is read afresh', async (t) => {
  const { db, call } = await setup(t);
  let reads = 0;
  const getScan = db.getScan.bind(db) as (id: number) => ReturnType<typeof db.getScan>;
  db.getScan = (async (id: number) => {
    reads++;
    return getScan(id);
  }) as typeof db.getScan;
  const first = await saveFakeScan(db, { host: 'shop.test', score: 60 });
  assert.deepEqual((await call('shop.test')).protocols, first.protocols);
  assert.deepEqual((await call('https://www.shop.test')).protocols, first.protocols);
  assert.equal(reads, 1);
  const id = await db.allocateScanId();
  const base = fakeReport(id, { host: 'shop.test', score: 70, createdAt: new Date(Date.now() + 1000) });
  const second = { ...base, protocols: { ...base.protocols, llms_txt: false, mcp: true } };
  await saveReport(db, second);
  assert.deepEqual((await call('shop.test')).protocols, second.protocols);
  assert.equal(reads, 2);
});
