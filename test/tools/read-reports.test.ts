// read_reports through the real app (POST /api/v1/reports): order and shape, normalisation, delisting, the
// 100-host boundary, every bad body of docs/security.md O6–O8, Idempotency-Key (O4), Pro auth (K1), and proof that
// the bulk read never touches a store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { getJson, startApp, type TestApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { startFixtureStore } from '../helpers/fixture-store.js';
import { createApiKey } from '../../accounts/keys.js';

const JSON_TYPE = { 'content-type': 'application/json' };

async function proApp(t: Parameters<typeof startApp>[0]): Promise<{ app: TestApp; key: string }> {
  const app = await startApp(t);
  const { key } = await createApiKey(app.db, 'merchant@example.test');
  return { app, key };
}

function post(app: TestApp, key: string | null, body: string, headers: Record<string, string> = JSON_TYPE, path = '/api/v1/reports') {
  return getJson(`${app.url}${path}`, {
    method: 'POST',
    headers: { ...headers, ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body,
  });
}

/** A valid host name of exactly 253 characters (four labels, none over 63), unique per seed. */
function longHost(seed: number): string {
  const first = `h${String(seed).padStart(3, '0')}${'a'.repeat(59)}`;
  return [first, 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(61)].join('.');
}

test('answers each host in the order sent, scanned or not, with normalised hosts and duplicates', async (t) => {
  const { app, key } = await proApp(t);
  const scannedAt = new Date(Date.now() - 3_600_000);
  const shop = await saveFakeScan(app.db, { host: 'shop.test', score: 82, createdAt: scannedAt });
  const capped = await saveFakeScan(app.db, { host: 'blocked.test', score: 35, capped: true });
  await saveFakeScan(app.db, { host: 'old.test', score: 90, createdAt: new Date(Date.now() - 120 * 86_400_000) });

  const hosts = ['https://www.Shop.test/', 'never-scanned.test', 'blocked.test', 'shop.test', 'OLD.test'];
  const res = await post(app, key, JSON.stringify({ hosts }));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  const reports = res.body.reports;
  assert.equal(reports.length, 5);
  assert.deepEqual(reports[0], {
    host: 'shop.test',
    scanned: true,
    score: 82,
    grade: 'B',
    capped: false,
    agent_ready_verified: true,
    scanned_at: scannedAt.toISOString(),
    report_url: `http://localhost:3000/r/${shop.scan_id}`,
  });
  assert.deepEqual(reports[1], { host: 'never-scanned.test', scanned: false });
  assert.equal(reports[2].host, 'blocked.test');
  assert.equal(reports[2].capped, true);
  assert.equal(reports[2].grade, 'E');
  assert.equal(reports[2].agent_ready_verified, false);
  assert.equal(reports[2].report_url, `http://localhost:3000/r/${capped.scan_id}`);
  assert.deepEqual(reports[3], reports[0]); // the same store asked twice is answered twice
  assert.equal(reports[4].host, 'old.test');
  assert.equal(reports[4].agent_ready_verified, false, 'a scan older than 90 days is no longer verified');
});

test('a delisted store reads as not scanned; the /api alias answers the same', async (t) => {
  const { app, key } = await proApp(t);
  await saveFakeScan(app.db, { host: 'gone.test', score: 77 });
  await saveFakeScan(app.db, { host: 'kept.test', score: 60 });
  await app.db.setDelisted('gone.test', true);
  for (const path of ['/api/v1/reports', '/api/reports']) {
    const res = await post(app, key, JSON.stringify({ hosts: ['gone.test', 'kept.test'] }), JSON_TYPE, path);
    assert.equal(res.status, 200, path);
    assert.deepEqual(res.body.reports[0], { host: 'gone.test', scanned: false });
    assert.equal(res.body.reports[1].scanned, true);
    assert.equal(res.body.reports[1].score, 60);
  }
});

test('reads stored data in one round trip and never contacts a store', async (t) => {
  const { app, key } = await proApp(t);
  const fixture = await startFixtureStore({ '*': { body: '<!doctype html><title>shop</title>' } });
  t.after(() => fixture.close());
  const host = `127.0.0.1:${fixture.port}`;
  await saveFakeScan(app.db, { host, score: 71 });

  const calls: string[][] = [];
  const original = app.db.latestByHosts.bind(app.db);
  app.db.latestByHosts = async (hosts) => {
    calls.push(hosts);
    return original(hosts);
  };
  const res = await post(app, key, JSON.stringify({ hosts: [fixture.url, host, 'other.test', fixture.url] }));
  assert.equal(res.status, 200);
  assert.deepEqual(
    res.body.reports.map((r: { host: string; scanned: boolean }) => [r.host, r.scanned]),
    [[host, true], [host, true], ['other.test', false], [host, true]],
  );
  assert.deepEqual(calls, [[host, 'other.test']], 'one latestByHosts call with each host once');
  assert.equal(fixture.requests.length, 0, 'the fixture store saw no request');
  assert.equal(fixture.connections, 0, 'nor any connection');
});

test('100 hosts of 253 characters are accepted; 101 hosts are refused', async (t) => {
  const { app, key } = await proApp(t);
  const hosts = Array.from({ length: 100 }, (_, i) => longHost(i));
  assert.ok(hosts.every((h) => h.length === 253));
  assert.equal(new Set(hosts).size, 100);
  const ok = await post(app, key, JSON.stringify({ hosts }));
  assert.equal(ok.status, 200, JSON.stringify(ok.body).slice(0, 300));
  assert.equal(ok.body.reports.length, 100);
  assert.deepEqual(ok.body.reports[99], { host: hosts[99], scanned: false });

  const tooMany = await post(app, key, JSON.stringify({ hosts: Array.from({ length: 101 }, (_, i) => `s${i}.test`) }));
  assert.equal(tooMany.status, 400);
  assert.equal(tooMany.body.code, 'INVALID_BODY');
  assert.match(tooMany.body.message, /hosts lists 101 hosts; at most 100 per request/);
});

test('every malformed body is 400 INVALID_BODY saying what is wrong', async (t) => {
  const { app, key } = await proApp(t);
  const cases: [string, RegExp][] = [
    ['{"__proto__":{"polluted":1},"hosts":["a.test"]}', /unknown field "__proto__"/],
    ['{"constructor":{"prototype":{"polluted":1}},"hosts":["a.test"]}', /unknown field "constructor"/],
    ['{"hosts":["a.test"],"limit":5}', /unknown field "limit"/],
    ['{"hosts":[{"$gt":""}]}', /hosts\[0\] must be a host name string, not an object/],
    ['{"hosts":"a.test"}', /hosts must be an array of host names, not a string/],
    ['{"hosts":[]}', /hosts is empty/],
    ['{}', /hosts is required/],
    ['[]', /the body must be a JSON object/],
    ['{"hosts":["ok.test","not a host",""]}', /hosts\[1\] "not a host" is not a host name.*hosts\[2\] is empty/],
    ['{"hosts":["ok.test","javascript:alert(1)"]}', /hosts\[1\] "javascript:alert\(1\)" is not a host name/],
    ['{"hosts":["shop.test/products/x"]}', /hosts\[0\] "shop\.test\/products\/x" is not a host name/],
    [`{"hosts":["${'a'.repeat(254)}"]}`, /hosts\[0\] is longer than 253 characters/],
    ['{"hosts":[', /not valid JSON/],
  ];
  for (const [body, message] of cases) {
    const res = await post(app, key, body);
    assert.equal(res.status, 400, body);
    assert.equal(res.body.code, 'INVALID_BODY', body);
    assert.match(res.body.message, message, body);
    assert.equal(res.body.error, res.body.message);
  }
});

test('a non-JSON content type is 400 INVALID_BODY, a 64 KiB body 413 PAYLOAD_TOO_LARGE, both JSON', async (t) => {
  const { app, key } = await proApp(t);
  const plain = await post(app, key, '{"hosts":["a.test"]}', { 'content-type': 'text/plain' });
  assert.equal(plain.status, 400);
  assert.equal(plain.body.code, 'INVALID_BODY');
  assert.match(plain.body.message, /send a JSON body with Content-Type: application\/json/i);
  const none = await post(app, key, 'hosts=a.test', { 'content-type': 'application/x-www-form-urlencoded' });
  assert.equal(none.status, 400);
  assert.equal(none.body.code, 'INVALID_BODY');

  for (const size of [64 * 1024, 64 * 1024 + 1, 1024 * 1024]) {
    const prefix = '{"hosts":["';
    const body = `${prefix}${'a'.repeat(size - prefix.length - 3)}"]}`;
    assert.equal(Buffer.byteLength(body), size);
    const big = await post(app, key, body);
    assert.equal(big.status, 413, String(size));
    assert.match(big.headers.get('content-type') ?? '', /application\/json/);
    assert.equal(big.body.code, 'PAYLOAD_TOO_LARGE');
    assert.doesNotMatch(JSON.stringify(big.body), /\bat \/|node_modules/);
  }
});

test('the pollution attempts leave Object.prototype untouched (in-process app)', async (t) => {
  const { app, key } = await proApp(t);
  for (const body of [
    '{"__proto__":{"polluted":1},"hosts":["a.test"]}',
    '{"constructor":{"prototype":{"polluted":1}},"hosts":["a.test"]}',
    '{"hosts":["a.test"],"__proto__":{"polluted":1}}',
  ]) {
    const res = await post(app, key, body);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'INVALID_BODY');
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
});

test('Idempotency-Key is echoed byte for byte, absent stays absent, invalid is 400', async (t) => {
  const { app, key } = await proApp(t);
  const body = JSON.stringify({ hosts: ['a.test'] });
  const quoted = '"8e03978e-40d5-43e8-bc93-6894a57f9324"';
  const echoed = await post(app, key, body, { ...JSON_TYPE, 'idempotency-key': quoted });
  assert.equal(echoed.status, 200);
  assert.equal(echoed.headers.get('idempotency-key'), quoted);

  const longest = 'k'.repeat(255);
  assert.equal((await post(app, key, body, { ...JSON_TYPE, 'idempotency-key': longest })).headers.get('idempotency-key'), longest);
  const spaced = '"a key with spaces"';
  assert.equal((await post(app, key, body, { ...JSON_TYPE, 'idempotency-key': spaced })).headers.get('idempotency-key'), spaced);

  const absent = await post(app, key, body);
  assert.equal(absent.status, 200);
  assert.equal(absent.headers.get('idempotency-key'), null);

  for (const bad of ['a'.repeat(256), 'tab\there', '']) {
    const res = await post(app, key, body, { ...JSON_TYPE, 'idempotency-key': bad });
    assert.equal(res.status, 400, JSON.stringify(bad));
    assert.equal(res.body.code, 'INVALID_BODY');
    assert.match(res.body.message, /Idempotency-Key/);
    assert.equal(res.headers.get('idempotency-key'), null);
  }
  const long = await post(app, key, body, { ...JSON_TYPE, 'idempotency-key': 'a'.repeat(256) });
  assert.match(long.body.message, /1 to 255 characters long \(got 256\)/);

  // Two headers (node:http sends each line; fetch would fold them into one).
  const twice = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      `${app.url}/api/v1/reports`,
      { method: 'POST', headers: { ...JSON_TYPE, authorization: `Bearer ${key}`, 'idempotency-key': ['one', 'two'] } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  assert.equal(twice.status, 400);
  assert.match(JSON.parse(twice.body).message, /Idempotency-Key header once/);
});

test('without a valid Pro key the bulk read is 401 UNAUTHORIZED with WWW-Authenticate', async (t) => {
  const { app, key } = await proApp(t);
  const revoked = await createApiKey(app.db, 'former@example.test');
  await app.db.revokeApiKey(revoked.record.id, new Date());
  const body = JSON.stringify({ hosts: ['a.test'] });

  const missing = await post(app, null, body);
  assert.equal(missing.status, 401);
  assert.equal(missing.body.code, 'UNAUTHORIZED');
  assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="store-readiness"');

  const wrong = await post(app, null, body, { ...JSON_TYPE, authorization: 'Bearer srk_wrong' });
  const gone = await post(app, null, body, { ...JSON_TYPE, authorization: `Bearer ${revoked.key}` });
  const basic = await post(app, null, body, { ...JSON_TYPE, authorization: 'Basic dXNlcjpwdw==' });
  for (const res of [wrong, gone, basic]) {
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'UNAUTHORIZED');
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer realm="store-readiness"/);
  }
  assert.match(wrong.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  assert.deepEqual(gone.body, wrong.body, 'a revoked key looks exactly like a wrong one');
  assert.equal(gone.headers.get('www-authenticate'), wrong.headers.get('www-authenticate'));

  // Auth comes before the body: a bad body without a key is still 401, and the good key still works.
  assert.equal((await post(app, null, '{"hosts":[')).status, 401);
  assert.equal((await post(app, key, body)).status, 200);
});
