// Tests of outbound/fetch.ts against loopback fixtures only: SSRF rows S1–S8 (a canary on 127.0.0.2 must never see a
// connection, the loopback guard must stay silent), resource caps R1–R3, status mapping, decoding, deadline and abort.
import { loopbackGuardHits } from '../support/loopback-guard.js';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import zlib from 'node:zlib';
import got, { type OptionsInit } from 'got';
import { RequestFilteringHttpAgent } from 'request-filtering-agent';
import { startFixtureStore, type FixtureRoute, type FixtureStore, zeros } from '../helpers/fixture-store.js';
import { AGENT_PROBE_UA, BODY_CAPS, NEUTRAL_UA, createFetcher, type FetchLimits } from '../../outbound/fetch.js';
import type { Resource } from '../../scan/artifacts.js';
import { assertWithin } from '../helpers/timing.js';
import { tableLookup } from '../helpers/dns-table.js';

const MiB = 1024 * 1024;
const BASE = 'http://localhost:3000';

let fixture: FixtureStore;
let canary: FixtureStore;
let c: number; // canary port
let lastSocketClose = 0;
let inFlight = 0;
let maxInFlight = 0;

// Bodies are produced lazily while the client reads, so a 200 MiB bomb costs the test only what is fetched.
function streamed(source: () => Readable, headers: Record<string, string>, encoder?: () => NodeJS.ReadWriteStream) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html', ...headers });
    if (encoder) pipeline(source(), encoder(), res, () => {});
    else pipeline(source(), res, () => {});
  };
}

function redirectHandler(req: IncomingMessage, res: ServerResponse): void {
  const q = new URL(req.url ?? '/', 'http://x').searchParams;
  res.writeHead(Number(q.get('s') ?? 302), { location: q.get('to') ?? '/' });
  res.end();
}

function drip(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html' });
  const timer = setInterval(() => res.write('a'), 500);
  res.on('close', () => clearInterval(timer));
}

function echo(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'sid=1; Path=/' });
    res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
  });
}

function tracked(_req: IncomingMessage, res: ServerResponse): void {
  inFlight++;
  maxInFlight = Math.max(maxInFlight, inFlight);
  setTimeout(() => {
    inFlight--;
    res.end('done');
  }, 100);
}

function statusRoute(code: number): FixtureRoute {
  const headers: Record<string, string> = code === 403 ? { 'cf-mitigated': 'challenge' } : {};
  return { status: code, headers, body: `body ${code}` };
}

before(async () => {
  canary = await startFixtureStore({ '*': { body: 'canary' } }, { host: '127.0.0.2' });
  c = canary.port;
  fixture = await startFixtureStore({
    '/': { body: '<!doctype html><title>home</title>' },
    '/redir': redirectHandler,
    '/loop': { status: 302, headers: { location: '/loop' } },
    '/gzip-bomb': streamed(() => zeros(200 * MiB), { 'content-encoding': 'gzip' }, () => zlib.createGzip()),
    '/br-bomb': streamed(() => zeros(200 * MiB), { 'content-encoding': 'br' }, () =>
      zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }),
    ),
    '/plain-50': streamed(() => zeros(50 * MiB), { 'content-length': String(50 * MiB) }),
    '/endless': streamed(() => zeros(Infinity), {}),
    '/drip': drip,
    '/hang': (req) => void req.resume(),
    '/slow': { delayMs: 2000, body: 'late' },
    '/abort': (req) => req.socket.once('close', () => (lastSocketClose = Date.now())),
    '/echo': echo,
    '/tracked': tracked,
    '/latin1': { headers: { 'content-type': 'text/html; charset=ISO-8859-1' }, body: Buffer.from([0x63, 0x61, 0x66, 0xe9]) },
    '/cp1252': { headers: { 'content-type': 'text/plain; charset="windows-1252"' }, body: Buffer.from([0x80, 0x20, 0x93, 0x94]) },
    '/utf8': { headers: { 'content-type': 'text/html' }, body: 'café ✓' },
    '/bogus-charset': { headers: { 'content-type': 'text/html; charset=no-such-thing' }, body: 'ok ✓' },
    '/status/200': statusRoute(200),
    '/status/404': statusRoute(404),
    '/status/410': statusRoute(410),
    '/status/403': statusRoute(403),
    '/status/503': statusRoute(503),
    '/status/429': statusRoute(429),
  });
  for (let i = 0; i < 10; i++) fixture.setRoute(`/chain/${i}`, { status: 301, headers: { location: `/chain/${i + 1}` } });
});

after(async () => {
  await fixture?.close();
  await canary?.close();
});

/** Production rules except that the fixture's own address is allowed and ports are free (both sit on loopback). */
function fetcher(overrides: Partial<FetchLimits> = {}) {
  return createFetcher({
    allowPrivate: false,
    allowIPAddressList: ['127.0.0.1'],
    allowedPorts: 'any',
    maxRequests: 100,
    deadlineMs: 10_000,
    requestTimeoutMs: 3000,
    baseUrl: BASE,
    lookup: tableLookup({}),
    ...overrides,
  });
}

function assertBlocked(r: Resource, label: string): void {
  assert.equal(r.ok, false, label);
  if (!r.ok) assert.equal(r.reason, 'blocked', `${label}: ${r.reason} ${r.detail}`);
}

function assertNoLeak(label: string): void {
  assert.equal(canary.connections, 0, `${label}: the canary saw a connection`);
  assert.deepEqual(loopbackGuardHits, [], `${label}: the loopback guard fired (the filter regressed)`);
}

const redirectTo = (status: number, location: string) =>
  `${fixture.origin}/redir?s=${status}&to=${encodeURIComponent(location)}`;

describe('SSRF', () => {
  test('positive control: the fixture is reachable through the filter and the injected lookup', async () => {
    const calls: string[] = [];
    const f = fetcher({ lookup: tableLookup({ 'shop.test': '127.0.0.1' }, calls) });
    const direct = await f.fetch(fixture.url, { kind: 'html' });
    assert.equal(direct.ok, true);
    const named = await f.fetch(`http://shop.test:${fixture.port}/`, { kind: 'html' });
    assert.equal(named.ok, true, named.ok ? '' : named.detail);
    assert.deepEqual(calls, ['shop.test']);
    assertNoLeak('control');
  });

  test('S1: IP literal spellings of the canary are refused before any connection', async () => {
    const f = fetcher();
    const hosts = [
      '127.0.0.2', '127.2', '2130706434', '0x7f000002', '0177.0.0.02', '017700000002', '[::ffff:127.0.0.2]', '[::1]',
      '0.0.0.0', '0', '[::]', '%31%32%37.0.0.2', '①②⑦.0.0.2',
    ];
    for (const host of hosts) assertBlocked(await f.fetch(`http://${host}:${c}/`, { kind: 'html' }), host);
    assert.equal(f.requestsUsed, 0);
    assertNoLeak('S1');
  });

  test('S2: metadata and private literals are refused by the filter, not by the loopback guard', async () => {
    const f = fetcher();
    const inputs = [
      'http://169.254.169.254/latest/meta-data/', 'http://0251.0376.0251.0376/', 'http://[::ffff:a9fe:a9fe]/',
      'http://[fd00:ec2::254]/', 'http://100.100.100.200/', 'http://192.0.0.192/', 'http://10.0.0.1/', 'http://172.16.0.1/',
      'http://192.168.1.1/', 'http://[fe80::1]/', 'http://[64:ff9b::a9fe:a9fe]/', 'http://[2002:a9fe:a9fe::]/', 'http://224.0.0.1/',
    ];
    for (const url of inputs) assertBlocked(await f.fetch(url, { kind: 'html' }), url);
    assertNoLeak('S2');
  });

  test('S3: names resolving to internal addresses are refused; a mixed answer is refused whole', async () => {
    const calls: string[] = [];
    const f = fetcher({
      lookup: tableLookup(
        { 'evil.test': '127.0.0.2', 'meta.test': '169.254.169.254', 'mixed.test': ['8.8.8.8', '::1'], 'v6.test': '::ffff:127.0.0.2' },
        calls,
      ),
    });
    for (const name of ['evil.test', 'meta.test', 'mixed.test', 'v6.test']) {
      const r = await f.fetch(`http://${name}:${c}/`, { kind: 'html' });
      assertBlocked(r, name);
      if (!r.ok) assert.match(r.detail, new RegExp(name.replace('.', '\\.')));
    }
    assert.deepEqual(calls, ['evil.test', 'meta.test', 'mixed.test', 'v6.test']);
    assertNoLeak('S3');
  });

  test('S3: DNS failure is an error with a short detail', async () => {
    const r = await fetcher().fetch(`http://nowhere.test:${c}/`, { kind: 'html' });
    assert.equal(r.ok, false);
    if (!r.ok) assert.deepEqual([r.reason, r.detail], ['error', 'ENOTFOUND']);
  });

  // fetch.ts refuses in its own lookup first; this proves the second line: got hands its dnsLookup to the agent,
  // and the agent judges the address that lookup returns at connect time.
  test('S3: the filtering agent itself checks the address returned by got\'s dnsLookup at connect time', async () => {
    const agent = new RequestFilteringHttpAgent({ allowIPAddressList: ['127.0.0.1'] });
    const dnsLookup = tableLookup({ 'evil.test': '127.0.0.2' }) as unknown as OptionsInit['dnsLookup'];
    const err = await got(`http://evil.test:${c}/`, { agent: { http: agent }, dnsLookup, retry: { limit: 0 } }).then(
      () => new Error('connected'),
      (e: Error) => e,
    );
    assert.match(err.message, /127\.0\.0\.2.*is not allowed/);
    agent.destroy();
    assertNoLeak('agent');
  });

  test('S4: DNS rebinding between hops is caught by the connect-time lookup check', async () => {
    const calls: string[] = [];
    let n = 0;
    const f = fetcher({ lookup: tableLookup({ 'rebind.test': () => (n++ % 2 === 0 ? '127.0.0.1' : '127.0.0.2') }, calls) });
    const r = await f.fetch(`http://rebind.test:${fixture.port}/redir?s=302&to=${encodeURIComponent(`http://rebind.test:${c}/`)}`, {
      kind: 'html',
    });
    assertBlocked(r, 'rebind');
    assert.ok(calls.length >= 2, `lookups: ${calls.length}`);
    assertNoLeak('S4');
  });

  test('S5: redirects (301/302/303/307/308) to internal locations are refused on every hop', async () => {
    const f = fetcher({ lookup: tableLookup({}) });
    const locations = [
      `http://127.0.0.2:${c}/`, `//127.0.0.2:${c}/`, `http://2130706434:${c}/`, `https://127.0.0.2:${c}/`, `http://[::1]:${c}/`,
      'http://169.254.169.254/', `http://0x7f.2:${c}/`, `http://localhost:${c}/`,
    ];
    for (const status of [301, 302, 303, 307, 308]) {
      for (const location of locations) {
        const r = await f.fetch(redirectTo(status, location), { kind: 'html' });
        assertBlocked(r, `${status} → ${location}`);
      }
    }
    assertNoLeak('S5');
  });

  test('S6: non-http(s) schemes are refused as input and as a Location', async () => {
    const f = fetcher();
    const schemes = [
      'file:///etc/passwd', 'gopher://127.0.0.1:6379/_INFO', 'dict://127.0.0.1:11211/', 'ftp://127.0.0.1/', 'javascript:alert(1)',
      'data:text/html,x', 'ws://127.0.0.1/',
    ];
    for (const url of schemes) assertBlocked(await f.fetch(url, { kind: 'html' }), url);
    assert.equal(f.requestsUsed, 0);
    const before = fixture.requests.length;
    for (const location of schemes) assertBlocked(await f.fetch(redirectTo(302, location), { kind: 'html' }), `Location ${location}`);
    assert.equal(fixture.requests.length - before, schemes.length, 'only the redirecting requests reached the fixture');
    assertNoLeak('S6');
  });

  test('S7: production ports are 80/443 only, as input and on a redirect hop', async () => {
    const calls: string[] = [];
    const prod = fetcher({ allowedPorts: undefined, lookup: tableLookup({ 'shop.test': '127.0.0.1' }, calls) });
    for (const port of [22, 6379, 65535, 8080]) assertBlocked(await prod.fetch(`http://shop.test:${port}/`, { kind: 'html' }), `:${port}`);
    assert.equal((await prod.fetch('http://shop.test:0/', { kind: 'html' })).ok, false);
    assert.equal((await prod.fetch('http://shop.test:65536/', { kind: 'html' })).ok, false);
    const hop = fetcher({ allowedPorts: [fixture.port], lookup: tableLookup({ 'shop.test': '127.0.0.1' }, calls) });
    assertBlocked(await hop.fetch(redirectTo(302, 'http://shop.test:22/'), { kind: 'html' }), 'redirect to :22');
    assert.deepEqual(calls, [], 'no lookup, no dial');
    assertNoLeak('S7');
  });

  test('S8: credentials and monster URLs are refused without a request', async () => {
    const f = fetcher({ lookup: tableLookup({ 'shop.test': '127.0.0.1' }) });
    assertBlocked(await f.fetch(`http://user:pass@127.0.0.1:${fixture.port}/`, { kind: 'html' }), 'userinfo');
    assertBlocked(await f.fetch(`${fixture.url}${'a'.repeat(4096)}`, { kind: 'html' }), '4096 chars');
    assertBlocked(await f.fetch(redirectTo(302, `http://user:pass@shop.test:${fixture.port}/`), { kind: 'html' }), 'userinfo hop');
    assert.equal(f.requestsUsed, 1);
    // Same origin: got replaces the Location's userinfo with the request's (none), so nothing is sent.
    const before = fixture.requests.length;
    const same = await f.fetch(redirectTo(302, `http://user:pass@127.0.0.1:${fixture.port}/`), { kind: 'html' });
    assert.equal(same.ok, true);
    assert.ok(fixture.requests.slice(before).every((r) => r.headers.authorization === undefined));
    assertNoLeak('S8');
  });
});

describe('resource caps', () => {
  async function timed(url: string, kind: 'html' | 'text' = 'html', limits: Partial<FetchLimits> = {}) {
    const t0 = Date.now();
    const r = await fetcher(limits).fetch(url, { kind });
    return { r, ms: Date.now() - t0 };
  }

  for (const path of ['/gzip-bomb', '/br-bomb', '/plain-50', '/endless']) {
    // An endless body can only end at the cap; how soon it ends is measured by `npm run bench`.
    test(`R1: ${path} stops at the decompressed cap and keeps the first cap bytes`, async () => {
      const rss = process.memoryUsage().rss;
      const { r } = await timed(`${fixture.origin}${path}`);
      assert.ok(process.memoryUsage().rss - rss < 150 * MiB, 'RSS growth under 150 MB');
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.equal(r.reason, 'too-large', r.detail);
      assert.ok(r.res, 'the partial response is kept');
      assert.equal(r.res.body.length, BODY_CAPS.html);
      assert.equal(r.res.status, 200);
    });
  }

  test('R1: text kinds use the 512 KiB cap; the scan byte budget cuts across fetches', async () => {
    const { r } = await timed(`${fixture.origin}/endless`, 'text');
    assert.equal(!r.ok && r.res?.body.length, 512 * 1024);
    const f = fetcher({ maxTotalBytes: 1 * MiB });
    const first = await f.fetch(`${fixture.origin}/endless`, { kind: 'html' });
    assert.equal(!first.ok && first.reason, 'too-large');
    assert.equal(!first.ok && first.res?.body.length, 1 * MiB);
    assert.match(!first.ok ? first.detail : '', /byte budget/);
    assertBlocked(await f.fetch(fixture.url, { kind: 'html' }), 'after the byte budget');
  });

  test('R2: a slow drip and a server that never sends headers time out at the request timeout', async () => {
    const requestTimeoutMs = 700;
    for (const path of ['/drip', '/hang']) {
      const { r, ms } = await timed(`${fixture.origin}${path}`, 'html', { requestTimeoutMs });
      assert.equal(!r.ok && r.reason, 'timeout', path);
      assert.ok(ms >= requestTimeoutMs * 0.9, `${path}: ${ms} ms, before the request timeout`);
      // The scan deadline (10 s here) would fire later than this bound: the request timeout is what fired.
      assertWithin(path, ms, requestTimeoutMs);
    }
  });

  test('R3: a redirect loop stops after 5 redirects', async () => {
    const before = fixture.hits('/loop');
    const f = fetcher();
    const r = await f.fetch(`${fixture.origin}/loop`, { kind: 'html' });
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.detail, /redirects/);
    assert.equal(fixture.hits('/loop') - before, 6);
    assert.equal(f.requestsUsed, 6);
  });

  test('R3: the request budget counts every request and every hop', async () => {
    const f = fetcher({ maxRequests: 3 });
    const before = fixture.requests.length;
    for (let i = 0; i < 3; i++) assert.equal((await f.fetch(fixture.url, { kind: 'html' })).ok, true);
    const fourth = await f.fetch(fixture.url, { kind: 'html' });
    assertBlocked(fourth, '4th');
    if (!fourth.ok) assert.match(fourth.detail, /budget/);
    assert.equal(fixture.requests.length - before, 3);

    const hops = fetcher({ maxRequests: 3 });
    const start = fixture.requests.length;
    assertBlocked(await hops.fetch(`${fixture.origin}/chain/0`, { kind: 'html' }), 'chain');
    assert.equal(fixture.requests.length - start, 3);
    assert.equal(hops.requestsUsed, 3);
  });

  test('fetches run at most `concurrency` at a time', async () => {
    maxInFlight = 0;
    const f = fetcher({ concurrency: 2 });
    const all = await Promise.all(Array.from({ length: 5 }, () => f.fetch(`${fixture.origin}/tracked`, { kind: 'text' })));
    assert.ok(all.every((r) => r.ok));
    assert.equal(maxInFlight, 2);
  });
});

describe('responses', () => {
  test('status mapping keeps bodies and headers of non-2xx answers', async () => {
    const f = fetcher();
    const expect: [number, string][] = [[404, 'missing'], [410, 'missing'], [403, 'status'], [503, 'status'], [429, 'status']];
    const ok = await f.fetch(`${fixture.origin}/status/200`, { kind: 'html' });
    assert.equal(ok.ok && ok.res.body, 'body 200');
    for (const [code, reason] of expect) {
      const r = await f.fetch(`${fixture.origin}/status/${code}`, { kind: 'html' });
      assert.equal(r.ok, false);
      if (r.ok) continue;
      assert.equal(r.reason, reason, String(code));
      assert.equal(r.res?.status, code);
      assert.equal(r.res?.body, `body ${code}`);
      if (code === 403) assert.equal(r.res?.headers['cf-mitigated'], 'challenge');
    }
  });

  test('response fields: lower-case headers, bare media type, redirects, final URL, timing, log', async () => {
    const f = fetcher();
    const url = `${fixture.origin}/chain/8`;
    const r = await f.fetch(url, { kind: 'html' });
    assert.equal(r.ok, false);
    if (r.ok || !r.res) return;
    assert.equal(r.reason, 'missing'); // /chain/10 has no route
    assert.equal(r.res.requestedUrl, url);
    assert.equal(r.res.url, `${fixture.origin}/chain/10`);
    assert.deepEqual(r.res.redirects, [`${fixture.origin}/chain/9`, `${fixture.origin}/chain/10`]);
    assert.equal(r.res.contentType, 'text/html');
    assert.equal(r.res.headers['content-type'], 'text/html; charset=utf-8');
    assert.ok(r.res.ms >= 0);
    assert.deepEqual(f.log.map((e) => [e.url, e.status, e.outcome]), [[url, 404, 'missing']]);
  });

  test('bodies are decoded by the declared charset', async () => {
    const f = fetcher();
    const body = async (path: string) => {
      const r = await f.fetch(`${fixture.origin}${path}`, { kind: 'text' });
      return r.ok ? r.res.body : `failed: ${r.detail}`;
    };
    assert.equal(await body('/latin1'), 'café');
    assert.equal(await body('/cp1252'), '€ “”');
    assert.equal(await body('/utf8'), 'café ✓');
    assert.equal(await body('/bogus-charset'), 'ok ✓');
  });

  test('user agents, Accept, POST bodies, HEAD and no cookies kept', async () => {
    const f = fetcher();
    const read = async (opts: Parameters<typeof f.fetch>[1]) => {
      const r = await f.fetch(`${fixture.origin}/echo`, opts);
      assert.equal(r.ok, true);
      return JSON.parse(r.ok ? r.res.body : '{}') as { method: string; headers: Record<string, string>; body: string };
    };
    const neutral = await read({ kind: 'html' });
    assert.equal(neutral.headers['user-agent'], NEUTRAL_UA(BASE));
    assert.equal(neutral.headers['user-agent'], 'Mozilla/5.0 (compatible; store-readiness/1.0; +http://localhost:3000/bot)');
    assert.match(neutral.headers.accept, /^text\/html/);
    assert.equal(neutral.headers.cookie, undefined);
    const agent = await read({ kind: 'text', ua: 'agent', accept: 'text/markdown, text/html;q=0.5' });
    assert.equal(agent.headers['user-agent'], AGENT_PROBE_UA(BASE));
    assert.match(agent.headers['user-agent'], /ChatGPT-User\/1\.0, Claude-User\/1\.0, PerplexityBot\/1\.0/);
    assert.equal(agent.headers.accept, 'text/markdown, text/html;q=0.5');
    assert.equal(agent.headers.cookie, undefined, 'the cookie set earlier is not sent back');
    const post = await read({ kind: 'json', method: 'POST', body: '{"jsonrpc":"2.0"}', headers: { 'Content-Type': 'application/json' } });
    assert.deepEqual([post.method, post.body, post.headers['content-type']], ['POST', '{"jsonrpc":"2.0"}', 'application/json']);
    const head = await f.fetch(`${fixture.origin}/status/200`, { kind: 'html', method: 'HEAD' });
    assert.equal(head.ok && head.res.body, '');
  });

  test('connection refused is an error with a short detail', async () => {
    const closed = await startFixtureStore({});
    const port = closed.port;
    await closed.close();
    const r = await fetcher().fetch(`http://127.0.0.1:${port}/`, { kind: 'html' });
    assert.equal(!r.ok && `${r.reason} ${r.detail}`, 'error ECONNREFUSED');
  });
});

describe('deadline and cancellation', () => {
  test('the scan deadline turns an outstanding fetch into a timeout and sets deadlineHit', async () => {
    const f = fetcher({ deadlineMs: 500 });
    const r = await f.fetch(`${fixture.origin}/slow`, { kind: 'html' });
    // /slow answers at 2 s, within the 3 s request timeout: a timeout with deadlineHit is the deadline's doing.
    assert.equal(!r.ok && r.reason, 'timeout');
    assert.equal(f.deadlineHit, true);
    assert.equal(f.signal.aborted, true);
    const later = await f.fetch(fixture.url, { kind: 'html' });
    assert.equal(!later.ok && later.reason, 'timeout');
  });

  test('a client disconnect closes the outstanding request (the fixture sees the socket close within 1 s)', async () => {
    const controller = new AbortController();
    const f = fetcher({ signal: controller.signal });
    lastSocketClose = 0;
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = Date.now();
      controller.abort();
    }, 300);
    const r = await f.fetch(`${fixture.origin}/abort`, { kind: 'html' });
    assert.equal(r.ok, false);
    if (!r.ok) assert.deepEqual([r.reason, r.detail], ['error', 'aborted']);
    assert.equal(f.deadlineHit, false);
    // A socket the abort left open would stay open for good: waiting up to 5 s tells that from a slow close.
    for (let i = 0; i < 100 && lastSocketClose === 0; i++) await new Promise((res) => setTimeout(res, 50));
    assert.ok(lastSocketClose > 0, 'the store\'s socket was never closed after the abort');
    assertWithin('socket closed after the abort', lastSocketClose - abortedAt, 200);
  });
});

test('the canary counts connections (so its zero above means something) and the guard stayed silent', async () => {
  assertNoLeak('whole file');
  await new Promise<void>((resolve, reject) => {
    http.get(canary.url, (res) => res.resume().on('end', resolve)).on('error', reject);
  });
  assert.equal(canary.connections, 1);
});

// 0.0.0.0 is outside the guard's allowlist yet reaches only this machine, so a broken guard still sends nothing out.
test('the loopback guard refuses non-loopback destinations, literal or resolved', async () => {
  assert.throws(() => net.connect({ host: '0.0.0.0', port: c }), { code: 'LOOPBACK_GUARD' });
  const lookup = tableLookup({ 'elsewhere.test': '0.0.0.0' }) as unknown as net.LookupFunction;
  const err = await new Promise<Error & { code?: string }>((resolve) => {
    const socket = net.connect({ host: 'elsewhere.test', port: c, lookup }, () => resolve(new Error('connected')));
    socket.on('error', resolve);
  });
  assert.equal(err.code, 'LOOPBACK_GUARD');
  assert.equal(loopbackGuardHits.length, 2);
  loopbackGuardHits.length = 0;
  assert.equal(canary.connections, 1, 'only the deliberate connection above');
});
