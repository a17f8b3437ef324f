// End-to-end scans (scan/index.ts runScan) of the loopback fixture stores in test/fixtures/stores.ts: grades,
// caps, key check statuses and fix order (partial expectations), the request budget, the failure policy
// (SCAN_TIMEOUT, STORE_UNREACHABLE, INVALID_URL, abort), and AuditResult validity of every result.
import '../support/loopback-guard.js';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { startFixtureStore, type FixtureRoutes, type FixtureStore } from '../helpers/fixture-store.js';
import { runScan, type ScanOptions } from '../../scan/index.js';
import { AuditResult } from '../../schemas/scan-result.js';
import type { CheckId } from '../../scan/checks/rubric.js';
import { AppError } from '../../lib/errors.js';
import { assertWithin } from '../helpers/timing.js';
import {
  CATALOGUE,
  HOSTILE_NAME,
  brochureStore,
  brokenJsonLdStore,
  completeStore,
  hostileStore,
  hugePageStore,
  jsShellStore,
  microdataStore,
  redirectLoopStore,
  robotsBlockedStore,
  silentStore,
  wafStore,
} from '../fixtures/stores.js';

const MAX_REQUESTS = 20;
const OPTS: ScanOptions = { allowPrivate: true, maxRequests: MAX_REQUESTS, timeoutMs: 10_000, baseUrl: 'http://localhost:3000' };

const stores: FixtureStore[] = [];
after(async () => {
  await Promise.all(stores.map((s) => s.close()));
});

async function serve(build: (origin: string) => FixtureRoutes): Promise<FixtureStore> {
  const store = await startFixtureStore({});
  stores.push(store);
  for (const [path, route] of Object.entries(build(store.origin))) store.setRoute(path, route);
  return store;
}

async function scan(build: (origin: string) => FixtureRoutes, opts: Partial<ScanOptions> = {}): Promise<{ r: AuditResult; store: FixtureStore }> {
  const store = await serve(build);
  const r = await runScan(store.url, { ...OPTS, ...opts });
  AuditResult.parse(r); // every result is a valid AuditResult
  assert.ok(store.requests.length <= MAX_REQUESTS, `${store.requests.length} requests to the fixture`);
  assert.ok(r.fetched.length <= MAX_REQUESTS);
  return { r, store };
}

function check(r: AuditResult, id: CheckId) {
  const c = r.pillars.flatMap((p) => p.checks).find((x) => x.id === id);
  assert.ok(c, `check ${id} exists`);
  return c;
}

const statuses = (r: AuditResult, ids: CheckId[]) => Object.fromEntries(ids.map((id) => [id, check(r, id).status]));
const everyStatus = (r: AuditResult, ids: CheckId[], status: string) => assert.deepEqual(statuses(r, ids), Object.fromEntries(ids.map((id) => [id, status])));

async function rejectsWith(p: Promise<unknown>, code: string): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof AppError, `an AppError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail(`expected ${code}`);
}

describe('complete store', async () => {
  const started = performance.now();
  const { r, store } = await scan(completeStore);
  const wallMs = performance.now() - started;

  test('grade A (≈ 95), not capped; only HTTPS is missing on plain-http loopback', () => {
    assert.equal(r.grade, 'A');
    assert.ok(r.score >= 90, `score ${r.score}`);
    assert.equal(r.capped, false);
    assert.equal(r.cap_reason, null);
    assert.equal(r.host, `127.0.0.1:${store.port}`);
    assert.equal(r.url, store.url);
    assert.equal(check(r, 'trust_https').status, 'fail');
    assert.equal(r.top_fixes[0]?.check_id, 'trust_https');
  });

  test('the key checks pass', () => {
    everyStatus(r, [
      'access_storefront_reachable', 'access_live_agents_robots', 'access_no_bot_wall', 'access_indexable', 'access_ai_policy_declared',
      'discovery_robots_txt', 'discovery_sitemap', 'discovery_product_urls', 'discovery_llms_txt', 'discovery_canonical',
      'discovery_link_headers', 'discovery_site_search',
      'product_structured_data', 'product_core_fields', 'product_price', 'product_availability', 'product_identifiers', 'product_brand',
      'product_server_rendered', 'product_data_consistency', 'product_attributes', 'product_open_graph',
      'trust_return_policy', 'trust_shipping_policy', 'trust_organization', 'trust_contact_legal', 'trust_reviews',
      'protocol_commerce_profile', 'protocol_mcp_endpoint', 'protocol_mcp_server_card', 'protocol_markdown', 'protocol_api_catalog',
      'checkout_add_to_cart', 'checkout_handoff_url', 'checkout_guest', 'checkout_payment_methods',
    ], 'pass');
  });

  test('protocol flags and what agents see', () => {
    assert.equal(r.protocols.ucp, true);
    assert.equal(r.protocols.acp, true);
    assert.equal(r.protocols.mcp, true);
    assert.equal(r.protocols.mcp_tool_count, 4);
    assert.equal(r.protocols.mcp_server_card, true);
    assert.equal(r.protocols.llms_txt, true);
    assert.equal(r.protocols.markdown_negotiation, true);
    assert.equal(r.protocols.content_signals, true);
    assert.equal(r.protocols.structured_data, 'json-ld');
    assert.deepEqual(r.protocols.agents_blocked, []);
    assert.equal(r.protocols.waf_blocks_agents, false);
    assert.equal(r.products.length, 2);
    assert.deepEqual(
      r.products.map((p) => [p.name?.value, p.price?.value, p.currency?.value, p.gtin?.value]),
      CATALOGUE.slice(0, 2).map((p) => [p.name, Number(p.price), p.currency, p.gtin13]),
    );
    assert.match(r.products[0].image?.value ?? '', /^http:\/\/127\.0\.0\.1:\d+\/images\//);
  });

  test('fetched log and timing', () => {
    assert.equal(r.fetched.length, store.requests.length);
    assert.ok(r.fetched.every((f) => f.outcome === 'ok'), JSON.stringify(r.fetched.filter((f) => f.outcome !== 'ok')));
    // The reported times are consistent with the time the scan took as measured here; speed is npm run bench's.
    assert.ok(Number.isInteger(r.duration_ms) && r.duration_ms >= 0 && r.duration_ms <= Math.ceil(wallMs), `${r.duration_ms} ms of ${wallMs} ms`);
    assert.ok(r.fetched.every((f) => f.ms <= r.duration_ms + 1), 'no fetch took longer than the scan');
  });
});

test('robots.txt blocking the live agents caps the store at 35 (H1) and that fix comes first', async () => {
  const { r } = await scan(robotsBlockedStore);
  assert.equal(r.capped, true);
  assert.equal(r.cap_reason, 'H1');
  assert.equal(r.score, 35);
  assert.equal(r.grade, 'E');
  assert.equal(check(r, 'access_live_agents_robots').status, 'fail');
  assert.equal(r.top_fixes[0].check_id, 'access_live_agents_robots');
  assert.ok(r.top_fixes[0].points >= 50, `unblock fix worth ${r.top_fixes[0].points}`);
  assert.equal(r.protocols.agents_blocked.length, 6);
});

test('a WAF challenging agent user agents caps the store (H2)', async () => {
  const { r, store } = await scan(wafStore);
  assert.equal(r.capped, true);
  assert.equal(r.cap_reason, 'H2');
  assert.ok(r.score <= 35);
  assert.equal(r.grade, 'E');
  assert.equal(check(r, 'access_no_bot_wall').status, 'fail');
  assert.equal(check(r, 'access_storefront_reachable').status, 'pass');
  assert.equal(r.top_fixes[0].check_id, 'access_no_bot_wall');
  assert.equal(r.protocols.waf_blocks_agents, true);
  assert.ok(store.requests.some((q) => /agent-probe/.test(String(q.headers['user-agent'])) && q.path === '/'));
});

test('a one-page brochure without products is an E around 20', async () => {
  const { r } = await scan(brochureStore);
  assert.equal(r.grade, 'E');
  assert.equal(r.capped, false);
  assert.ok(r.score >= 10 && r.score <= 30, `score ${r.score}`);
  everyStatus(r, ['product_structured_data', 'product_price', 'discovery_product_urls', 'discovery_sitemap', 'discovery_llms_txt'], 'fail');
  // No product link at all: discovery is the root cause, and the product checks wait for it instead of failing one by one.
  assert.equal(check(r, 'product_price').evidence, 'Not assessed: no product page found.');
  assert.equal(check(r, 'product_price').blocked_by, 'no_readable_product_page');
  assert.deepEqual(r.root_causes?.map((c) => [c.id, c.check_id]), [['no_readable_product_page', 'discovery_product_urls']]);
  assert.equal(r.top_fixes[0].check_id, 'discovery_product_urls');
  assert.ok(!r.top_fixes.some((f) => f.check_id === 'product_price'), 'a moot check is no fix of its own');
  assert.equal(r.products.length, 0);
});

test('a JavaScript app shell with a sitemap is an E around 27', async () => {
  const { r } = await scan(jsShellStore);
  assert.equal(r.grade, 'E');
  assert.equal(r.capped, false);
  assert.ok(r.score >= 15 && r.score <= 35, `score ${r.score}`);
  assert.equal(check(r, 'discovery_sitemap').status, 'pass');
  assert.equal(check(r, 'product_structured_data').status, 'fail');
  assert.equal(r.products.length, 0);
  // The root cause leads: one finding for the app shell, the product checks "not assessed", their points on its fix.
  const [cause] = r.root_causes ?? [];
  assert.equal(cause?.id, 'no_readable_product_page');
  assert.equal(cause.check_id, 'product_server_rendered');
  assert.match(cause.detail, /No product page readable without scripts: the product links answer with pages that show no product \(.*\(0 characters of text\); <noscript> says "You need to enable JavaScript/);
  for (const id of ['product_structured_data', 'product_price', 'product_core_fields', 'trust_reviews', 'checkout_add_to_cart', 'discovery_canonical'] as const) {
    assert.equal(check(r, id).evidence, 'Not assessed: no product page readable without scripts.', id);
    assert.equal(check(r, id).blocked_by, 'no_readable_product_page', id);
  }
  assert.ok(cause.blocks.length >= 10, cause.blocks.join());
  assert.equal(r.top_fixes[0].check_id, 'product_server_rendered');
  assert.deepEqual(r.top_fixes[0].unlocks, cause.blocks);
  assert.equal(r.top_fixes[0].points, cause.points);
  const blockedMax = r.pillars.flatMap((p) => p.checks).filter((c) => c.blocked_by).reduce((sum, c) => sum + c.max, 0);
  assert.equal(cause.points, 3 + blockedMax, 'its own points and those it unlocks');
  // Every point the store misses is still in exactly one fix.
  assert.equal(r.top_fixes.reduce((sum, f) => sum + f.points, 0), 100 - r.score);
});

test('a storefront that does not open: the page checks wait for it, the site files are still judged', async () => {
  const { r } = await scan((origin) => ({ ...completeStore(origin), '/': { status: 401, headers: { 'www-authenticate': 'Basic realm="shop"' }, body: 'Password required' } }));
  assert.equal(check(r, 'access_storefront_reachable').status, 'fail');
  assert.deepEqual(r.root_causes?.map((c) => c.id), ['storefront_closed']);
  assert.equal(check(r, 'trust_organization').blocked_by, 'storefront_closed');
  assert.equal(check(r, 'trust_organization').evidence, 'Not assessed: the storefront did not open to automated visitors.');
  assert.equal(check(r, 'discovery_llms_txt').blocked_by, undefined, 'llms.txt is read whatever the home page says');
  assert.equal(check(r, 'discovery_llms_txt').status, 'pass');
  assert.equal(r.top_fixes[0].check_id, 'access_storefront_reachable');
});

test('robots.txt that shuts everyone out: the product checks wait for it', async () => {
  const { r } = await scan((origin) => ({ ...completeStore(origin), '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /\n' } }));
  assert.equal(r.cap_reason, 'H1');
  assert.deepEqual(r.root_causes?.map((c) => [c.id, c.check_id]), [['robots_block_crawl', 'access_live_agents_robots']]);
  assert.equal(check(r, 'product_price').evidence, 'Not assessed: robots.txt keeps agents out of the product pages.');
  assert.equal(r.top_fixes[0].check_id, 'access_live_agents_robots');
  assert.ok(r.top_fixes[0].unlocks?.includes('product_price'));
});

test('microdata-only products: structured data is partial, and agents still read the facts', async () => {
  const { r } = await scan(microdataStore);
  assert.equal(check(r, 'product_structured_data').status, 'partial');
  assert.equal(check(r, 'product_price').status, 'pass');
  assert.equal(r.protocols.structured_data, 'microdata');
  assert.equal(r.products.length, 2);
  assert.ok(r.products.every((p) => p.markup === 'microdata' && p.price?.source === 'microdata'));
});

test('hostile markup stays data: the scan completes and reports the raw strings', async () => {
  const { r } = await scan(hostileStore);
  assert.equal(r.products[0]?.name?.value, HOSTILE_NAME);
  assert.ok(r.products.every((p) => /^https?:/.test(p.url)));
  assert.ok(r.products.every((p) => p.image === null || /^https?:/.test(p.image.value)));
  JSON.parse(JSON.stringify(r)); // serialisable
});

test('unparseable JSON-LD is not Product structured data; og:type=product alone is partial', async () => {
  const { r } = await scan(brokenJsonLdStore);
  assert.equal(check(r, 'product_structured_data').status, 'partial');
  assert.match(check(r, 'product_structured_data').evidence, /unparseable JSON-LD/);
  assert.notEqual(check(r, 'product_price').status, 'pass');
  assert.equal(check(r, 'product_data_consistency').status, 'fail');
});

test('a 6 MB homepage is cut at the cap and the scan completes', async () => {
  const { r } = await scan(hugePageStore);
  const home = r.fetched.find((f) => new URL(f.url).pathname === '/');
  assert.equal(home?.outcome, 'too-large');
});

test('a redirect loop is a scored finding, within the request budget', async () => {
  const { r } = await scan(redirectLoopStore);
  assert.equal(check(r, 'access_storefront_reachable').status, 'fail');
  assert.equal(r.grade, 'E');
});

test('a store that never answers ends in SCAN_TIMEOUT when timeoutMs is up, not before', async () => {
  const store = await serve(silentStore);
  const timeoutMs = 2000;
  const started = Date.now();
  const err = await rejectsWith(runScan(store.url, { ...OPTS, timeoutMs }), 'SCAN_TIMEOUT');
  const elapsed = Date.now() - started;
  assert.ok(elapsed >= timeoutMs * 0.95, `${elapsed} ms: not before the timeout`);
  assertWithin('SCAN_TIMEOUT of a silent store', elapsed, timeoutMs); // it would otherwise wait for ever
  assert.match(err.message, /did not answer within 2 seconds/);
});

test('a homepage drip-fed one byte every 500 ms is SCAN_TIMEOUT too', async () => {
  const store = await serve(() => ({
    '/': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => res.write('<p>'), 500);
      res.on('close', () => clearInterval(timer));
    },
  }));
  const started = Date.now();
  await rejectsWith(runScan(store.url, { ...OPTS, timeoutMs: 2000 }), 'SCAN_TIMEOUT');
  assertWithin('SCAN_TIMEOUT of a dripping home page', Date.now() - started, 2000); // the drip never ends
});

test('a closed port is STORE_UNREACHABLE', async () => {
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const err = await rejectsWith(runScan(`http://127.0.0.1:${port}/`, OPTS), 'STORE_UNREACHABLE');
  assert.equal(err.status, 502);
});

test('refused targets are INVALID_URL: a bad scheme, and a name resolving to a private address', async () => {
  await rejectsWith(runScan('ftp://shop.test/', OPTS), 'INVALID_URL');
  await rejectsWith(runScan('http://127.0.0.1:8080/', { ...OPTS, allowPrivate: false }), 'INVALID_URL');
  const store = await serve(completeStore);
  const lookup: ScanOptions['lookup'] = (_host, _options, cb) => setImmediate(() => cb(null, [{ address: '127.0.0.1', family: 4 }]));
  const err = await rejectsWith(
    runScan(`http://evil.test:${store.port}/`, { ...OPTS, allowPrivate: false, allowIPAddressList: ['127.0.0.2'], lookup }),
    'INVALID_URL',
  );
  assert.match(err.message, /private or reserved network/);
  assert.equal(store.requests.length, 0);
});

test('an aborted caller gets an AbortError and the store sees its sockets closed', async () => {
  const store = await serve(() => ({ '/': { delayMs: 5000, body: '<title>slow</title>' } }));
  const ac = new AbortController();
  const abortAfterMs = 200;
  setTimeout(() => ac.abort(), abortAfterMs);
  const started = Date.now();
  await assert.rejects(runScan(store.url, { ...OPTS, signal: ac.signal }), (err: Error) => err.name === 'AbortError');
  // Within 10× the abort time, well before the store's answer at 5 s that a scan blind to the abort would wait for.
  assertWithin('abort', Date.now() - started, abortAfterMs);
});
