// Property-based fuzzing of every REST surface through the real app (docs/security.md O7/O8, and the
// JSON error contract): random paths (percent-encoded garbage, dots, operators, unicode, sent raw), query strings,
// headers (Authorization, Idempotency-Key, Origin, Content-Type, Accept …) and bodies. Properties: never a 5xx; every
// error under /api (and /badge, /verify for non-browsers) is JSON in the spec shape; no stack or file path in any
// body; the process stays up; stored data is unchanged (except by the one property that scans the fixture).
// Seeded and bounded: FUZZ_SEED reproduces a run (FUZZ_SCALE=10 hunts deeper); each property stops at its time budget.
import '../support/loopback-guard.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import { startApp, type TestApp } from '../helpers/start-app.js';
import { startStoreFrom, type FixtureStore } from '../helpers/fixture-store.js';
import { saveFakeScan } from '../helpers/scans.js';
import { brochureStore } from '../fixtures/stores.js';
import { createApiKey } from '../../accounts/keys.js';
import { ErrorBody } from '../../lib/errors.js';
import { ERROR_STATUS } from '../../lib/errors.js';
import type { ScanResult } from '../../schemas/scan-result.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1); // more runs and time for a deeper local hunt
fc.configureGlobal({ seed: SEED, endOnFailure: true });
const STACK_OR_PATH = /\n\s+at |\bat [\w.<>]+ \(|\/work\/|node_modules|\.ts:\d+/;

let app: TestApp; // production rules; every name fails to resolve, so no scan can reach anything
let scanApp: TestApp; // for the one property that really scans the loopback fixture
let shop: FixtureStore;
let key: string;
let seeded: ScanResult;
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
let sentCount = 0;

const nxdomain = (hostname: string, _o: object, cb: (err: Error, a: never[]) => void) =>
  setImmediate(() => cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []));

before(async () => {
  app = await startApp(null, { SCAN_ALLOW_PRIVATE: '0', SCAN_TIMEOUT_MS: '3000', PRO_READS_PER_MINUTE: '10000000' }, { scanOverrides: { lookup: nxdomain } });
  shop = await startStoreFrom(brochureStore);
  scanApp = await startApp(null, { SCAN_ALLOW_PRIVATE: '0' }, { scanOverrides: { lookup: nxdomain, allowIPAddressList: ['127.0.0.1'] } });
  ({ key } = await createApiKey(app.db, 'fuzz@shop.test'));
  seeded = await saveFakeScan(app.db, { host: 'seeded.test', score: 64 });
  await saveFakeScan(app.db, { host: `127.0.0.1:${shop.port}`, score: 50 });
});
after(async () => {
  agent.destroy();
  await app?.close();
  await scanApp?.close();
  await shop?.close();
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request with the path sent exactly as given (no URL normalisation), over a keep-alive agent. */
function send(target: TestApp, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Raw> {
  const { port } = new URL(target.url);
  sentCount++;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: Number(port), method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function snapshot(target: TestApp) {
  return {
    stores: await target.db.countStores(),
    seeded: JSON.stringify((await target.db.getScan(seeded.scan_id))?.report),
    latest: JSON.stringify(await target.db.latestByHost('seeded.test')),
  };
}

/** The contract for one answer: no 5xx, no stack, JSON Error shape where the API promises JSON. */
function check(res: Raw, method: string, path: string, wantsHtml = false, allowed5xx: number[] = []): void {
  const label = `${method} ${path.slice(0, 120)} → ${res.status} ${res.text.slice(0, 160)}`;
  assert.ok(res.status >= 200 && (res.status < 500 || allowed5xx.includes(res.status)), label);
  assert.doesNotMatch(res.text, STACK_OR_PATH, label);
  const jsonSurface = /^\/api(\/|$|\?)/.test(path) || (!wantsHtml && /^\/(badge|verify)\//.test(path));
  if (res.status >= 400 && jsonSurface && method !== 'HEAD') {
    assert.match(String(res.headers['content-type']), /^application\/json/, label);
    const body = JSON.parse(res.text);
    assert.ok(ErrorBody.safeParse(body).success, label);
    assert.deepEqual(Object.keys(body).filter((k) => !['code', 'message', 'error', 'next_action'].includes(k)), [], label);
    assert.equal(ERROR_STATUS[body.code as keyof typeof ERROR_STATUS], res.status, label);
    assert.equal(body.error, body.message, label);
    assert.equal(res.headers.location, undefined, label);
  }
}

// ------------------------------------------------------------------------------------------------------------
// Arbitraries

const pct = (s: string) => encodeURIComponent(s);
const rawAscii = fc.string({ unit: fc.constantFrom(...'abcXYZ019-._~!$&\'()*+,;=:@%[]{}"<>^`|\\'.split('')), maxLength: 10 });
const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(
    'api', 'v1', 'scan', 'reports', 'badge', 'verify', 'r', 'mcp', 'index', 'stores', '.well-known', 'llms.txt', 'openapi.json',
    'healthz', 'readyz', 'tools.json', 'brief.md', '1.json', '1', '0', '-1', '1e3', '0x1', '9007199254740993', 'seeded.test',
    'seeded.test.svg', 'shop.test', 'assets', 'styles.css', '..', '.', '%2e%2e', '%2F', '%5C', '%00', '%0d%0a', '%', '%E0%A4%A',
    '%ZZ', '%7B%22%24gt%22%3A%22%22%7D', '$where', '__proto__', 'constructor', 'prototype', '*', '~', ';', ',', 'auth.md',
    'mcp', 'server-card.json', '', '%C0%AE%C0%AE', '%u002e', '..%2f', '%2e%2e%5c',
  ) },
  { weight: 2, arbitrary: rawAscii.filter((s) => !/[?#]/.test(s)) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }).map(pct) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }).map(pct) },
);
const prefix = fc.constantFrom('/api/v1', '/api', '/badge', '/verify', '/r', '/mcp', '/index', '', '/api/v1/scan', '/.well-known', '//', '/API/V1');
const suffix = fc.constantFrom('', '', '.json', '.svg', '/', '/brief.md', '.md', '%00', '/..');
const path = fc.tuple(prefix, fc.array(segment, { minLength: 0, maxLength: 4 }), suffix).map(([p, segs, s]) => `${p}/${segs.join('/')}${s}`);

/** URL values that can never be a public IP literal (a number like 134744072 is 8.8.8.8 to WHATWG URL). */
function neverPublicLiteral(v: string): boolean {
  try {
    const host = new URL(/^[a-z][a-z0-9+.-]*:/i.test(v) ? v : `https://${v}`).hostname.replace(/^\[|\]$/g, '');
    return net.isIP(host) === 0 && !/^[0-9.]+$|^0x/i.test(host);
  } catch {
    return true;
  }
}
const urlValue = fc
  .oneof(
    fc.constantFrom(
      'ftp://shop.test/', 'javascript:alert(1)', 'file:///etc/passwd', 'http://user:pass@shop.test/', 'http://localhost/', 'http://127.0.0.1/',
      'http://[::1]/', 'http://169.254.169.254/', 'http://shop.test:22/', 'gopher://x/', '', ' ', 'http://', 'https://', '//shop.test',
      'shop.test', 'http://shop.test/%00', 'http://xn--/', 'http://a..b/', 'http://[::ffff:127.0.0.1]/', 'http://0/', `https://x.test/${'a'.repeat(3000)}`,
    ),
    fc.tuple(fc.constantFrom('http://', 'https://', '', 'HTTP://', 'http:', 'ws://'), fc.domain(), fc.constantFrom('', ':80', ':443', ':8080', ':0', ':99999'), fc.webPath()).map(
      ([s, d, p, w]) => `${s}${d}${p}${w}`,
    ),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
  )
  .filter(neverPublicLiteral);
const queryKey = fc.oneof(
  fc.constantFrom('url', 'vertical', 'page', 'limit', 'host', 'api_key', '__proto__[polluted]', 'url[$gt]', 'url[]', 'constructor[prototype][x]', 'q', 'v'),
  rawAscii.filter((s) => !/[&=#]/.test(s)),
);
const queryValue = fc.oneof(urlValue.map(pct), fc.string({ unit: 'binary-ascii', maxLength: 20 }).map(pct), fc.constantFrom('%', '%ZZ', '%00', '1', '-1', 'apparel'));
const query = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }).map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));
const method = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND');

/** Header values node:http will send: visible ASCII, spaces and a few Latin-1 bytes, no CR/LF/NUL. */
const headerValue = fc.string({ unit: fc.constantFrom(...'abcAZ09 -_.:/;=,"\'()[]{}<>@!*+%$&|~^`\\?é\u00ff'.split('')), maxLength: 40 }).map((s) => s.trim());

// ------------------------------------------------------------------------------------------------------------

test('random paths, methods and query strings: never 5xx, JSON errors under /api, stored data unchanged', { timeout: 60_000 }, async () => {
  const before = await snapshot(app);
  const shopSeen = shop.requests.length;
  await fc.assert(
    fc.asyncProperty(method, path, query, async (m, p, q) => {
      // /scan with a url scans (GET and HEAD): every name fails to resolve here (502) and no public literal is generated.
      const res = await send(app, m, `${p}${q}`);
      check(res, m, `${p}${q}`, false, /\/scan\/?$/i.test(p) && /[?&]url=/.test(q) ? [502, 504] : []);
    }),
    { numRuns: 700 * SCALE, plugins: [fc.interruptAfterTimeLimit(7_000 * SCALE)] },
  );
  assert.deepEqual(await snapshot(app), before);
  assert.equal(shop.requests.length, shopSeen, 'the fixture was never contacted');
});

test('random headers on every route: never 5xx, the error shape holds, Idempotency-Key echoed only when valid and byte for byte', { timeout: 60_000 }, async () => {
  const before = await snapshot(app);
  const routes: [string, string, string?][] = [
    ['GET', '/api/v1'],
    ['GET', `/api/v1/scan/${seeded.scan_id}.json`],
    ['GET', `/api/v1/scan/${seeded.scan_id}/brief.md`],
    ['POST', '/api/v1/reports', JSON.stringify({ hosts: ['seeded.test', 'unknown.test'] })],
    ['GET', '/badge/seeded.test.svg'],
    ['GET', '/verify/seeded.test'],
    ['GET', `/r/${seeded.scan_id}`],
    ['POST', '/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })],
    ['GET', '/healthz'],
    ['GET', '/api/v1/scan?url=ftp%3A%2F%2Fshop.test%2F'],
    ['GET', '/api/tools.json'],
  ];
  const authorization = fc.oneof(
    headerValue,
    headerValue.map((v) => `Bearer ${v}`),
    fc.constant(`Bearer ${key}`),
    fc.nat({ max: 40 }).map((i) => `Bearer ${key.slice(0, i)}${key.slice(i + 1)}`),
    fc.constantFrom('Basic dXNlcjpwdw==', 'Bearer', 'bearer x', `Bearer  ${key}`, `Bearer ${'a'.repeat(5000)}`),
  );
  const headers = fc.record(
    {
      authorization,
      'idempotency-key': fc.oneof(headerValue, fc.string({ unit: fc.constantFrom('a', 'Z', '9', '-'), minLength: 250, maxLength: 260 })),
      origin: fc.oneof(headerValue, fc.webUrl(), fc.constantFrom('null', 'http://localhost:3000', 'https://evil.test')),
      'content-type': fc.oneof(headerValue, fc.constantFrom('application/json', 'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1')),
      accept: fc.oneof(headerValue, fc.constantFrom('text/html', 'application/json', 'text/event-stream', '*/*')),
      'x-forwarded-for': headerValue,
      'x-request-id': headerValue,
      'content-encoding': fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'x-custom', 'gzip, gzip'),
      'mcp-protocol-version': headerValue,
    },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...routes), headers, async ([m, p, body], h) => {
      const sent = Object.fromEntries(Object.entries(h).filter(([, v]) => v !== ''));
      const res = await send(app, m, p, sent, body);
      check(res, m, p, /text\/html/i.test(sent.accept ?? ''));
      const echoed = res.headers['idempotency-key'];
      if (echoed !== undefined) {
        assert.equal(echoed, sent['idempotency-key'], 'echoed byte for byte');
        assert.match(String(echoed), /^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/);
      }
      for (const [name, value] of Object.entries(res.headers)) {
        assert.doesNotMatch(`${name}: ${String(value)}`, /[\r\n]/, 'no header injection');
      }
    }),
    { numRuns: 400 * SCALE, plugins: [fc.interruptAfterTimeLimit(5_000 * SCALE)] },
  );
  assert.deepEqual(await snapshot(app), before);
});

test('random bodies to POST /api/v1/reports and the scan form: 200 with one answer per host, or a 4xx in the spec shape', { timeout: 60_000 }, async () => {
  const before = await snapshot(app);
  const host = fc.oneof(fc.domain(), fc.constantFrom('seeded.test', 'SEEDED.TEST', 'www.seeded.test', '', ' ', '__proto__', 'a'.repeat(254)), fc.string({ maxLength: 20 }));
  const hostish = fc.oneof({ weight: 5, arbitrary: host }, fc.jsonValue({ maxDepth: 2 }), fc.constant({ $gt: '' }), fc.constant({ $ne: null }));
  const body = fc.oneof(
    fc.record({ hosts: fc.array(hostish, { maxLength: 105 }) }).map((o) => JSON.stringify(o)),
    fc.record({ hosts: fc.array(host, { maxLength: 3 }), extra: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: ['hosts'] }).map((o) => JSON.stringify(o)),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.json().map((s) => s.slice(0, Math.max(0, s.length - 1))), // truncated JSON
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.constantFrom('{"hosts":["a.test"],"__proto__":{"polluted":1}}', '{"hosts":' + '['.repeat(3000) + ']'.repeat(3000) + '}', '{"hosts":["a.test"]}garbage', ''),
  );
  await fc.assert(
    fc.asyncProperty(body, fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/json; charset=utf-8'), async (b, type) => {
      const res = await send(app, 'POST', '/api/v1/reports', { authorization: `Bearer ${key}`, 'content-type': type }, b);
      check(res, 'POST', '/api/v1/reports');
      assert.ok([200, 400, 413].includes(res.status), `${res.status} for ${b.slice(0, 100)}`);
      if (res.status === 200) {
        const sentHosts = (JSON.parse(b) as { hosts: unknown[] }).hosts;
        const answer = JSON.parse(res.text) as { reports: { host: string; scanned: boolean }[] };
        assert.equal(answer.reports.length, sentHosts.length);
        assert.ok(answer.reports.every((r) => typeof r.host === 'string' && typeof r.scanned === 'boolean'));
      }
    }),
    { numRuns: 250 * SCALE, plugins: [fc.interruptAfterTimeLimit(4_000 * SCALE)] },
  );
  const form = fc.tuple(
    fc.dictionary(fc.constantFrom('url', 'vertical', '__proto__', 'url[]', 'x'), fc.oneof(urlValue, fc.string({ maxLength: 20 })), { maxKeys: 4 }),
    fc.constantFrom('same-origin', 'cross-site', 'none', ''),
  );
  await fc.assert(
    fc.asyncProperty(form, async ([fields, site]) => {
      const res = await send(
        app,
        'POST',
        '/scan',
        { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...(site ? { 'sec-fetch-site': site } : {}) },
        new URLSearchParams(fields).toString(),
      );
      assert.ok(res.status < 500 || res.status === 502 || res.status === 504, `${res.status}: ${res.text.slice(0, 200)}`); // 502/504: the store
      assert.doesNotMatch(res.text, STACK_OR_PATH);
    }),
    { numRuns: 50 * SCALE, plugins: [fc.interruptAfterTimeLimit(3_000 * SCALE)] },
  );
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(await snapshot(app), before);
});

test('GET /api/v1/scan with random url values: 400 refusals or 502 unreachable, JSON, nothing stored, nothing fetched', { timeout: 60_000 }, async () => {
  const before = await snapshot(app);
  await fc.assert(
    fc.asyncProperty(urlValue, fc.option(fc.oneof(fc.constantFrom('apparel', 'pets', 'cars', ''), fc.string({ maxLength: 10 }))), async (u, vertical) => {
      const p = `/api/v1/scan?url=${pct(u)}${vertical === null ? '' : `&vertical=${pct(vertical)}`}`;
      const res = await send(app, 'GET', p);
      // 502 STORE_UNREACHABLE (no name resolves here) and 504 SCAN_TIMEOUT are the documented 5xx of a scan.
      check(res, 'GET', p, false, [502, 504]);
      assert.ok([400, 502, 504].includes(res.status), `${res.status} ${res.text.slice(0, 200)}`);
    }),
    { numRuns: 120 * SCALE, plugins: [fc.interruptAfterTimeLimit(4_000 * SCALE)] },
  );
  assert.deepEqual(await snapshot(app), before);
});

test('the loopback fixture scanned with random paths, queries, fragments and verticals: 200 for its host or a 4xx', { timeout: 60_000 }, async () => {
  const host = `127.0.0.1:${shop.port}`;
  await fc.assert(
    fc.asyncProperty(fc.webPath(), fc.webQueryParameters(), fc.webFragments(), fc.option(fc.constantFrom('apparel', 'pets', 'nope')), async (p, q, f, vertical) => {
      const target = `${shop.origin}${p.startsWith('/') ? p : `/${p}`}${q ? `?${q}` : ''}${f ? `#${f}` : ''}`;
      const url = `/api/v1/scan?url=${pct(target)}${vertical ? `&vertical=${vertical}` : ''}`;
      const res = await send(scanApp, 'GET', url);
      check(res, 'GET', url);
      if (res.status === 200) assert.equal((JSON.parse(res.text) as ScanResult).host, host);
      else assert.ok([400].includes(res.status), `${res.status} ${res.text.slice(0, 200)}`);
    }),
    { numRuns: 25 * SCALE, plugins: [fc.interruptAfterTimeLimit(5_000 * SCALE)] },
  );
});

test('after all that: the process answers /healthz and Object.prototype is clean', async (t) => {
  t.diagnostic(`seed ${SEED}: ${sentCount} requests sent`);
  assert.equal((await send(app, 'GET', '/healthz')).status, 200);
  assert.equal((await send(scanApp, 'GET', '/healthz')).status, 200);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
