// docs/security.md O1–O8, K1 and L2 at the service boundary, for what the unit and surface tests do not already prove
// (the README in this folder maps every row to its test). Each refusal is a clear 4xx in the spec's Error shape
// (JSON under /api, /badge and /verify), nothing leaks to a store, and nothing stored changes.
import '../support/loopback-guard.js';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import zlib from 'node:zlib';
import { parse } from 'parse5';
import { call, startApp, type Answer, type TestApp } from '../helpers/start-app.js';
import { assertRatio } from '../helpers/timing.js';
import { startFixtureStore, startStoreFrom, type FixtureStore } from '../helpers/fixture-store.js';
import { saveFakeScan } from '../helpers/scans.js';
import { HOSTILE_NAME, HOSTILE_TITLE, hostileStore } from '../fixtures/stores.js';
import { createApiKey } from '../../accounts/keys.js';
import { ErrorBody } from '../../lib/errors.js';
import { ERROR_STATUS } from '../../lib/errors.js';
import type { Repository } from '../../db/repo.js';
import type { ScanResult } from '../../schemas/scan-result.js';

const CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const BASE_URL = 'https://readiness.example';
const STACK_OR_PATH = /\n\s+at |\bat [\w.<>]+ \(|\/work\/|node_modules|\.ts:\d+/;

function assertApiError(res: Answer, status: number | number[], code?: string | string[], label = ''): void {
  const statuses = Array.isArray(status) ? status : [status];
  assert.ok(statuses.includes(res.status), `${label}: ${res.status} ${res.text.slice(0, 300)}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, label);
  assert.ok(ErrorBody.safeParse(res.body).success, `${label}: ${res.text.slice(0, 300)}`);
  assert.deepEqual(Object.keys(res.body).filter((k) => !['code', 'message', 'error', 'next_action'].includes(k)), [], label);
  assert.equal(ERROR_STATUS[res.body.code as keyof typeof ERROR_STATUS], res.status, label);
  assert.equal(res.body.error, res.body.message, label);
  if (code) assert.ok((Array.isArray(code) ? code : [code]).includes(res.body.code), `${label}: ${res.body.code}`);
  assert.doesNotMatch(res.text, STACK_OR_PATH, label);
  assert.equal(res.headers.get('location'), null, label);
}

interface RawAnswer {
  head: string;
  body: string;
  closed: boolean;
}

/** One raw HTTP/1.1 exchange; resolves when the server closes the socket or after `waitMs`. */
function raw(app: TestApp, request: string | Buffer, waitMs = 2000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(app.url).port), '127.0.0.1');
    let data = Buffer.alloc(0);
    let closed = false;
    const done = () => {
      clearTimeout(timer);
      const text = data.toString('latin1');
      const cut = text.indexOf('\r\n\r\n');
      resolve({ head: cut < 0 ? text : text.slice(0, cut), body: cut < 0 ? '' : text.slice(cut + 4), closed });
      socket.destroy();
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (d) => (data = Buffer.concat([data, d])));
    socket.on('close', () => {
      closed = true;
      done();
    });
    socket.on('error', () => {});
    socket.write(request);
  });
}

/** A snapshot of what is stored: index size, one stored report, the latest entry of the seeded host. */
async function snapshot(db: Repository, scanId: number) {
  return {
    stores: await db.countStores(),
    scan: JSON.stringify((await db.getScan(scanId))?.report),
    latest: JSON.stringify(await db.latestByHost('seeded.test')),
  };
}

let app: TestApp;
let shop: FixtureStore; // a store that must never be contacted by a refused request
let key: string;
let seeded: ScanResult;

before(async () => {
  app = await startApp(null, { BASE_URL });
  shop = await startFixtureStore({ '*': { body: '<!doctype html><title>shop</title>' } });
  ({ key } = await createApiKey(app.db, 'surfaces@shop.test'));
  seeded = await saveFakeScan(app.db, { host: 'seeded.test', score: 81 });
});
after(async () => {
  await shop?.close();
  await app?.close();
});

const pro = () => ({ authorization: `Bearer ${key}` });
const json = { 'content-type': 'application/json' };

describe('O1–O3: what a hostile store sends is only ever data', () => {
  let hostile: FixtureStore;
  let report: ScanResult;

  before(async () => {
    hostile = await startStoreFrom(hostileStore);
    const res = await call(`${app.url}/api/v1/scan?url=${encodeURIComponent(hostile.url)}`);
    assert.equal(res.status, 200, res.text.slice(0, 300));
    report = res.body;
  });
  after(() => hostile?.close());

  test('O1: /r/{id} of a real scan of the hostile store: exact CSP, nosniff, no-referrer; nothing executable; raw strings shown as text', async () => {
    const res = await call(`${app.url}/r/${report.scan_id}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-security-policy'), CSP);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    for (const s of [HOSTILE_TITLE, HOSTILE_NAME, '<script', '" onmouseover="', 'window.__pwned=1</script>']) {
      assert.ok(!res.text.includes(s), `raw ${JSON.stringify(s)} in the page`);
    }
    type Node = { nodeName: string; tagName?: string; value?: string; attrs?: { name: string; value: string }[]; childNodes?: Node[]; content?: Node };
    const elements: Node[] = [];
    let text = '';
    const walk = (n: Node) => {
      if (n.tagName) elements.push(n);
      if (n.nodeName === '#text') text += n.value ?? '';
      for (const child of n.childNodes ?? []) walk(child);
      if (n.content) walk(n.content);
    };
    walk(parse(res.text) as unknown as Node);
    assert.equal(elements.filter((e) => e.tagName === 'script').length, 0);
    for (const e of elements) {
      for (const a of e.attrs ?? []) {
        assert.ok(!/^on/i.test(a.name), `${e.tagName} has ${a.name}`);
        assert.notEqual(a.name, 'style', `${e.tagName} has a style attribute`);
        if (a.name === 'href' || a.name === 'src' || a.name === 'action') {
          assert.match(a.value, /^(https?:\/\/|\/(?!\/)|#)/, `${e.tagName} ${a.name}=${a.value}`);
        }
      }
    }
    // What the hostile store published is shown, as text: the product name and the brand with its quotes.
    assert.ok(report.products.some((p) => p.name?.value === HOSTILE_NAME), 'the scan read the hostile product');
    assert.ok(text.includes(HOSTILE_NAME), 'the product name is shown as text');
    assert.ok(text.includes('" onmouseover="alert(1)'), 'the brand is shown as text');
    assert.ok(res.text.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.ok(report.products.every((p) => /^https?:/.test(p.url)));
  });

  test('O2: the badge of that host is inert SVG: no script, no on*=, no external reference, only label, score and grade', async () => {
    const res = await call(`${app.url}/badge/${report.host}.svg`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
    assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.doesNotMatch(res.text, /<script|\son[a-z]+\s*=|javascript:|<foreignObject|xlink:href|\shref=/i);
    assert.ok(res.text.includes(`${report.score} ${report.grade}`));
    for (const path of ['/badge/shop.test%00.svg', '/badge/..%2F..%2Fetc%2Fpasswd.svg', '/badge/shop.test%0d%0aX-Injected:%201.svg', '/badge/%E2%80%AEtset.pohs.svg']) {
      const bad = await call(`${app.url}${path}`);
      assertApiError(bad, [400, 404], ['INVALID_PARAMS', 'NOT_FOUND'], path);
      assert.equal(bad.headers.get('x-injected'), null);
    }
  });

  test('O3: /verify of the scanned host is a 302 to exactly BASE_URL/r/<int>; lookalike paths never produce a Location', async () => {
    const ok = await call(`${app.url}/verify/${report.host}`);
    assert.equal(ok.status, 302);
    assert.match(ok.headers.get('location') ?? '', new RegExp(`^${BASE_URL.replace(/\./g, '\\.')}/r/\\d+$`));
    assert.equal(ok.headers.get('location'), `${BASE_URL}/r/${report.scan_id}`);
    for (const path of [
      '/verify/unknown.test',
      '/verify/evil.test%23.seeded.test',
      '/verify/seeded.test%3F@evil.test',
      '/verify/seeded.test:443@evil.test',
      '/verify/seeded.test%2F..%2F..%2Fevil.test',
      '/verify//evil.test',
      '/verify/%09evil.test',
      '/verify/javascript:alert(1)',
      '/verify/%EF%BC%A5%EF%BC%B6%EF%BC%A9%EF%BC%AC.test',
      '/verify/seeded.test.',
      '/verify/seeded.test%20',
      '/verify/http:%2F%2Fevil.test',
    ]) {
      assertApiError(await call(`${app.url}${path}`), [400, 404], ['INVALID_PARAMS', 'HOST_NOT_FOUND', 'NOT_FOUND'], path);
    }
  });
});

describe('O4: header injection through the echoed Idempotency-Key', () => {
  test('a bare CR, a NUL or a DEL in the header is a 400 from the HTTP parser: empty body, connection closed, no cookie', async () => {
    const body = '{"hosts":["a.test"]}';
    for (const value of ['a\rb', 'a\u0000b', 'a\u007fb']) {
      const res = await raw(
        app,
        Buffer.from(
          `POST /api/v1/reports HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nIdempotency-Key: ${value}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
          'latin1',
        ),
      );
      assert.match(res.head, /^HTTP\/1\.1 400 Bad Request\r\n/, JSON.stringify(value));
      assert.equal(res.body, '', JSON.stringify(value));
      assert.match(res.head, /\r\nConnection: close/i);
      assert.doesNotMatch(res.head, /set-cookie|idempotency-key/i);
      assert.equal(res.closed, true, 'the server closed the connection');
    }
  });

  test('non-ASCII (obs-text) reaches the app and is refused as 400 INVALID_BODY, not echoed', async () => {
    const body = '{"hosts":["a.test"]}';
    const res = await raw(
      app,
      Buffer.from(`POST /api/v1/reports HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nIdempotency-Key: a\u00e9b\r\nContent-Length: ${body.length}\r\n\r\n${body}`, 'latin1'),
    );
    assert.match(res.head, /^HTTP\/1\.1 400 /);
    assert.doesNotMatch(res.head, /idempotency-key/i);
    assert.equal(JSON.parse(res.body).code, 'INVALID_BODY');
  });
});

describe('O5: MCP transport rows not covered by test/mcp/mcp.test.ts', () => {
  test('GET, DELETE, PUT and PATCH /mcp answer 405 with Allow: POST, a whole JSON body, never a stream', async () => {
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
      // An open event stream would never end: the read is cut after 10 s (the answer takes milliseconds).
      const res = await call(`${app.url}/mcp`, { method, headers: { accept: 'text/event-stream' }, signal: AbortSignal.timeout(10_000) });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'POST');
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      assert.equal(res.body.jsonrpc, '2.0');
    }
  });

  test('Origins that merely look like ours are 403 with a JSON-RPC error and a null id', async () => {
    for (const origin of [
      `${BASE_URL}.evil.test`,
      'https://readiness.example.evil.test',
      'http://readiness.example', // another scheme is another origin
      'https://readiness.example:8443',
      'https://evil.test/https://readiness.example',
      'null',
      'file://',
    ]) {
      const res = await call(`${app.url}/mcp`, {
        method: 'POST',
        headers: { ...json, origin },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      assert.equal(res.status, 403, origin);
      assert.equal(res.body.jsonrpc, '2.0');
      assert.equal(res.body.id, null);
      assert.equal(typeof res.body.error.code, 'number');
      assert.equal(res.headers.get('access-control-allow-origin'), null);
    }
    const own = await call(`${app.url}/mcp`, { method: 'POST', headers: { ...json, origin: BASE_URL }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    assert.equal(own.status, 200);
  });

  test('odd tool names and argument shapes are errors, never 5xx; Object.prototype names are not tools', async () => {
    const before = shop.requests.length;
    for (const params of [
      { name: '__proto__', arguments: {} },
      { name: 'constructor', arguments: {} },
      { name: 'toString', arguments: {} },
      { name: 'hasOwnProperty', arguments: { host: 'a.test' } },
      { name: 'check_merchant_readiness', arguments: ['a.test'] },
      { name: 'check_merchant_readiness', arguments: 'a.test' },
      { name: 'check_merchant_readiness', arguments: { host: shop.url } },
      { name: ['check_merchant_readiness'], arguments: { host: 'a.test' } },
      'tools/call',
    ]) {
      const res = await call(`${app.url}/mcp`, { method: 'POST', headers: json, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }) });
      assert.ok(res.status < 500, `${JSON.stringify(params)} → ${res.status}`);
      assert.equal(res.body.jsonrpc, '2.0');
      assert.ok(res.body.error || res.body.result?.isError === true, `${JSON.stringify(params)}: ${res.text.slice(0, 200)}`);
      assert.doesNotMatch(res.text, STACK_OR_PATH);
    }
    assert.equal(shop.requests.length, before, 'MCP never contacts a store');
  });
});

describe('O6: prototype pollution', () => {
  test('POST /mcp with __proto__ / constructor.prototype in the envelope, params and arguments: no 5xx, Object.prototype untouched', async () => {
    const bodies = [
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","__proto__":{"polluted":1}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"__proto__":{"polluted":1}}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"constructor":{"prototype":{"polluted":1}}}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"check_merchant_readiness","arguments":{"host":"seeded.test","__proto__":{"polluted":1}}}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_agent_ready_stores","arguments":{"constructor":{"prototype":{"polluted":1}}}}}',
      '{"jsonrpc":"2.0","id":{"__proto__":{"polluted":1}},"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"method":"__proto__","params":{}}',
    ];
    for (const body of bodies) {
      const res = await call(`${app.url}/mcp`, { method: 'POST', headers: json, body });
      assert.ok(res.status < 500, `${body} → ${res.status} ${res.text.slice(0, 200)}`);
      assert.equal(res.body.jsonrpc, '2.0', body);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  });

  test('query strings, form bodies and report bodies: 400 where refused, and Object.prototype untouched', async () => {
    const snap = await snapshot(app.db, seeded.scan_id);
    const seen = shop.requests.length;
    for (const query of ['__proto__[polluted]=1', '__proto__.polluted=1', 'constructor[prototype][polluted]=1', `url=${encodeURIComponent('ftp://x')}&__proto__[polluted]=1`]) {
      const res = await call(`${app.url}/api/v1/scan?${query}`);
      assertApiError(res, 400, ['MISSING_URL', 'INVALID_URL'], query);
    }
    const form = await call(`${app.url}/scan`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: '__proto__[polluted]=1&constructor[prototype][polluted]=1&url=ftp%3A%2F%2Fx',
    });
    assert.equal(form.status, 400);
    for (const body of ['{"hosts":["a.test"],"__proto__":{"polluted":1}}', '{"hosts":["__proto__","constructor","prototype"]}', '{"hosts":{"__proto__":["a.test"]}}']) {
      const res = await call(`${app.url}/api/v1/reports`, { method: 'POST', headers: { ...json, ...pro() }, body });
      assertApiError(res, 400, 'INVALID_BODY', body);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(await snapshot(app.db, seeded.scan_id), snap);
    assert.equal(shop.requests.length, seen);
  });
});

describe('O7: operator injection on every path and body that takes an id or a host', () => {
  const OPS = ['{"$gt":""}', '{"$ne":null}', '{"$where":"1"}', '{"$regex":".*"}', '["seeded.test"]', '1 OR 1=1', "1'; DROP TABLE scans;--", '$gt', '*'];
  const enc = encodeURIComponent;

  /** Records every repository call whose arguments are not primitives: types must be enforced at the edge. */
  function spy(db: Repository): { calls: string[]; restore(): void } {
    const calls: string[] = [];
    const names = ['getScan', 'latestByHost', 'latestByHosts', 'rankWindow', 'topStores', 'isDelisted'] as const;
    const originals = names.map((n) => [n, db[n]] as const);
    for (const n of names) {
      const original = db[n].bind(db) as (...args: unknown[]) => Promise<unknown>;
      (db as unknown as Record<string, unknown>)[n] = (...args: unknown[]) => {
        const [first] = args;
        const ok =
          typeof first === 'string' ||
          (typeof first === 'number' && Number.isSafeInteger(first)) ||
          (Array.isArray(first) && first.every((h) => typeof h === 'string')) ||
          (n === 'topStores' && typeof first === 'object' && first !== null);
        if (!ok) calls.push(`${n}(${JSON.stringify(first)})`);
        return original(...args);
      };
    }
    return {
      calls,
      restore: () => {
        for (const [n, fn] of originals) (db as unknown as Record<string, unknown>)[n] = fn;
      },
    };
  }

  test('REST paths and query values: 400/404 in the Error shape; no operator reaches the store; nothing stored changes', async () => {
    const snap = await snapshot(app.db, seeded.scan_id);
    const seen = shop.requests.length;
    const watch = spy(app.db);
    try {
      for (const op of [...OPS, '0x1', '1e3', '-1', '1.0', '9007199254740993', '01', '%E0%A4%A']) {
        const id = op === '%E0%A4%A' ? op : enc(op); // the last one is broken percent-encoding, sent as is
        assertApiError(await call(`${app.url}/api/v1/scan/${id}.json`), [400, 404], ['INVALID_PARAMS', 'SCAN_NOT_FOUND', 'NOT_FOUND'], op);
        assertApiError(await call(`${app.url}/api/scan/${id}.json`), [400, 404], ['INVALID_PARAMS', 'SCAN_NOT_FOUND', 'NOT_FOUND'], op);
        assertApiError(await call(`${app.url}/api/v1/scan/${id}/brief.md`, { headers: pro() }), [400, 404], ['INVALID_PARAMS', 'SCAN_NOT_FOUND', 'NOT_FOUND'], op);
      }
      for (const op of [...OPS, '%E0%A4%A']) {
        const host = op === '%E0%A4%A' ? op : enc(op);
        assertApiError(await call(`${app.url}/badge/${host}.svg`), [400, 404], ['INVALID_PARAMS', 'NOT_FOUND'], op);
        assertApiError(await call(`${app.url}/verify/${host}`), [400, 404], ['INVALID_PARAMS', 'NOT_FOUND'], op);
        const page = await call(`${app.url}/r/${host}`);
        assert.ok([400, 404].includes(page.status), `/r/${op}: ${page.status}`);
        assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
        // A valid store URL with a hostile vertical is refused before the store is fetched.
        assertApiError(await call(`${app.url}/api/v1/scan?url=${enc(shop.url)}&vertical=${enc(op)}`), 400, 'INVALID_PARAMS', `vertical ${op}`);
        const index = await call(`${app.url}/index?vertical=${enc(op)}&page=${enc(op)}`);
        assert.equal(index.status, 400, `/index ${op}`);
      }
      assertApiError(await call(`${app.url}/api/v1/scan?url[$ne]=x&vertical[$ne]=x`), 400, 'MISSING_URL');
    } finally {
      watch.restore();
    }
    assert.deepEqual(watch.calls, []);
    assert.equal(shop.requests.length, seen, 'no store was fetched');
    assert.deepEqual(await snapshot(app.db, seeded.scan_id), snap);
  });

  test('POST /api/v1/reports and MCP tool arguments: operators are 400 INVALID_BODY / isError; no operator reaches the store', async () => {
    const snap = await snapshot(app.db, seeded.scan_id);
    const watch = spy(app.db);
    try {
      for (const body of [
        '{"hosts":[{"$where":"1"}]}',
        '{"hosts":{"$gt":""}}',
        '{"hosts":["a.test",{"$ne":null}]}',
        '{"hosts":[["a.test"]]}',
        '{"hosts":[null]}',
        '{"hosts":[1]}',
        '{"hosts":[true]}',
        '{"hosts":["a.test"],"hosts":[{"$gt":""}]}',
        '{"$or":[{"hosts":["a.test"]}]}',
      ]) {
        assertApiError(await call(`${app.url}/api/v1/reports`, { method: 'POST', headers: { ...json, ...pro() }, body }), 400, 'INVALID_BODY', body);
      }
      const tools: [string, Record<string, unknown>][] = [
        ['check_merchant_readiness', { host: { $ne: null } }],
        ['check_merchant_readiness', { host: ['seeded.test'] }],
        ['get_readiness_report', { host: { $gt: '' } }],
        ['get_readiness_report', { host: '*' }],
        ['list_agent_ready_stores', { vertical: { $ne: null } }],
        ['list_agent_ready_stores', { limit: { $gt: 0 } }],
        ['list_agent_ready_stores', { limit: '10' }],
      ];
      for (const [name, args] of tools) {
        const res = await call(`${app.url}/mcp`, { method: 'POST', headers: json, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }) });
        assert.equal(res.status, 200, `${name} ${JSON.stringify(args)}`);
        assert.ok(res.body.error || res.body.result?.isError === true, `${name} ${JSON.stringify(args)}: ${res.text.slice(0, 200)}`);
      }
    } finally {
      watch.restore();
    }
    assert.deepEqual(watch.calls, []);
    assert.deepEqual(await snapshot(app.db, seeded.scan_id), snap);
  });
});

describe('O8: body abuse and the error shape', () => {
  const reports = (body: string | Buffer, headers: Record<string, string> = json) =>
    call(`${app.url}/api/v1/reports`, { method: 'POST', headers: { ...pro(), ...headers }, body });

  test('bodies at and beyond the edges are 4xx JSON in the spec shape, never 500', async () => {
    const snap = await snapshot(app.db, seeded.scan_id);
    const ok = JSON.stringify({ hosts: ['a.test'] });
    const cases: [string, Promise<Answer>, number, string][] = [
      ['empty JSON body', reports(''), 400, 'INVALID_BODY'],
      ['trailing garbage', reports(`${ok}x`), 400, 'INVALID_BODY'],
      ['invalid UTF-8', reports(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])), 400, 'INVALID_BODY'],
      ['nesting 10,000 deep', reports(`{"hosts":${'['.repeat(10_000)}${']'.repeat(10_000)}}`), 400, 'INVALID_BODY'],
      ['a JSON string', reports('"hosts"'), 400, 'INVALID_BODY'],
      ['null', reports('null'), 400, 'INVALID_BODY'],
      ['unknown Content-Encoding', reports(ok, { ...json, 'content-encoding': 'x-custom' }), 400, 'INVALID_BODY'],
      ['a gzip bomb (10 MiB inflated)', reports(zlib.gzipSync(Buffer.from(`{"hosts":["${'a'.repeat(10 * 1024 * 1024)}"]}`)), { ...json, 'content-encoding': 'gzip' }), 413, 'PAYLOAD_TOO_LARGE'],
      ['form-encoded', reports('hosts=a.test', { 'content-type': 'application/x-www-form-urlencoded' }), 400, 'INVALID_BODY'],
      ['no content type', reports(ok, {}), 400, 'INVALID_BODY'],
    ];
    for (const [label, pending, status, code] of cases) assertApiError(await pending, status, code, label);
    assert.deepEqual(await snapshot(app.db, seeded.scan_id), snap);
  });

  // Found by this suite (500 before a one-line fix in lib/http-errors.ts: zlib errors had no mapping).
  test('a body that is not what its Content-Encoding says is 400 INVALID_BODY, not 500', async () => {
      const ok = JSON.stringify({ hosts: ['a.test'] });
      assertApiError(await reports('not gzip at all', { ...json, 'content-encoding': 'gzip' }), 400, 'INVALID_BODY', 'gzip');
      assertApiError(await reports(ok, { ...json, 'content-encoding': 'deflate' }), 400, 'INVALID_BODY', 'deflate');
      assertApiError(await reports(ok, { ...json, 'content-encoding': 'br' }), 400, 'INVALID_BODY', 'br');
      const form = await call(`${app.url}/scan`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip', accept: 'text/html' },
        body: 'url=not-gzip',
      });
      assert.equal(form.status, 400);
  });

  test('no answer anywhere carries a stack line or a file-system path (odd paths, methods, headers on every surface)', async () => {
    const requests: [string, RequestInit?][] = [
      ['/api/v1/%'], ['/api/v1/scan/%E0%A4%A.json'], ['/api/nope'], ['/api/v1/scan/1.json/..%2F..%2Fpackage.json'],
      ['/badge/%.svg'], ['/badge/a.test'], ['/verify/%'], ['/verify/a.test/x'], ['/r/%'], ['/r/1/x'], ['/index?page=%'],
      ['/api/v1/' + 'a'.repeat(8000)], ['/%2e%2e/%2e%2e/etc/passwd'], ['/public/../package.json'], ['/assets/..%2f..%2fpackage.json'],
      ['/api/v1/scan/1.json', { method: 'PROPFIND' }], ['/api/v1/reports', { method: 'PATCH', headers: json, body: '{' }],
      ['/mcp', { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-16' }, body: '{}' }],
      ['/mcp', { method: 'POST', headers: { ...json, 'content-encoding': 'gzip' }, body: 'x' }],
      ['/scan', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'url=' + '%'.repeat(100) }],
      ['/api/v1/scan?url=' + '%'.repeat(50)], ['/api/v1/scan?url=%00'], ['/api/v1/scan?url=http%3A%2F%2F%5B%3A%3A1'],
    ];
    for (const [path, init] of requests) {
      const res = await call(`${app.url}${path}`, init);
      assert.ok(res.status < 500, `${path.slice(0, 80)} → ${res.status} ${res.text.slice(0, 200)}`);
      assert.doesNotMatch(res.text, STACK_OR_PATH, path.slice(0, 80));
      if (/^\/(api|badge|verify)\//.test(path) && res.status >= 400) assertApiError(res, res.status, undefined, path.slice(0, 80));
    }
    // Parser-level refusals: an over-long header block and a broken request line get empty 4xx bodies.
    const big = await raw(app, `GET /api/v1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(big.head, /^HTTP\/1\.1 431 /);
    assert.equal(big.body, '');
    const broken = await raw(app, 'GET /api/v1 HTTP/9.9\r\n\r\n');
    assert.match(broken.head, /^HTTP\/1\.1 (400|505) /);
    assert.doesNotMatch(broken.body, STACK_OR_PATH);
  });
});

describe('K1 and L2 at the boundary', () => {
  test('K1: an invalid key on the scan endpoint is 401 before anything is fetched; a 10 KiB token costs no more than a short one', async () => {
    const seen = shop.requests.length;
    for (const authorization of ['Bearer srk_wrong', `Bearer ${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`, 'Basic dXNlcjpwdw==', 'Bearer', `Bearer ${'a'.repeat(10_240)}`]) {
      const res = await call(`${app.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`, { headers: { authorization } });
      assertApiError(res, 401, 'UNAUTHORIZED', authorization.slice(0, 30));
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer realm="store-readiness", error="invalid_token"$/);
    }
    assert.equal(shop.requests.length, seen, 'the store was never fetched');
    // Best of 5, interleaved with the same request carrying a short wrong token: the baseline of this run.
    let huge = Infinity;
    let short = Infinity;
    for (let i = 0; i < 5; i++) {
      for (const [token, keep] of [['srk_wrong', (ms: number) => (short = Math.min(short, ms))], ['a'.repeat(10_240), (ms: number) => (huge = Math.min(huge, ms))]] as const) {
        const res = await call(`${app.url}/api/v1/scan/1.json`, { headers: { authorization: `Bearer ${token}` } });
        assert.equal(res.status, 401);
        keep(res.ms);
      }
    }
    assertRatio('a 10 KiB token', huge, short, 10);
  });

  test('L2 regression guard: PRO_SCANS_PER_30_DAYS=2 → the third scan is 429 with the "pro-30d" policy (a MemoryStore would never fire)', async (t) => {
    const limited = await startApp(t, { PRO_SCANS_PER_30_DAYS: '2', PRO_SCANS_PER_HOUR: '100' });
    const { key: proKey } = await createApiKey(limited.db, 'l2@shop.test');
    const statuses: number[] = [];
    let last: Answer | undefined;
    for (let i = 0; i < 3; i++) {
      last = await call(`${limited.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`, { headers: { authorization: `Bearer ${proKey}` } });
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [200, 200, 429]);
    assertApiError(last!, 429, 'RATE_LIMITED');
    assert.match(last!.headers.get('ratelimit-policy') ?? '', /"pro-30d"; q=2; w=2592000/);
    assert.match(last!.headers.get('ratelimit') ?? '', /"pro-30d"; r=0; t=\d+/);
    const retryAfter = Number(last!.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 86_400, String(retryAfter));
  });
});
