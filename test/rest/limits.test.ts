// Rate limits, quotas and Pro-key auth through the real app and the real store (docs/security.md K1, L1–L3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ipKeyGenerator } from 'express-rate-limit';
import { getJson, startApp, type TestApp } from '../helpers/start-app.js';
import { signedRequests, startFixtureStore, type FixtureStore } from '../helpers/fixture-store.js';
import { createApiKey } from '../../accounts/keys.js';
import { BatchedLimiterStore, createGuards } from '../../rest/limits.js';
import { saveFakeScan } from '../helpers/scans.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import { testConfig } from '../../lib/config.js';
import { DatabaseUnavailableError } from '../../lib/db-failure.js';

const PAGE = '<!doctype html><html><head><title>Tiny shop</title></head><body><h1>Tiny shop</h1></body></html>';

async function tinyStore(t: { after(fn: () => unknown): void }): Promise<FixtureStore> {
  const store = await startFixtureStore({ '/': { body: PAGE } });
  t.after(() => store.close());
  return store;
}

const scan = (app: TestApp, store: FixtureStore, headers: Record<string, string> = {}) =>
  getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`, { headers });

/** Structured-field list items like `"name"; r=0; t=12` (RFC 9651), strictly. */
function parseSfList(value: string | null): { name: string; params: Record<string, string> }[] {
  assert.ok(value, 'header present');
  return value.split(/,\s*/).map((item) => {
    const [name, ...params] = item.split(/;\s*/);
    assert.match(name, /^"[a-z0-9-]+"$/, `string item in ${value}`);
    const parsed: Record<string, string> = {};
    for (const p of params) {
      const [k, v] = p.split('=');
      assert.match(k, /^[a-z]+$/);
      if (k === 'q' || k === 'r' || k === 't' || k === 'w') assert.match(v, /^\d+$/, `${k} is an integer in ${value}`);
      parsed[k] = v;
    }
    return { name: name.slice(1, -1), params: parsed };
  });
}

test('anonymous scans: exactly the hourly limit gets through, then 429 with Retry-After and RateLimit r=0', async (t) => {
  const app = await startApp(t, { ANON_SCANS_PER_HOUR: '3' });
  const store = await tinyStore(t);
  const statuses: number[] = [];
  let last;
  for (let i = 0; i < 4; i++) {
    last = await scan(app, store);
    statuses.push(last.status);
    if (i === 0) {
      const scanHeader = parseSfList(last.headers.get('ratelimit')).find((h) => h.name === 'scan');
      assert.equal(scanHeader?.params.r, '2');
    }
  }
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  assert.equal(last!.body.code, 'RATE_LIMITED');
  assert.match(last!.body.message, /limit/i);
  assert.match(last!.body.message, /retry in \d+ seconds/i);
  const retryAfter = Number(last!.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 3600, String(retryAfter));
  const scanHeader = parseSfList(last!.headers.get('ratelimit')).find((h) => h.name === 'scan');
  assert.equal(scanHeader?.params.r, '0');
  // The scans' own requests (the agents matrix of an accepted scan asks the home page again, unsigned).
  assert.equal(signedRequests(store, '/').length, 3 * 3, 'rejected scans never reach the store (home fetched three times per scan: neutral, agent UA, and as Markdown since the store has no product page)');
});

test('calls refused before a scan starts spend no scan quota yet carry its headers; 502 and 504 still count', async (t) => {
  // Production address rules, with the fixtures' loopback address allowed by the test seam.
  const app = await startApp(t, { ANON_SCANS_PER_HOUR: '3', SCAN_ALLOW_PRIVATE: '0', SCAN_TIMEOUT_MS: '1000' }, { scanOverrides: { allowIPAddressList: ['127.0.0.1'] } });
  const store = await tinyStore(t);
  const silent = await startFixtureStore({ '*': () => {} });
  t.after(() => silent.close());
  const gone = await startFixtureStore({});
  await gone.close();
  const target = encodeURIComponent(store.url);
  const refusals: [string, RequestInit, number, string][] = [
    ['', {}, 400, 'MISSING_URL'],
    ['?url=', {}, 400, 'MISSING_URL'],
    [`?url=${target}&url=${target}`, {}, 400, 'INVALID_URL'],
    [`?url=${encodeURIComponent('ftp://shop.test/')}`, {}, 400, 'INVALID_URL'],
    [`?url=${encodeURIComponent('http://user:pw@shop.test/')}`, {}, 400, 'INVALID_URL'],
    [`?url=${encodeURIComponent('http://10.0.0.1/')}`, {}, 400, 'INVALID_URL'],
    [`?url=${encodeURIComponent(`http://127.0.0.2:${store.port}/`)}`, {}, 400, 'INVALID_URL'],
    [`?url=${encodeURIComponent(`https://shop.test/${'a'.repeat(4096)}`)}`, {}, 400, 'INVALID_URL'],
    [`?url=${target}&vertical=spaceships`, {}, 400, 'INVALID_PARAMS'],
    [`?url=${target}`, { headers: { authorization: 'Bearer srk_wrong' } }, 401, 'UNAUTHORIZED'],
    [`?url=${target}`, { method: 'HEAD' }, 405, ''],
    [`?url=${target}`, { method: 'POST' }, 405, 'METHOD_NOT_ALLOWED'],
  ];
  for (const prefix of ['/api/v1', '/api']) {
    for (const [query, init, status, code] of refusals) {
      const label = `${init.method ?? 'GET'} ${prefix}/scan${query.slice(0, 60)}`;
      const res = await getJson(`${app.url}${prefix}/scan${query}`, init);
      assert.equal(res.status, status, label);
      if (code) assert.equal(res.body.code, code, label);
      // Refused before the limiter: its headers say nothing was spent (a HEAD or another method never reaches it).
      const scanHeader = parseSfList(res.headers.get('ratelimit')).find((h) => h.name === 'scan');
      if (status !== 405) assert.equal(scanHeader?.params.r, '3', label);
    }
  }
  assert.equal(store.requests.length, 0, 'no refused call reached the store');

  const first = await scan(app, store);
  assert.equal(first.status, 200, 'after 24 refusals the first real scan goes through');
  assert.equal(parseSfList(first.headers.get('ratelimit')).find((h) => h.name === 'scan')?.params.r, '2');
  const unreachable = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(gone.url)}`);
  assert.equal(unreachable.status, 502, 'a store that cannot be reached was still tried: it counts');
  const timeout = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(silent.url)}`);
  assert.equal(timeout.status, 504, 'a store that does not answer in time was still fetched: it counts');
  assert.equal(parseSfList(timeout.headers.get('ratelimit')).find((h) => h.name === 'scan')?.params.r, '0');
  const refused = await scan(app, store);
  assert.equal(refused.status, 429);
  const missing = await getJson(`${app.url}/api/v1/scan`);
  assert.equal(missing.status, 400, 'arguments are judged before the limit: a bad call is told what is wrong with it');
  assert.equal(parseSfList(missing.headers.get('ratelimit')).find((h) => h.name === 'scan')?.params.r, '0');
});

test('a Pro key\'s refused scan calls spend neither its hourly nor its 30-day quota', async (t) => {
  const app = await startApp(t, { PRO_SCANS_PER_HOUR: '5', PRO_SCANS_PER_30_DAYS: '50' });
  const store = await tinyStore(t);
  const { key } = await createApiKey(app.db, 'refused@shop.test');
  const pro = { authorization: `Bearer ${key}` };
  const left = (res: { headers: Headers }) =>
    parseSfList(res.headers.get('ratelimit')).filter((h) => h.name !== 'read').map((h) => [h.name, h.params.r]);
  for (const query of ['', `?url=${encodeURIComponent('ftp://shop.test/')}`, `?url=${encodeURIComponent(store.url)}&vertical=nope`]) {
    const res = await getJson(`${app.url}/api/v1/scan${query}`, { headers: pro });
    assert.equal(res.status, 400, query);
    assert.deepEqual(left(res), [['scan', '5'], ['pro-30d', '50']], query);
  }
  const ok = await scan(app, store, pro);
  assert.equal(ok.status, 200);
  assert.deepEqual(left(ok), [['scan', '4'], ['pro-30d', '49']]);
});

test('X-Forwarded-For is ignored unless TRUST_PROXY says so', async (t) => {
  const untrusted = await startApp(t, { ANON_SCANS_PER_HOUR: '1' });
  const store = await tinyStore(t);
  assert.equal((await scan(untrusted, store, { 'x-forwarded-for': '1.2.3.1' })).status, 200);
  assert.equal((await scan(untrusted, store, { 'x-forwarded-for': '1.2.3.2' })).status, 429);

  const trusted = await startApp(t, { ANON_SCANS_PER_HOUR: '1', TRUST_PROXY: '1' });
  assert.equal((await scan(trusted, store, { 'x-forwarded-for': '9.9.9.9' })).status, 200);
  assert.equal((await scan(trusted, store, { 'x-forwarded-for': '9.9.9.9' })).status, 429);
  assert.equal((await scan(trusted, store, { 'x-forwarded-for': '9.9.9.8' })).status, 200, 'another client IP has its own budget');
});

test('IPv6 clients are keyed by /56, an IPv4 client by its address whether or not it is written IPv4-mapped', async (t) => {
  assert.equal(ipKeyGenerator('2001:db8:0:1::1', 56), ipKeyGenerator('2001:db8:0:ff::2', 56));
  const app = await startApp(t, { ANON_READS_PER_MINUTE: '2', TRUST_PROXY: '1' });
  const read = async (ip: string) => (await fetch(`${app.url}/api/v1`, { headers: { 'x-forwarded-for': ip } })).status;
  assert.equal(await read('2001:db8:0:1::1'), 200);
  assert.equal(await read('2001:db8:0:ff::2'), 200);
  assert.equal(await read('2001:db8:0:1::3'), 429, 'the same /56 shares one budget');
  assert.equal(await read('2001:db8:0:100::1'), 200, 'the next /56 has its own');
  assert.equal(await read('1.2.3.4'), 200);
  assert.equal(await read('::ffff:1.2.3.4'), 200);
  assert.equal(await read('1.2.3.4'), 429, 'an IPv4-mapped address is the IPv4 client');
  assert.equal(await read('1.2.3.5'), 200);
});

test('a Pro key has its own scan budget, independent of the IP', async (t) => {
  const app = await startApp(t, { ANON_SCANS_PER_HOUR: '1', PRO_SCANS_PER_HOUR: '2' });
  const store = await tinyStore(t);
  const { key } = await createApiKey(app.db, 'owner@shop.test');
  const pro = { authorization: `Bearer ${key}` };
  assert.equal((await scan(app, store)).status, 200);
  assert.equal((await scan(app, store)).status, 429);
  const first = await scan(app, store, pro);
  assert.equal(first.status, 200);
  assert.deepEqual(
    parseSfList(first.headers.get('ratelimit-policy')).map((p) => [p.name, p.params.q]),
    [['read', '3000'], ['scan', '2'], ['pro-30d', '1000']],
  );
  assert.equal((await scan(app, store, pro)).status, 200);
  assert.equal((await scan(app, store, pro)).status, 429);
});

test('the rolling 30-day Pro quota is counted in the store and frees up after 30 days', async (t) => {
  let clock = Date.UTC(2026, 10, 22, 12);
  const repo = new SqliteRepo(':memory:');
  const env = { PRO_SCANS_PER_30_DAYS: '1000', PRO_SCANS_PER_HOUR: '100' };
  const guards = createGuards({ config: testConfig(env), db: repo, now: () => clock });
  const app = await startApp(t, env, { db: repo, guards });
  const store = await tinyStore(t);
  const { key, record } = await createApiKey(repo, 'quota@shop.test');
  const day = 86_400_000;
  const today = Math.floor(clock / day);
  // 999 scans over the last 29 days: each day's bucket counts until 30 days after that day ends.
  for (let i = 1; i <= 29; i++) {
    const period = String((today - i + 1 + 30) * day).padStart(15, '0');
    await repo.incrementUsage(`pro-30d:key:${record.id}`, period, i === 1 ? 999 - 28 : 1);
  }
  const pro = { authorization: `Bearer ${key}` };
  assert.equal((await scan(app, store, pro)).status, 200);
  const refused = await scan(app, store, pro);
  assert.equal(refused.status, 429);
  assert.match(refused.body.message, /30 days/);
  assert.ok(parseSfList(refused.headers.get('ratelimit')).some((h) => h.name === 'pro-30d' && h.params.r === '0'));
  clock += 31 * day;
  assert.equal((await scan(app, store, pro)).status, 200);
});

test('reads per minute are limited per caller, and health checks never are', async (t) => {
  const app = await startApp(t, { ANON_READS_PER_MINUTE: '3' });
  const codes = [];
  for (let i = 0; i < 4; i++) codes.push((await fetch(`${app.url}/api/v1`)).status);
  assert.deepEqual(codes, [200, 200, 200, 429]);
  const health = await fetch(`${app.url}/healthz`);
  assert.equal(health.status, 200);
  assert.ok(health.headers.get('ratelimit'), 'health answers still carry RateLimit');
  const ready = await fetch(`${app.url}/readyz`);
  assert.equal(ready.status, 200);
});

test('RateLimit and RateLimit-Policy are structured-field lists on every surface', async (t) => {
  const app = await startApp(t, { ANON_READS_PER_MINUTE: '300' });
  await saveFakeScan(app.db, { host: 'shop.test', score: 80 });
  const paths = ['/api/v1', '/api/v1/scan/1.json', '/api/nope', '/badge/shop.test.svg', '/verify/shop.test', '/r/1', '/llms.txt', '/healthz'];
  for (const path of paths) {
    const res = await fetch(`${app.url}${path}`, { redirect: 'manual' });
    const limits = parseSfList(res.headers.get('ratelimit'));
    const policies = parseSfList(res.headers.get('ratelimit-policy'));
    assert.ok(limits.some((l) => l.name === 'read'), path);
    assert.ok(policies.some((p) => p.name === 'read' && p.params.q === '300' && p.params.w === '60'), path);
  }
  const mcp = await fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  assert.ok(parseSfList(mcp.headers.get('ratelimit')).some((l) => l.name === 'read'));
});

test('Pro endpoints: missing, malformed, unknown and revoked keys are identical 401s', async (t) => {
  const app = await startApp(t);
  const { key, record } = await createApiKey(app.db, 'k1@shop.test');
  await app.db.revokeApiKey(record.id, new Date());
  const post = (authorization?: string) =>
    getJson(`${app.url}/api/v1/reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify({ hosts: ['shop.test'] }),
    });
  const none = await post();
  assert.equal(none.status, 401);
  assert.equal(none.body.code, 'UNAUTHORIZED');
  assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="store-readiness"');
  const wrong = await post('Bearer srk_wrong');
  const revoked = await post(`Bearer ${key}`);
  const basic = await post('Basic dXNlcjpwdw==');
  const huge = await post(`Bearer ${'a'.repeat(10_240)}`);
  for (const res of [wrong, revoked, basic, huge]) {
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, wrong.body);
    assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="store-readiness", error="invalid_token"');
  }
  const viaQuery = await getJson(`${app.url}/api/v1/reports?api_key=${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hosts":["a.test"]}' });
  assert.equal(viaQuery.status, 401, 'keys in the query string are ignored');
});

test('an invalid key on a free endpoint is a 401, never a silent anonymous call', async (t) => {
  const app = await startApp(t);
  const res = await getJson(`${app.url}/api/v1/scan/1.json`, { headers: { authorization: 'Bearer srk_nope' } });
  assert.equal(res.status, 401);
  assert.equal(res.body.code, 'UNAUTHORIZED');
});

test('a key that cannot be checked because the store fails is a 503 with Retry-After, not a 401, a 500 or a hang', { timeout: 20_000 }, async (t) => {
  const db = new SqliteRepo(':memory:');
  let failing = false;
  const findApiKey = db.findApiKey.bind(db);
  // The key lookup fails as a store that went away does; every other call still works.
  db.findApiKey = async (hash) => {
    if (failing) throw new DatabaseUnavailableError('the store went away');
    return findApiKey(hash);
  };
  const app = await startApp(t, {}, { db });
  const known = await saveFakeScan(db, { host: 'known.example', score: 80 });
  const { key } = await createApiKey(db, 'a@b.test');
  const answer = () => getJson(`${app.url}/api/v1/scan/${known.scan_id}.json`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal((await answer()).status, 200);
  failing = true;
  const res = await answer();
  assert.equal(res.status, 503);
  assert.equal(res.body.code, 'SERVICE_UNAVAILABLE');
  assert.ok(Number(res.headers.get('retry-after')) > 0);
  assert.equal((await getJson(`${app.url}/api/v1/scan/${known.scan_id}.json`)).status, 200, 'a call without a key needs no lookup');
  failing = false;
  assert.equal((await answer()).status, 200);
});

test('a created key is stored only as a hash', async (t) => {
  const app = await startApp(t);
  const { key } = await createApiKey(app.db, 'hash@shop.test');
  assert.match(key, /^srk_[A-Za-z0-9_-]{32}_[0-9a-f]{8}$/);
  for (const file of readdirSync(app.dataDir, { recursive: true }) as string[]) {
    assert.equal(readFileSync(join(app.dataDir, file)).includes(key), false, file);
  }
});

test('10× over the anonymous scan limit: exactly the limit is scanned, the rest are 429s that never reach the store', async (t) => {
  const app = await startApp(t, { ANON_SCANS_PER_HOUR: '5' });
  const store = await tinyStore(t);
  const answers = [];
  for (let i = 0; i < 50; i++) answers.push(await scan(app, store));
  assert.equal(answers.filter((a) => a.status === 200).length, 5);
  const refused = answers.filter((a) => a.status === 429);
  assert.equal(refused.length, 45);
  for (const r of refused) {
    assert.equal(r.body.code, 'RATE_LIMITED');
    assert.match(r.headers.get('retry-after') ?? '', /^\d+$/);
    assert.ok(parseSfList(r.headers.get('ratelimit')).some((h) => h.name === 'scan' && h.params.r === '0'));
  }
  // The scans' own requests (the agents matrix of each accepted scan asks the home page again, unsigned).
  assert.equal(signedRequests(store, '/').length, 5 * 3, 'home fetched by 5 scans only (neutral, agent UA, and as Markdown: no product page)');
});

test('batched read counters: exact in one instance, shared with another through the store after a flush', async () => {
  const repo = new SqliteRepo(':memory:');
  await repo.init();
  const now = () => Date.UTC(2026, 10, 22, 12, 0, 30);
  const a = new BatchedLimiterStore(repo, 'read:', 60_000, now);
  const b = new BatchedLimiterStore(repo, 'read:', 60_000, now);
  for (let i = 1; i <= 3; i++) assert.equal((await a.increment('ip:x')).totalHits, i);
  await a.flush();
  assert.equal((await b.increment('ip:x')).totalHits, 1, 'b has not heard from the store yet');
  await b.flush();
  assert.equal((await b.get('ip:x')).totalHits, 4, 'after its flush b counts a\'s hits too');
  await repo.close();
});
