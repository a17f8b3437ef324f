// docs/security.md R1–R6 at the service boundary: hostile stores scanned through GET /api/v1/scan of the real app. The
// caller always gets an answer (200 with the affected resource or check failed, or 504 when the home page itself
// never arrives; a timeout within 10× its configured time, where the hostile store would never end), the process
// stays alive and small, the fixture never sees more than SCAN_MAX_REQUESTS requests, and whatever is stored
// serialises. How fast hostile stores are scanned is measured by `npm run bench`, as ratios to a plain store. The
// unit-level proofs (caps per fetch, parser bounds as linear-time ratios) live in test/outbound/fetch.test.ts,
// sitemap.test.ts, structured-data.test.ts and html.test.ts; R7 (client disconnect) is proven at this boundary by
// test/tools/scan-store.test.ts.
import '../support/loopback-guard.js';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { assertLinear, assertWithin } from '../helpers/timing.js';
import { startApp, type TestApp } from '../helpers/start-app.js';
import { drip, signedRequests, startFixtureStore, streamed, type FixtureRoutes, type FixtureStore } from '../helpers/fixture-store.js';
import { htmlPage, page, redirectLoopStore, sitemapIndex, text, urlset, xml } from '../fixtures/stores.js';
import { ScanResult } from '../../schemas/scan-result.js';
import type { CheckId } from '../../scan/checks/rubric.js';
import { createFetcher } from '../../outbound/fetch.js';
import { gather } from '../../scan/fetching/gather.js';
import { CHECKS, runChecks } from '../../scan/checks/registry.js';
import { warmPagePool } from '../../scan/parser-threads/page-pool.js';

const MiB = 1024 * 1024;
const BASE = 'http://localhost:3000';

let app: TestApp;
const stores: FixtureStore[] = [];

before(async () => {
  app = await startApp(null, { SCAN_TIMEOUT_MS: '8000' });
  // The scanner's one-time warm-up (parser threads, compiled patterns) happens here, as at the service's start,
  // so the memory bounds below measure the scans alone.
  await warmPagePool();
});
after(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await app?.close();
});

async function fixture(routes: FixtureRoutes | ((origin: string) => FixtureRoutes)): Promise<FixtureStore> {
  const store = await startFixtureStore(typeof routes === 'function' ? {} : routes);
  if (typeof routes === 'function') for (const [p, r] of Object.entries(routes(store.origin))) store.setRoute(p, r);
  stores.push(store);
  return store;
}

interface Scanned {
  status: number;
  body: any;
  ms: number;
}

async function scan(target: TestApp, store: FixtureStore): Promise<Scanned> {
  const t0 = performance.now();
  const res = await fetch(`${target.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  const body = await res.json();
  return { status: res.status, body, ms: performance.now() - t0 };
}

/** 200, a valid ScanResult, stored and served back identically, and the process still answering. */
async function assertScored(target: TestApp, r: Scanned, label: string): Promise<ScanResult> {
  assert.equal(r.status, 200, `${label}: ${JSON.stringify(r.body).slice(0, 300)}`);
  const parsed = ScanResult.safeParse(r.body);
  assert.ok(parsed.success, `${label}: ${parsed.error?.message.slice(0, 300)}`);
  const stored = await fetch(`${target.url}/api/v1/scan/${r.body.scan_id}.json`);
  assert.equal(stored.status, 200, label);
  assert.deepEqual(await stored.json(), r.body, `${label}: the stored report is what was answered`);
  assert.equal((await fetch(`${target.url}/healthz`)).status, 200, `${label}: process alive`);
  return parsed.data;
}

const outcomeOf = (r: ScanResult, url: string) => r.fetched.filter((f) => f.url === url).map((f) => f.outcome);
const checkOf = (r: ScanResult, id: CheckId) => r.pillars.flatMap((p) => p.checks).find((c) => c.id === id);

const SMALL_HOME = page(htmlPage({ title: 'Small', body: '<h1>Small shop</h1><a href="/products/one">One</a>' }));

describe('R1: decompression bombs and endless bodies as the home page', () => {
  const bombs: [string, FixtureRoutes['/']][] = [
    ['gzip of 200 MiB', streamed(200 * MiB, { 'content-encoding': 'gzip' }, () => zlib.createGzip({ level: 1 }))],
    ['brotli of 200 MiB', streamed(200 * MiB, { 'content-encoding': 'br' }, () => zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }))],
    ['plain 50 MiB', streamed(50 * MiB, { 'content-length': String(50 * MiB) })],
    ['endless chunked', streamed(Infinity, {})],
  ];
  for (const [name, route] of bombs) {
    test(`${name}: 200, the page marked too large, RSS growth < 150 MB`, async () => {
      const store = await fixture({ '/': route, '/robots.txt': text('User-agent: *\nAllow: /\n') });
      const rss = process.memoryUsage().rss;
      const r = await scan(app, store);
      const grown = process.memoryUsage().rss - rss;
      const report = await assertScored(app, r, name);
      assert.ok(grown < 150 * MiB, `${name}: RSS grew ${Math.round(grown / MiB)} MiB`);
      assert.deepEqual(outcomeOf(report, store.url), ['too-large', 'too-large'], 'neutral and agent fetches both stopped at the cap');
    });
  }
});

describe('R2: slow drip and hung servers', () => {
  test('a home page dripping 1 byte / 500 ms is 504 SCAN_TIMEOUT at SCAN_TIMEOUT_MS; a dripping robots.txt still scores (200)', async (t) => {
    const budgetMs = 3000;
    const slow = await startApp(t, { SCAN_TIMEOUT_MS: String(budgetMs) });
    const home = await fixture({ '/': drip, '/robots.txt': text('User-agent: *\nAllow: /\n') });
    const secondary = await fixture({ '/': SMALL_HOME, '/robots.txt': drip });
    // Both at once: two independent scans, one budget of wall time.
    const [h, s] = await Promise.all([scan(slow, home), scan(slow, secondary)]);
    assert.equal(h.status, 504, JSON.stringify(h.body));
    assert.equal(h.body.code, 'SCAN_TIMEOUT');
    assert.equal(h.body.error, h.body.message);
    assertWithin('504 for a dripping home page', h.ms, budgetMs); // the drip never ends
    const report = await assertScored(slow, s, 'dripping robots.txt');
    assertWithin('200 with a dripping robots.txt', s.ms, budgetMs);
    assert.deepEqual(outcomeOf(report, `${secondary.origin}/robots.txt`), ['timeout']);
    assert.notEqual(checkOf(report, 'discovery_robots_txt')?.status, 'pass', 'the robots.txt check does not pass on a cut-off file');
    assert.equal(await slow.db.countStores(), 1, 'only the completed scan is stored');
  });

  test('a product page that never answers times out on its own (per-request timeout) and the scan scores the rest', async (t) => {
    // The scan deadline lies beyond 10× the request timeout: an answer within that bound is the request timeout's.
    const requestTimeoutMs = 1000;
    const quick = await startApp(t, { SCAN_TIMEOUT_MS: '30000' }, { scanOverrides: { requestTimeoutMs } });
    const store = await fixture({ '/': SMALL_HOME, '/products/one': (req) => void req.resume() });
    const r = await scan(quick, store);
    const report = await assertScored(quick, r, 'hung product page');
    assertWithin('the scan with a hung product page', r.ms, requestTimeoutMs);
    assert.deepEqual(outcomeOf(report, `${store.origin}/products/one`), ['timeout']);
  });
});

describe('R3: redirect loops and request explosions stay within SCAN_MAX_REQUESTS', () => {
  // Every request the store sees: the scan's own within SCAN_MAX_REQUESTS, the agents matrix's within its own cap.
  const max = () => app.config.SCAN_MAX_REQUESTS + app.config.AGENTS_MAX_REQUESTS;
  const own = (store: FixtureStore) => signedRequests(store).length;

  test('a home page redirecting to itself forever: scored, ≤ SCAN_MAX_REQUESTS requests', async () => {
    const store = await fixture(redirectLoopStore);
    const r = await scan(app, store);
    const report = await assertScored(app, r, 'redirect loop');
    assert.ok(store.requests.length <= max() && own(store) <= app.config.SCAN_MAX_REQUESTS, `${store.requests.length} requests, ${own(store)} of the scan's own`);
    assert.equal(checkOf(report, 'access_storefront_reachable')?.status, 'fail');
  });

  test('a 50,000-URL sitemap: ≤ SCAN_MAX_REQUESTS requests, at most 5 product pages tried', async () => {
    const store = await fixture((origin) => ({
      '/': SMALL_HOME,
      '/sitemap.xml': xml(urlset(Array.from({ length: 50_000 }, (_, i) => `${origin}/products/p-${i}`))),
      '*': page(htmlPage({ title: 'Not a product', body: '<p>nothing</p>' })),
    }));
    const r = await scan(app, store);
    await assertScored(app, r, '50k sitemap');
    assert.ok(store.requests.length <= max() && own(store) <= app.config.SCAN_MAX_REQUESTS, `${store.requests.length} requests, ${own(store)} of the scan's own`);
    // At most 5 product pages tried by the scan; the agents matrix may ask the first of them ahead as each agent.
    const products = store.requests.filter((q) => q.path.startsWith('/products/'));
    assert.ok(new Set(products.map((q) => q.path)).size <= 5, `${new Set(products.map((q) => q.path)).size} product pages asked`);
    assert.ok(signedRequests({ requests: products }).length <= 5, `${signedRequests({ requests: products }).length} product requests of the scan's own`);
  });

  test('a sitemap index 10 levels deep: ≤ 3 sitemap documents, ≤ SCAN_MAX_REQUESTS requests', async () => {
    const store = await fixture((origin) => {
      const routes: FixtureRoutes = { '/': SMALL_HOME };
      for (let i = 0; i < 10; i++) routes[i === 0 ? '/sitemap.xml' : `/sitemap-${i}.xml`] = xml(sitemapIndex([`${origin}/sitemap-${i + 1}.xml`]));
      return routes;
    });
    const r = await scan(app, store);
    await assertScored(app, r, 'deep index');
    assert.ok(store.requests.filter((q) => q.path.startsWith('/sitemap')).length <= 3);
    assert.ok(store.requests.length <= max() && own(store) <= app.config.SCAN_MAX_REQUESTS, `${store.requests.length} requests, ${own(store)} of the scan's own`);
  });

  test('a 10 MiB robots.txt: cut at its cap, scored, ≤ SCAN_MAX_REQUESTS requests', async () => {
    const line = 'User-agent: *\nDisallow: /private/\n';
    const store = await fixture({ '/': SMALL_HOME, '/robots.txt': text(line.repeat(Math.ceil((10 * MiB) / line.length))) });
    const r = await scan(app, store);
    const report = await assertScored(app, r, '10 MiB robots.txt');
    assert.deepEqual(outcomeOf(report, `${store.origin}/robots.txt`), ['too-large']);
    assert.ok(store.requests.length <= max() && own(store) <= app.config.SCAN_MAX_REQUESTS, `${store.requests.length} requests, ${own(store)} of the scan's own`);
  });
});

describe('R4: XML entity bombs in the sitemap', () => {
  let lol = '<!ENTITY lol "lol">';
  for (let i = 1; i <= 10; i++) lol += `<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`;
  const bombs: [string, string][] = [
    ['billion laughs (10 levels × 10)', `<?xml version="1.0"?><!DOCTYPE urlset [${lol}]><urlset><url><loc>https://x.test/&lol10;</loc></url></urlset>`],
    ['a 1,000-char entity referenced 1,000 times', `<!DOCTYPE urlset [<!ENTITY big "${'x'.repeat(1000)}">]><urlset><url><loc>https://x.test/${'&big;'.repeat(1000)}</loc></url></urlset>`],
    ['10⁶ character references', `<urlset><url><loc>https://x.test/${'&#65;'.repeat(1_000_000)}</loc></url></urlset>`],
  ];
  for (const [name, body] of bombs) {
    test(`${name}: scan 200 (a bomb that were expanded would never finish)`, async () => {
      const store = await fixture({ '/': SMALL_HOME, '/sitemap.xml': xml(body) });
      const r = await scan(app, store);
      await assertScored(app, r, name);
    });
  }
});

describe('R5: deep nesting', () => {
  const deep: [string, string][] = [
    ['100,000 nested <div>', htmlPage({ title: 'Deep', body: `${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}` })],
    ['JSON-LD [[[…]]] 10,000 deep', htmlPage({ title: 'Deep', head: `<script type="application/ld+json">${'['.repeat(10_000)}${']'.repeat(10_000)}</script>`, body: '<h1>x</h1>' })],
    ['JSON-LD @graph nested 5,000 deep', htmlPage({ title: 'Deep', head: `<script type="application/ld+json">${'{"@graph":'.repeat(5000)}{"@type":"Product","name":"x"}${'}'.repeat(5000)}</script>`, body: '<h1>x</h1>' })],
  ];
  for (const [name, body] of deep) {
    test(`${name}: scan 200, process alive, the stored report serialises`, async () => {
      const store = await fixture({ '/': page(body), '/products/one': page(body) });
      const r = await scan(app, store);
      const report = await assertScored(app, r, name);
      assert.doesNotThrow(() => JSON.stringify(report));
    });
  }
});

describe('R6: ReDoS inputs', () => {
  // n = 100,000 is the case of docs/security.md R6 (meta content of 100,000 characters, a robots line of 50,000
  // "*", a 1 MiB llms.txt line); smaller n scale every long value alike, for the linear-time ratios below.
  const routes = (n = 100_000): FixtureRoutes => ({
    '/': page(
      htmlPage({
        title: 'ReDoS',
        head: `<meta name="description" content="${'a'.repeat(n)}!"><meta property="og:title" content="${'a '.repeat(n / 2)}!">`,
        body: `<h1>${'a'.repeat(n)}</h1><a href="/products/one">one</a><a href="/products/two">two</a>`,
      }),
    ),
    '/products/one': page(htmlPage({ title: 'One', head: `<meta name="description" content="${'a'.repeat(n)}!">`, body: '<h1>One</h1><p>€10.00</p>' })),
    '/robots.txt': text(`User-agent: *\nDisallow: /${'*'.repeat(n / 2)}x\nAllow: /${'*/'.repeat(n / 5)}$\n\nUser-agent: ChatGPT-User\nDisallow: /${'*a'.repeat(n / 5)}b\n`),
    '/llms.txt': text(`# ${'x'.repeat((MiB * n) / 100_000)}`),
  });

  test('meta content of 100,000 chars, a robots line of 50,000 "*", a 1 MiB llms.txt line: the scan completes', async () => {
    const store = await fixture(routes());
    const r = await scan(app, store);
    await assertScored(app, r, 'ReDoS store');
  });

  test('each check on those artifacts runs in time linear in their size (10× the input, ≤ 30× the time)', async () => {
    const gathered = async (n: number) => {
      const store = await fixture(routes(n));
      const fetcher = createFetcher({ allowPrivate: true, maxRequests: 20, deadlineMs: 10_000, baseUrl: BASE });
      return { store, artifacts: await gather(new URL(store.url), fetcher, { baseUrl: BASE, maxRequests: 20 }) };
    };
    const small = await gathered(10_000);
    const { store, artifacts } = await gathered(100_000);
    assert.ok(artifacts.robots.present, 'the hostile robots.txt was read');
    assert.equal(artifacts.robots.isAllowed('ChatGPT-User', `${store.origin}/${'a'.repeat(5000)}`), true);
    for (const def of CHECKS) {
      assertLinear(def.id, 10_000, (n) => (n === 10_000 ? small.artifacts : artifacts), (a) => runChecks(a, undefined, [def]));
    }
  });
});
