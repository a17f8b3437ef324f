// GET /verify/{host} through the real app: 302 to BASE_URL/r/<latest id> and nowhere else (docs/security.md O3);
// unknown or delisted hosts 404 (an HTML page offering a scan to browsers, else the JSON Error); bad hosts 400 JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { getJson, startApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** A raw GET whose path goes out byte for byte (fetch would normalise "..", "\" and friends). */
function rawGet(base: string, path: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a known host redirects 302 to exactly BASE_URL/r/<latest scan id>', async (t) => {
  const app = await startApp(t, { BASE_URL: 'https://readiness.example' });
  await saveFakeScan(app.db, { host: 'shop.test', score: 60 });
  const latest = await saveFakeScan(app.db, { host: 'shop.test', score: 80 });
  for (const host of ['shop.test', 'www.shop.test', 'SHOP.TEST']) {
    const res = await fetch(`${app.url}/verify/${host}`, { redirect: 'manual' });
    assert.equal(res.status, 302, host);
    assert.equal(res.headers.get('location'), `https://readiness.example/r/${latest.scan_id}`);
    assert.match(res.headers.get('location')!, /^https:\/\/readiness\.example\/r\/\d+$/);
  }
});

test('hostile paths never produce a Location, and answer 400 JSON (O3)', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'shop.test', score: 80 });
  for (const path of [
    '/verify/%2F%2Fevil.test',
    '/verify/%5Cevil.test',
    '/verify/shop.test@evil.test',
    '/verify/..%2F..%2Fadmin',
    '/verify/shop.test%0d%0aLocation:%20http://evil.test',
    '/verify/%0d%0aSet-Cookie:%20a=b',
    '/verify/https:%2F%2Fevil.test',
    '/verify/%3Cscript%3E',
  ]) {
    for (const accept of ['*/*', BROWSER_ACCEPT]) {
      const res = await rawGet(app.url, path, { accept });
      assert.equal(res.status, 400, path);
      assert.equal(res.headers.location, undefined, path);
      assert.equal(res.headers['set-cookie'], undefined, path);
      const body = JSON.parse(res.body);
      assert.equal(body.code, 'INVALID_PARAMS');
      assert.doesNotMatch(res.body, /evil|script|Set-Cookie/i);
    }
  }
});

test('an unknown or delisted host is a 404: JSON for API clients, an HTML page offering a scan for browsers', async (t) => {
  const app = await startApp(t);
  await saveFakeScan(app.db, { host: 'gone.test', score: 90 });
  await app.db.setDelisted('gone.test', true);
  for (const host of ['unknown.test', 'gone.test']) {
    const json = await getJson(`${app.url}/verify/${host}`, { redirect: 'manual' });
    assert.equal(json.status, 404);
    assert.equal(json.headers.get('location'), null);
    assert.equal(json.body.code, 'HOST_NOT_FOUND');
    assert.equal(json.body.next_action.endpoint, '/api/v1/scan');

    const page = await fetch(`${app.url}/verify/${host}`, { redirect: 'manual', headers: { accept: BROWSER_ACCEPT } });
    assert.equal(page.status, 404);
    assert.equal(page.headers.get('location'), null);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const body = await page.text();
    assert.ok(body.includes(`No public report for ${host} yet`));
    assert.ok(body.includes(`href="/?url=https%3A%2F%2F${host}"`), 'offers a scan of the host');
  }
});

test('other methods answer 405 with Allow', async (t) => {
  const app = await startApp(t);
  const res = await getJson(`${app.url}/verify/shop.test`, { method: 'POST' });
  assert.equal(res.status, 405);
  assert.match(res.headers.get('allow') ?? '', /GET/);
});
