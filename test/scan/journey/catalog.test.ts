// The protocol journey against loopback MCP servers and a UCP REST catalog, through the real fetcher under the
// scanner's address rules (only 127.0.0.1 allowed): the read-only catalog tool is chosen and called with the
// product's name and nothing else, the product found and its price compared; a catalog that answers 10 MB, never,
// or only offers tools that write, ends with a clear detail and within its bounds.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { askCatalog, pickCatalogTool, type PageProduct } from '../../../scan/journey/catalog.js';
import { createFetcher } from '../../../outbound/fetch.js';
import { CATALOGUE, mcpEndpoint } from '../../fixtures/stores.js';
import { newCanary, readBody } from '../../fixtures/shop.js';
import { startFixtureStore, type FixtureRoutes } from '../../helpers/fixture-store.js';
import { jsonResource, makeArtifacts, okResource } from '../../helpers/artifacts.js';
import { assertWithin } from '../../helpers/timing.js';
import type { Artifacts } from '../../../scan/artifacts.js';

const JACKET = CATALOGUE[0];
const product: PageProduct = { url: 'http://127.0.0.1/products/trail-runner-jacket', name: JACKET.name, price: 189, currency: 'EUR', availability: 'InStock' };
const CLIENT = { name: 'test', version: '1' };

async function store(t: TestContext, routes: FixtureRoutes) {
  const s = await startFixtureStore(routes);
  t.after(() => s.close());
  return s;
}

const fetcher = (requestTimeoutMs = 3000) =>
  createFetcher({ allowPrivate: false, allowIPAddressList: ['127.0.0.1'], allowedPorts: 'any', maxRequests: 3, deadlineMs: 10_000, requestTimeoutMs, baseUrl: 'http://localhost:3000' });

/** The artifacts of a scan whose MCP probe answered at `endpoint` with `tools` (2025 initialize, or 2026 discover). */
function scanned(origin: string, endpoint: string, tools: string[], handshake: 'initialize' | 'server/discover' = 'initialize', extra: Partial<Artifacts> = {}): Artifacts {
  const home = okResource(`${origin}/`, '<h1>Shop</h1>');
  const notSent = { ok: false as const, reason: 'not-fetched' as const, detail: '', url: endpoint };
  return makeArtifacts({ inputUrl: `${origin}/`, origin, home, mcp: { endpoint, initialize: notSent, initializeResult: {}, handshake, jsonRpcError: null, toolsList: null, tools }, ...extra });
}

test('the read-only catalog tool is called with the product name: found, the same price and stock', async (t) => {
  const canary = newCanary();
  const s = await store(t, { '/api/mcp': mcpEndpoint({ catalog: { canary } }) });
  const p = await askCatalog(scanned(s.origin, `${s.origin}/api/mcp`, ['search_catalog', 'get_product', 'create_cart', 'create_checkout']), product, fetcher(), CLIENT);
  assert.deepEqual(canary.toolCalls, ['search_catalog']);
  assert.equal(p?.tool, 'search_catalog');
  assert.equal(p?.query, JACKET.name);
  assert.equal(p?.found, true, p?.detail);
  assert.equal(p?.price_matches, true);
  assert.deepEqual(p?.protocol_price, { amount: 189, currency: 'EUR' }, 'a UCP integer amount is read in minor units');
  assert.equal(p?.availability_matches, true);
  assert.equal(p?.calls, 3, 'initialize, tools/list, tools/call');
  assert.equal(s.requests.length, 3);
});

test('a 2026-07-28 server is asked without a handshake: tools/list and tools/call with the _meta envelope', async (t) => {
  const canary = newCanary();
  const s = await store(t, { '/api/mcp': mcpEndpoint({ catalog: { canary, price: '199.00' } }) });
  const p = await askCatalog(scanned(s.origin, `${s.origin}/api/mcp`, ['search_catalog'], 'server/discover'), product, fetcher(), CLIENT);
  assert.equal(p?.calls, 2);
  assert.equal(p?.price_matches, false);
  assert.match(p?.detail ?? '', /at 199 EUR; its page says 189 EUR/);
  assert.equal(s.requests.every((r) => r.headers['mcp-protocol-version'] === '2026-07-28'), true);
});

test('a catalog answer of 10 MB is cut at the JSON cap, within the bound', async (t) => {
  const s = await store(t, { '/api/mcp': mcpEndpoint({ catalog: { answer: 'huge' } }) });
  const started = performance.now();
  const p = await askCatalog(scanned(s.origin, `${s.origin}/api/mcp`, ['search_catalog']), product, fetcher(), CLIENT);
  assert.equal(p?.found, false);
  assert.match(p?.detail ?? '', /tools\/call got no usable answer: the answer was larger than an agent reads \(512 KiB\)/);
  assertWithin('a 10 MB catalog answer', performance.now() - started, 10_000);
});

test('a catalog that never answers is cut at the request timeout', async (t) => {
  const s = await store(t, { '/api/mcp': mcpEndpoint({ catalog: { answer: 'never' } }) });
  const started = performance.now();
  const p = await askCatalog(scanned(s.origin, `${s.origin}/api/mcp`, ['search_catalog']), product, fetcher(1000), CLIENT);
  assert.match(p?.detail ?? '', /tools\/call got no usable answer: it did not answer in time/);
  assertWithin('a catalog that never answers (1 s per request)', performance.now() - started, 10_000);
});

test('a store whose tools all write gets no call: the detail names the tools', async (t) => {
  const canary = newCanary();
  const s = await store(t, { '/api/mcp': mcpEndpoint({ catalog: { canary }, tools: ['create_cart', 'create_checkout', 'add_to_cart'] }) });
  const p = await askCatalog(scanned(s.origin, `${s.origin}/api/mcp`, ['create_cart']), product, fetcher(), CLIENT);
  assert.deepEqual(canary.toolCalls, []);
  assert.equal(p?.tool, null);
  assert.match(p?.detail ?? '', /No read-only catalog tool among the 3 tools \(create_cart, create_checkout, add_to_cart\)/);
});

test('the tool chosen: read-only first, a search before a lookup; never one that says it writes or names a cart or an order', () => {
  const tool = (name: string, readOnly: boolean | null, description = '', destructive = false) => ({ name, description, readOnly, destructive, input: {} });
  assert.equal(pickCatalogTool([tool('get_product', true), tool('search_products', true)])?.name, 'search_products');
  assert.equal(pickCatalogTool([tool('search_products', null), tool('lookup', true)])?.name, 'lookup');
  assert.equal(pickCatalogTool([tool('search_catalog', false)]), null, 'readOnlyHint false');
  assert.equal(pickCatalogTool([tool('search_catalog', null, '', true)]), null, 'destructive');
  assert.equal(pickCatalogTool([tool('search_orders', true), tool('get_cart', true), tool('update_checkout', true)]), null);
  assert.equal(pickCatalogTool([tool('weather', null, 'Today\'s weather')]), null, 'not about the catalog');
  assert.equal(pickCatalogTool([tool('find', null, 'Find products in the catalogue')])?.name, 'find');
});

test('a UCP profile with a REST catalog is asked at <endpoint>/catalog/search with the name only', async (t) => {
  const bodies: string[] = [];
  const s = await store(t, {
    '/ucp/catalog/search': (req: IncomingMessage, res: ServerResponse) =>
      void readBody(req).then((raw) => {
        bodies.push(raw);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ products: [{ title: JACKET.name, price_range: { min: { amount: 18900, currency: 'EUR' } } }] }));
      }),
  });
  const ucp = jsonResource('/.well-known/ucp', {
    ucp: { version: '2026-04-08', services: { 'dev.ucp.shopping': [{ transport: 'rest', endpoint: `${s.origin}/ucp` }] }, capabilities: { 'dev.ucp.shopping.catalog.search': [{ version: '2026-04-08' }] } },
  });
  const a = makeArtifacts({ inputUrl: `${s.origin}/`, origin: s.origin, home: okResource(`${s.origin}/`, ''), ucp: ucp.resource, ucpJson: ucp.json });
  const p = await askCatalog(a, product, fetcher(), CLIENT);
  assert.deepEqual(bodies.map((b) => JSON.parse(b)), [{ query: JACKET.name }]);
  assert.equal(p?.via, 'ucp');
  assert.equal(p?.price_matches, true, p?.detail);
});

test('an MCP endpoint on another site is not asked', async (t) => {
  const s = await store(t, { '/api/mcp': mcpEndpoint({ catalog: {} }) });
  const p = await askCatalog(scanned('http://shop.test', `${s.origin}/api/mcp`, ['search_catalog']), product, fetcher(), CLIENT);
  assert.equal(s.requests.length, 0);
  assert.match(p?.detail ?? '', /on another site than the store: not asked/);
  assert.equal(p?.calls, 0);
});
