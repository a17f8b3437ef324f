// The REST skeleton through the real app: discovery, the /api alias, JSON errors of every kind, stored reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { getJson, startApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { startFixtureStore } from '../helpers/fixture-store.js';
import { SERVICE_VERSION } from '../../lib/version.js';

test('GET /api/v1 serves the discovery document, and /api the same', async (t) => {
  const app = await startApp(t);
  const v1 = await getJson(`${app.url}/api/v1`);
  assert.equal(v1.status, 200);
  assert.equal(v1.body.name, 'store-readiness');
  assert.equal(v1.body.version, SERVICE_VERSION);
  assert.equal(v1.body.status, 'ok');
  assert.equal(v1.body.openapi, 'http://localhost:3000/openapi.json');
  assert.ok(v1.body.endpoints.some((e: { path: string }) => e.path === '/api/v1/scan/{scan_id}.json'));
  assert.equal(v1.body.versioning.canonical_prefix, '/api/v1');
  const alias = await getJson(`${app.url}/api`);
  assert.deepEqual(alias.body, v1.body);
});

test('a stored scan is read back by id through both prefixes', async (t) => {
  const app = await startApp(t);
  const report = await saveFakeScan(app.db, { host: 'shop.test', score: 72 });
  for (const prefix of ['/api/v1', '/api']) {
    const res = await getJson(`${app.url}${prefix}/scan/${report.scan_id}.json`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, report);
  }
});

test('unknown scan ids answer 404 SCAN_NOT_FOUND pointing at the scan endpoint; bad ids 400', async (t) => {
  const app = await startApp(t);
  for (const prefix of ['/api/v1', '/api']) {
    const res = await getJson(`${app.url}${prefix}/scan/999.json`);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'SCAN_NOT_FOUND');
    assert.equal(res.body.error, res.body.message);
    assert.equal(res.body.next_action.endpoint, '/api/v1/scan');
    assert.equal(res.body.next_action.method, 'GET');
  }
  for (const bad of ['abc', '1.5', '-1', '0', '1e3', '%7B%22%24gt%22%3A%22%22%7D', '99999999999999999999']) {
    const res = await getJson(`${app.url}/api/v1/scan/${bad}.json`);
    assert.equal(res.status, 400, bad);
    assert.equal(res.body.code, 'INVALID_PARAMS');
  }
});

test('unknown /api paths are JSON 404s, wrong methods JSON 405s with Allow', async (t) => {
  const app = await startApp(t);
  for (const path of ['/api/nope', '/api/v1/nope', '/api/v2/scan', '/api/v1/scan/1.json/extra']) {
    const res = await getJson(`${app.url}${path}`);
    assert.equal(res.status, 404, path);
    assert.equal(res.body.code, 'NOT_FOUND');
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  }
  const wrong = await getJson(`${app.url}/api/v1/scan/1.json`, { method: 'DELETE' });
  assert.equal(wrong.status, 405);
  assert.equal(wrong.body.code, 'METHOD_NOT_ALLOWED');
  assert.match(wrong.headers.get('allow') ?? '', /GET/);
  const post = await getJson(`${app.url}/api/v1`, { method: 'POST' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD');
});

test('HEAD on the scan endpoint is 405 with Allow: GET: no scan, no quota (link checkers send HEAD)', async (t) => {
  const app = await startApp(t, { ANON_SCANS_PER_HOUR: '1' });
  const shop = await startFixtureStore({ '/': { body: '<title>Shop</title><h1>Shop</h1>' } });
  t.after(() => shop.close());
  const query = `?url=${encodeURIComponent(shop.url)}`;
  for (const prefix of ['/api/v1', '/api']) {
    const head = await fetch(`${app.url}${prefix}/scan${query}`, { method: 'HEAD' });
    assert.equal(head.status, 405, prefix);
    assert.equal(head.headers.get('allow'), 'GET', prefix);
    assert.match(head.headers.get('content-type') ?? '', /^application\/json/, prefix);
    // The same answer as a GET would show, in the Error shape: a HEAD answer carries no body, so ask with OPTIONS.
    const other = await getJson(`${app.url}${prefix}/scan${query}`, { method: 'OPTIONS' });
    assert.equal(other.status, 405);
    assert.equal(other.headers.get('allow'), 'GET', 'HEAD is not offered where it would start a scan');
    assert.deepEqual(Object.keys(other.body).sort(), ['code', 'error', 'message']);
    assert.equal(other.body.code, 'METHOD_NOT_ALLOWED');
  }
  assert.equal(shop.requests.length, 0, 'nothing was fetched');
  const scan = await getJson(`${app.url}/api/v1/scan${query}`);
  assert.equal(scan.status, 200, 'the only scan of the hour is still there after the HEADs');
  // Reads keep answering HEAD as express does, with the GET's headers.
  const stored = await fetch(`${app.url}/api/v1/scan/${scan.body.scan_id}.json`, { method: 'HEAD' });
  assert.equal(stored.status, 200);
  assert.match(stored.headers.get('content-type') ?? '', /^application\/json/);
  const readAllow = await fetch(`${app.url}/api/v1/scan/1.json`, { method: 'POST' });
  assert.equal(readAllow.headers.get('allow'), 'GET, HEAD');
});

test('every answer carries X-Request-Id and nosniff', async (t) => {
  const app = await startApp(t);
  const res = await fetch(`${app.url}/api/nope`);
  assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  const echoed = await fetch(`${app.url}/api/v1`, { headers: { 'x-request-id': 'abc-123' } });
  assert.equal(echoed.headers.get('x-request-id'), 'abc-123');
});

test('an unexpected exception is a generic 500 JSON without a stack', async (t) => {
  const app = await startApp(t);
  app.db.getScan = async () => {
    throw new Error('secret internal detail at /srv/app/store.ts:12');
  };
  const res = await getJson(`${app.url}/api/v1/scan/1.json`);
  assert.equal(res.status, 500);
  assert.equal(res.body.code, 'INTERNAL_ERROR');
  assert.doesNotMatch(JSON.stringify(res.body), /secret|store\.ts|at /);
});

test('a raw request with a broken request line gets no stack either', async (t) => {
  const app = await startApp(t);
  const status = await new Promise<number>((resolve) => {
    const req = request(`${app.url}/api/v1/%E0%A4%A`, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.end();
  });
  assert.ok(status === 404 || status === 400, String(status));
});
