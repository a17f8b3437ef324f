// The CSV downloads, read back with a CSV parser (csv-parse): a report's checks (/r/{id}.csv, one row per check),
// a store's history (/history/{host}.csv, one row per scan) and the console's scans (/console/scans.csv, signed in
// only, the host filter applied). Store text that looks like a formula is neutralised; hidden reports stay hidden.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { call, startApp } from '../helpers/start-app.js';
import { fakeReport, saveFakeScan, saveReport } from '../helpers/scans.js';
import { startInbox } from '../helpers/smtp.js';
import { ConsoleClient } from '../helpers/console-client.js';
import { CHECK_COLUMNS, HISTORY_COLUMNS, SCAN_COLUMNS } from '../../pages/csv.js';

const readCsv = (text: string) => parse(text, { bom: true, columns: true, skip_empty_lines: true }) as Record<string, string>[];

test('/r/{id}.csv: a download of one row per check, with its fix; formula-like store text is quoted; hidden ids are 404', async (t) => {
  const app = await startApp(t);
  const id = await app.db.allocateScanId();
  const report = fakeReport(id, { host: 'shop.test', score: 30, capped: true });
  report.pillars[0].checks[0].evidence = '=HYPERLINK("http://evil.test","click"), then "quotes"\nand a new line';
  report.top_fixes = [{ check_id: 'access_live_agents_robots', title: 'Allow the agents', points: 6, how: 'Remove Disallow: / for them.' }];
  await saveReport(app.db, report);

  const res = await call(`${app.url}/r/${id}.csv`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8; header=present');
  assert.equal(res.headers.get('content-disposition'), `attachment; filename="report-${id}.csv"`);
  const bytes = Buffer.from(await (await fetch(`${app.url}/r/${id}.csv`)).arrayBuffer());
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a UTF-8 byte order mark for spreadsheets');
  const rows = readCsv(res.text);
  assert.deepEqual(Object.keys(rows[0]), CHECK_COLUMNS);
  assert.equal(rows.length, report.pillars.flatMap((p) => p.checks).length);
  assert.deepEqual(
    { ...rows[0] },
    {
      pillar: 'Agent access',
      check_id: 'access_live_agents_robots',
      label: 'Live shopping agents allowed in robots.txt',
      status: 'fail',
      points: '0',
      max: '6',
      hard_block: 'true',
      finding: 'Live shopping agents are allowed',
      evidence: `'=HYPERLINK("http://evil.test","click"), then "quotes"\nand a new line`,
      fix_points: '6',
      fix: 'Remove Disallow: / for them.',
    },
  );

  for (const path of [`/r/${id + 1}.csv`, '/r/0.csv', '/r/1e3.csv', '/r/abc.csv']) {
    const missing = await call(`${app.url}${path}`);
    assert.equal(missing.status, 404, path);
    assert.match(missing.headers.get('content-type') ?? '', /text\/html/);
  }
  await app.db.setDelisted('shop.test', true);
  assert.equal((await call(`${app.url}/r/${id}.csv`)).status, 404, 'a delisted store\'s report is hidden here too');
  assert.equal((await call(`${app.url}/r/${id}.csv`, { method: 'POST' })).status, 405);
});

test('/history/{host}.csv: one row per stored scan, newest first, with the change; unknown hosts are 404', async (t) => {
  const app = await startApp(t);
  const day = (n: number) => new Date(Date.UTC(2026, 10, n));
  for (const [n, score] of [[1, 50], [2, 64], [3, 61]] as const) await saveFakeScan(app.db, { host: 'shop.test', score, createdAt: day(n) });
  const res = await call(`${app.url}/history/shop.test.csv`);
  assert.equal(res.status, 200);
  const rows = readCsv(res.text);
  assert.deepEqual(Object.keys(rows[0]), HISTORY_COLUMNS);
  assert.deepEqual(rows.map((r) => [r.score, r.score_change, r.scanned_at]), [
    ['61', '-3', day(3).toISOString()],
    ['64', '14', day(2).toISOString()],
    ['50', '', day(1).toISOString()],
  ]);
  assert.equal((await call(`${app.url}/history/never.test.csv`)).status, 404);
});

test('/console/scans.csv: the signed-in account\'s scans, host filter applied; signed out it is the sign-in redirect', async (t) => {
  const inbox = await startInbox(t);
  const app = await startApp(t, { SMTP_URL: inbox.smtpUrl }, { selfBaseUrl: true });
  const client = new ConsoleClient(app.url);
  assert.equal((await client.get('/console/scans.csv')).status, 303);
  await client.signIn(inbox, 'csv@shop.test');
  const account = (await app.db.accounts.findAccountByEmail('csv@shop.test'))!;
  for (const [host, score] of [['a.test', 40], ['b.test', 70], ['a.test', 55]] as const) {
    const id = await app.db.allocateScanId();
    const report = fakeReport(id, { host, score });
    await app.db.saveScan({ id, host, vertical: null, score, grade: report.grade, capped: false, agentReady: false, createdAt: new Date(), ownerKeyId: null, ownerAccountId: account.id, report });
  }
  await saveFakeScan(app.db, { host: 'a.test', score: 99 }); // someone else's

  const all = await client.get('/console/scans.csv');
  assert.equal(all.status, 200);
  assert.equal(all.headers.get('cache-control'), 'private, no-store');
  const rows = readCsv(all.text);
  assert.deepEqual(Object.keys(rows[0]), SCAN_COLUMNS);
  assert.deepEqual(rows.map((r) => [r.host, r.score, r.api_key]), [['a.test', '55', 'signed-in session'], ['b.test', '70', 'signed-in session'], ['a.test', '40', 'signed-in session']]);
  assert.equal(rows[0].score_change, '15');
  assert.match(rows[0].report_url, new RegExp(`^${app.url}/r/\\d+$`));
  const filtered = readCsv((await client.get('/console/scans.csv?host=a.test')).text);
  assert.deepEqual(filtered.map((r) => r.host), ['a.test', 'a.test']);
  assert.match((await client.get('/console/scans')).text, /href="\/console\/scans\.csv" download>Download every scan as CSV/);
});
