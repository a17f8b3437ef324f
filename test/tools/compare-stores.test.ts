// compare_stores on its three surfaces (GET /api/v1/compare, the MCP tool, the /compare page, the last in the browser
// test too): stored reports side by side, differing checks marked, hosts the index does not hold listed as not
// scanned, and bad lists refused with the spec's error shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, startApp, type TestApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { StoreComparison } from '../../schemas/comparison.js';

async function threeStores(app: TestApp) {
  const alpha = await saveFakeScan(app.db, { host: 'alpha.test', score: 90 });
  await saveFakeScan(app.db, { host: 'beta.test', score: 30, capped: true });
  await saveFakeScan(app.db, { host: 'gamma.test', score: 72 });
  return { alphaId: alpha.scan_id };
}

test('GET /api/v1/compare: stores in the order asked, pillars and every check, the differing one marked', async (t) => {
  const app = await startApp(t);
  await threeStores(app);
  const res = await getJson(`${app.url}/api/v1/compare?hosts=alpha.test,https://www.beta.test/,gamma.test`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const body = StoreComparison.parse(res.body);
  assert.deepEqual(body.stores.map((s) => [s.host, s.score, s.grade, s.capped]), [
    ['alpha.test', 90, 'A', false],
    ['beta.test', 30, 'E', true],
    ['gamma.test', 72, 'B', false],
  ]);
  assert.match(body.stores[0].report_url ?? '', /^http:\/\/localhost:3000\/r\/\d+$/);
  assert.deepEqual(body.stores[0].pillars, [{ id: 'access', label: 'Agent access', score: 20, max: 20 }]);
  const robots = body.checks.find((c) => c.id === 'access_live_agents_robots')!;
  assert.equal(robots.differs, true);
  assert.deepEqual(robots.results.map((r) => [r.host, r.status]), [['alpha.test', 'pass'], ['beta.test', 'fail'], ['gamma.test', 'pass']]);
  assert.equal(body.differing, 1);
  // The alias answers the same.
  assert.deepEqual((await getJson(`${app.url}/api/compare?hosts=alpha.test,beta.test,gamma.test`)).body, res.body);
});

test('a store the index does not hold is listed as not scanned; fewer than two scanned compare no checks', async (t) => {
  const app = await startApp(t);
  await threeStores(app);
  await app.db.setDelisted('gamma.test', true);
  const res = await getJson(`${app.url}/api/v1/compare?hosts=alpha.test,never.test,gamma.test`);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, {
    stores: [{ host: 'alpha.test', scanned: true, ...pick(res.body.stores[0]) }, { host: 'never.test', scanned: false }, { host: 'gamma.test', scanned: false }],
    checks: [],
    differing: 0,
  });
});

const pick = (s: Record<string, unknown>) => Object.fromEntries(Object.entries(s).filter(([k]) => !['host', 'scanned'].includes(k)));

test('bad lists: one store, six, a duplicate, not a host, repeated parameter: 400 INVALID_PARAMS', async (t) => {
  const app = await startApp(t);
  for (const q of ['hosts=a.test', 'hosts=a.test,b.test,c.test,d.test,e.test,f.test', 'hosts=a.test,A.TEST', 'hosts=a.test,%3Cscript%3E', 'hosts=a.test,b.test&hosts=c.test', '']) {
    const res = await getJson(`${app.url}/api/v1/compare?${q}`);
    assert.equal(res.status, 400, q);
    assert.equal(res.body.code, 'INVALID_PARAMS', q);
    assert.equal(typeof res.body.message, 'string');
  }
});

test('the MCP tool answers the same comparison as structured content', async (t) => {
  const app = await startApp(t);
  await threeStores(app);
  const client = await connectMcp(t, app);
  const listed = (await client.listTools()).tools.find((x) => x.name === 'compare_stores');
  assert.ok(listed, 'compare_stores is an MCP tool');
  assert.equal(listed.annotations?.readOnlyHint, true);
  const result = await client.callTool({ name: 'compare_stores', arguments: { hosts: ['alpha.test', 'beta.test'] } });
  assert.ok(!result.isError, JSON.stringify(result));
  const rest = (await getJson(`${app.url}/api/v1/compare?hosts=alpha.test,beta.test`)).body;
  assert.deepEqual(result.structuredContent, rest);
  const bad = await client.callTool({ name: 'compare_stores', arguments: { hosts: ['alpha.test'] } });
  assert.equal(bad.isError, true);
});

test('the page: a form for fewer than two stores, the comparison for three, a 400 page with the form for a bad list', async (t) => {
  const app = await startApp(t);
  const { alphaId } = await threeStores(app);
  const form = await fetch(`${app.url}/compare?hosts=alpha.test`);
  assert.equal(form.status, 200);
  const formHtml = await form.text();
  assert.match(formHtml, /<input id="compare-hosts" name="hosts" value="alpha.test, "/);
  const page = await fetch(`${app.url}/compare?hosts=alpha.test,beta.test,gamma.test`);
  assert.equal(page.status, 200);
  const text = await page.text();
  assert.match(text, /<strong>1<\/strong> of 1 checks differ between these stores/);
  assert.match(text, /<tr class="differs" data-check="access_live_agents_robots">/);
  const bad = await fetch(`${app.url}/compare?hosts=alpha.test,${'x'.repeat(300)}`);
  assert.equal(bad.status, 400);
  assert.match(bad.headers.get('content-type') ?? '', /text\/html/);
  assert.match(await bad.text(), /role="alert">Each entry must be a store host name/);
  const report = await fetch(`${app.url}/r/${alphaId}`);
  assert.match(await report.text(), /href="\/compare\?hosts=alpha\.test">Compare with…<\/a>/);
});
