// GET /index and /stores through the real app: ranking, links to the latest report, 50 per page with prev/next,
// the vertical filter (unknown → 400 page naming the allowed ones), bad page numbers, delisted hosts left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { VERTICALS } from '../../schemas/params.js';

const CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const rowsOf = (body: string) =>
  [...body.matchAll(/<tr>\s*<td>#(\d+)<\/td>\s*<td><a href="\/r\/(\d+)">([^<]+)<\/a>/g)].map((m) => ({
    rank: Number(m[1]),
    scanId: Number(m[2]),
    host: m[3],
  }));

test('the index ranks stores by score and links each to its latest report; /stores is the same page', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'low.test', score: 30 });
  await saveFakeScan(app.db, { host: 'top.test', score: 70 });
  const newer = await saveFakeScan(app.db, { host: 'top.test', score: 95 });
  await saveFakeScan(app.db, { host: 'mid.test', score: 60, vertical: 'apparel' });
  await saveFakeScan(app.db, { host: 'gone.test', score: 99 });
  await app.db.setDelisted('gone.test', true);

  const res = await fetch(`${app.url}/index`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-security-policy'), CSP);
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  const body = await res.text();
  const rows = rowsOf(body);
  assert.deepEqual(rows.map((r) => r.host), ['top.test', 'mid.test', 'low.test']);
  assert.deepEqual(rows.map((r) => r.rank), [1, 2, 3]);
  assert.equal(rows[0].scanId, newer.scan_id);
  assert.doesNotMatch(body, /gone\.test/);
  assert.match(body, /3 stores/);
  assert.match(body, /Apparel/);
  assert.doesNotMatch(body, /rel="next"|rel="prev"/, 'one page: no pager');

  const alias = await fetch(`${app.url}/stores`);
  assert.equal(alias.status, 200);
  assert.deepEqual(rowsOf(await alias.text()), rows);
});

test('the vertical filter keeps one category; an unknown one is a 400 page naming the allowed values', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'shirts.test', score: 80, vertical: 'apparel' });
  await saveFakeScan(app.db, { host: 'phones.test', score: 90, vertical: 'electronics' });
  const body = await (await fetch(`${app.url}/index?vertical=apparel`)).text();
  assert.deepEqual(rowsOf(body).map((r) => r.host), ['shirts.test']);
  assert.match(body, /<span class="chip chip-active" aria-current="true">Apparel<\/span>/);
  assert.match(body, /href="\/index\?vertical=electronics"/);

  for (const bad of ['shoes', '%3Cscript%3E', 'apparel&vertical=beauty']) {
    const res = await fetch(`${app.url}/index?vertical=${bad}`);
    assert.equal(res.status, 400, bad);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    const page = await res.text();
    for (const v of VERTICALS) assert.ok(page.includes(v), `${bad}: names ${v}`);
    assert.doesNotMatch(page, /<script/);
  }
});

test('50 stores a page with prev/next links; bad page numbers are a 400 page; past the end is an empty page', async (t) => {
  const app = await startApp(t);
  for (let i = 0; i < 120; i++) await saveFakeScan(app.db, { host: `s${String(i).padStart(3, '0')}.test`, score: i % 100 });

  const first = await (await fetch(`${app.url}/index`)).text();
  assert.equal(rowsOf(first).length, 50);
  assert.match(first, /Page 1 of 3/);
  assert.match(first, /rel="next" href="\/index\?page=2"/);
  assert.doesNotMatch(first, /rel="prev"/);

  const second = await (await fetch(`${app.url}/index?page=2`)).text();
  const rows2 = rowsOf(second);
  assert.equal(rows2.length, 50);
  assert.match(second, /rel="prev" href="\/index"/);
  assert.match(second, /rel="next" href="\/index\?page=3"/);
  const firstHosts = new Set(rowsOf(first).map((r) => r.host));
  assert.ok(rows2.every((r) => !firstHosts.has(r.host)), 'pages do not overlap');

  const third = await (await fetch(`${app.url}/index?page=3`)).text();
  assert.equal(rowsOf(third).length, 20);
  assert.doesNotMatch(third, /rel="next"/);

  const past = await fetch(`${app.url}/index?page=9`);
  assert.equal(past.status, 200);
  const pastBody = await past.text();
  assert.equal(rowsOf(pastBody).length, 0);
  assert.match(pastBody, /There is no page 9/);

  for (const bad of ['0', '-1', 'abc', '1.5', '99999999999']) {
    const res = await fetch(`${app.url}/index?page=${bad}`);
    assert.equal(res.status, 400, bad);
  }
});

test('the filter and the page combine in the pager links', async (t) => {
  const app = await startApp(t);
  for (let i = 0; i < 55; i++) await saveFakeScan(app.db, { host: `b${i}.test`, score: 50, vertical: 'beauty' });
  await saveFakeScan(app.db, { host: 'other.test', score: 99, vertical: 'pets' });
  const body = await (await fetch(`${app.url}/index?vertical=beauty`)).text();
  assert.equal(rowsOf(body).length, 50);
  assert.match(body, /rel="next" href="\/index\?vertical=beauty&amp;page=2"/);
  const page2 = await (await fetch(`${app.url}/index?vertical=beauty&page=2`)).text();
  assert.equal(rowsOf(page2).length, 5);
  assert.doesNotMatch(page2, /other\.test/);
});

test('an empty index invites the first scan', async (t) => {
  const app = await startApp(t);
  const body = await (await fetch(`${app.url}/index`)).text();
  assert.match(body, /No store has been scanned yet/);
  assert.match(body, /href="\/"/);
});
