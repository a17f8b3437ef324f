// scan/fetching/gather.ts (+ scan/fetching/mcp-probe.ts): the fetch plan of docs/checks.md §2 against loopback fixture stores —
// which requests go out, in which order, within the budget, never to cart/checkout/account, robots.txt honoured
// for the scanner's own crawl, and the MCP probe over JSON and SSE.
import '../../support/loopback-guard.js';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureStore, type FixtureRoutes, type FixtureStore } from '../../helpers/fixture-store.js';
import { createFetcher, type Fetcher } from '../../../outbound/fetch.js';
import { gather } from '../../../scan/fetching/gather.js';
import { warmPagePool } from '../../../scan/parser-threads/page-pool.js';
import { findMcpEndpoint, parseJsonLimited, readRpc, sseMessages } from '../../../scan/fetching/mcp-probe.js';
import type { Artifacts, Resource } from '../../../scan/artifacts.js';
import {
  CATALOGUE,
  STOREFRONT_TOOLS,
  completeStore,
  htmlPage,
  jsonLd,
  json,
  mcpEndpoint,
  page,
  productHtml,
  sitemapIndex,
  sseMcpStore,
  text,
  urlset,
  xml,
} from '../../fixtures/stores.js';

const BASE = 'http://localhost:3000';
const stores: FixtureStore[] = [];
after(async () => {
  await Promise.all(stores.map((s) => s.close()));
});

interface Gathered {
  a: Artifacts;
  store: FixtureStore;
  fetcher: Fetcher;
  paths: string[];
}

async function gatherStore(build: (origin: string) => FixtureRoutes, opts: { maxRequests?: number } = {}): Promise<Gathered> {
  const store = await startFixtureStore({});
  stores.push(store);
  for (const [path, route] of Object.entries(build(store.origin))) store.setRoute(path, route);
  const maxRequests = opts.maxRequests ?? 20;
  await warmPagePool(); // as runScan does: the parser threads' one-time warm-up is not the store's time
  const fetcher = createFetcher({ allowPrivate: true, maxRequests, deadlineMs: 10_000, baseUrl: BASE });
  const a = await gather(new URL(store.url), fetcher, { baseUrl: BASE, maxRequests });
  return { a, store, fetcher, paths: store.requests.map((r) => r.path) };
}

const FORBIDDEN = /^\/(?:[a-z]{2}\/)?(?:cart|checkouts?|account|my-account)(?:[/?.]|$)/;
const WAVE_1 = ['/', '/robots.txt', '/llms.txt', '/.well-known/ucp', '/.well-known/mcp/server-card.json', '/.well-known/acp.json', '/.well-known/api-catalog'];

function indexOfPath(s: FixtureStore, path: string, pred: (h: Record<string, unknown>) => boolean = () => true): number {
  return s.requests.findIndex((r) => r.path === path && pred(r.headers));
}

describe('the complete store', async () => {
  const g = await gatherStore(completeStore);
  const { a, store } = g;

  test('wave 1: homepage twice (neutral and agent UA) and every well-known file once', () => {
    for (const p of WAVE_1) assert.ok(store.hits(p) >= 1, `${p} requested`);
    assert.equal(store.hits('/'), 2);
    const uas = store.requests.filter((r) => r.path === '/').map((r) => String(r.headers['user-agent']));
    assert.ok(uas.some((u) => /store-readiness\/1\.0/.test(u)));
    assert.ok(uas.some((u) => /agent-probe.*ChatGPT-User/.test(u)));
    assert.equal(store.hits('/.well-known/mcp.json'), 0, 'no R6b when the server card exists');
    assert.ok(a.home.ok && a.homePage && a.homeAgentPage);
    assert.ok(a.robots.present);
    assert.ok(a.llmsTxt.ok);
    assert.ok(a.ucpJson && a.acpJson && a.serverCardJson && a.apiCatalogJson);
  });

  test('the plan stays within the budget and the fetch log records every request', () => {
    assert.ok(store.requests.length <= 20, `${store.requests.length} requests`);
    assert.ok(g.fetcher.requestsUsed <= 20);
    assert.equal(a.fetchLog.length, store.requests.length);
    assert.ok(a.fetchLog.every((e) => Number.isInteger(e.ms) && typeof e.outcome === 'string'));
  });

  test('later waves start from what earlier ones returned', () => {
    const robots = indexOfPath(store, '/robots.txt');
    const sitemap = indexOfPath(store, '/sitemap.xml');
    const child = indexOfPath(store, '/sitemap_products_1.xml');
    const pdp1 = indexOfPath(store, `/products/${CATALOGUE[0].slug}`, (h) => !/markdown/.test(String(h.accept)));
    const md = indexOfPath(store, `/products/${CATALOGUE[0].slug}`, (h) => /text\/markdown/.test(String(h.accept)));
    const init = store.requests.findIndex((r) => r.path === '/api/mcp');
    const list = store.requests.findLastIndex((r) => r.path === '/api/mcp');
    assert.ok(robots >= 0 && sitemap > robots, 'R9 after R2');
    assert.ok(child > sitemap, 'R10 after R9');
    assert.ok(md > pdp1, 'R13 after R11');
    assert.ok(init > indexOfPath(store, '/.well-known/ucp') && list > init, 'R15 after R14 after R5');
    assert.equal(store.hits('/sitemap_pages_1.xml'), 0, 'the product child sitemap is picked');
  });

  test('sitemap index → product sitemap → product URLs', () => {
    assert.equal(a.sitemapDeclared, true);
    assert.equal(a.sitemapUrl, `${store.origin}/sitemap.xml`);
    assert.ok(a.childSitemap?.ok);
    assert.deepEqual(a.productUrlsFromSitemap, CATALOGUE.map((p) => `${store.origin}/products/${p.slug}`));
    assert.deepEqual(a.productUrlsFromHome, CATALOGUE.map((p) => `${store.origin}/products/${p.slug}`));
  });

  test('two PDPs sampled from the homepage links, parsed once into products', () => {
    assert.equal(a.pdps.length, 2);
    assert.deepEqual(a.pdps.map((p) => p.foundVia), ['home', 'home']);
    assert.deepEqual(a.pdps.map((p) => p.product?.name?.value), [CATALOGUE[0].name, CATALOGUE[1].name]);
    assert.equal(store.hits(`/products/${CATALOGUE[2].slug}`), 0, 'no third PDP');
  });

  test('R13 asks PDP #1 for markdown with the agent UA', () => {
    const r13 = store.requests.find((r) => String(r.headers.accept).startsWith('text/markdown, text/html'));
    assert.ok(r13);
    assert.equal(r13.path, `/products/${CATALOGUE[0].slug}`);
    assert.equal(r13.headers.accept, 'text/markdown, text/html;q=0.5');
    assert.match(String(r13.headers['user-agent']), /agent-probe/);
    assert.ok(a.pdpAgentMarkdown?.ok);
    assert.equal(a.pdpAgentMarkdown.res.contentType, 'text/markdown');
  });

  test('MCP: server/discover (a 2025 server refuses it), then initialize and tools/list to the UCP binding, JSON answers', () => {
    const posts = store.requests.filter((r) => r.method === 'POST');
    assert.deepEqual(posts.map((r) => r.path), ['/api/mcp', '/api/mcp', '/api/mcp']);
    for (const p of posts) {
      assert.equal(p.headers.accept, 'application/json, text/event-stream');
      assert.equal(p.headers['content-type'], 'application/json');
    }
    assert.equal(posts[0].headers['mcp-method'], 'server/discover');
    assert.equal(posts[0].headers['mcp-protocol-version'], '2026-07-28');
    assert.equal(posts[2].headers['mcp-session-id'], 'fixture-session-1');
    assert.equal(posts[2].headers['mcp-protocol-version'], '2025-06-18');
    assert.equal(a.mcp?.handshake, 'initialize');
    assert.deepEqual(a.mcp?.revisions, ['2025-06-18']);
    assert.ok(a.mcp);
    assert.equal(a.mcp.endpoint, `${store.origin}/api/mcp`);
    assert.equal(a.mcp.initializeResult?.protocolVersion, '2025-06-18');
    assert.match(a.mcp.initializeResult?.serverName ?? '', /storefront/);
    assert.deepEqual(a.mcp.tools, STOREFRONT_TOOLS);
    assert.equal(a.mcp.jsonRpcError, null);
  });

  test('never a cart, checkout or account path, though the pages link them', () => {
    assert.deepEqual(g.paths.filter((p) => FORBIDDEN.test(p)), []);
    assert.equal(a.platform, 'other');
    assert.equal(a.x402, false);
  });
});

test('MCP answers as an SSE stream are read too', async () => {
  const { a } = await gatherStore(sseMcpStore);
  assert.equal(a.mcp?.initializeResult?.protocolVersion, '2025-06-18');
  assert.deepEqual(a.mcp?.tools, STOREFRONT_TOOLS);
});

test('robots.txt is honoured for the scanner\'s own crawl; the homepage and well-known files are still fetched', async () => {
  const { a, store } = await gatherStore((origin) => ({
    ...completeStore(origin),
    '/robots.txt': text(`User-agent: *\nAllow: /\n\nUser-agent: store-readiness\nDisallow: /products/\n\nSitemap: ${origin}/sitemap.xml\n`),
  }));
  assert.equal(store.requests.filter((r) => r.path.startsWith('/products/')).length, 0);
  assert.equal(a.pdps.length, 0);
  assert.equal(a.pdpAgentMarkdown?.ok && a.pdpAgentMarkdown.res.url, `${store.origin}/`, 'R13 falls back to the homepage');
  for (const p of WAVE_1) assert.ok(store.hits(p) >= 1, `${p} requested`);
  assert.ok(a.productUrlsFromSitemap.length >= 2, 'discovery still reports the URLs it found');
});

test('no product page anywhere: R13 asks the homepage (when it answered) for Markdown with the agent UA', async () => {
  const { a, store } = await gatherStore(() => ({ '/': page(htmlPage({ title: 'Brochure', body: '<h1>Brochure</h1><p>No products here.</p>' })) }));
  assert.equal(a.pdps.length, 0);
  const r13 = store.requests.filter((r) => r.path === '/' && String(r.headers.accept).startsWith('text/markdown'));
  assert.equal(r13.length, 1);
  assert.equal(r13[0].headers.accept, 'text/markdown, text/html;q=0.5');
  assert.match(String(r13[0].headers['user-agent']), /agent-probe/);
  assert.equal(a.pdpAgentMarkdown?.ok && a.pdpAgentMarkdown.res.url, `${store.origin}/`);

  // A homepage that failed gets no second request.
  const broken = await gatherStore(() => ({ '/': page(htmlPage({ title: 'Gone', body: '<h1>Gone</h1>' }), {}, 404) }));
  assert.equal(broken.a.pdpAgentMarkdown, null);
  assert.equal(broken.store.requests.filter((r) => r.path === '/').length, 2);
});

test('forbidden paths are filtered from every candidate source', async () => {
  const { a, paths } = await gatherStore((origin) => ({
    '/': page(
      htmlPage({
        title: 'Links everywhere',
        head: jsonLd({ '@type': 'ItemList', itemListElement: [{ '@type': 'ListItem', url: `${origin}/checkout/products/x` }] }),
        body: '<a href="/cart/products/a">a</a><a href="/account/p/b">b</a><a href="/en/cart/item/c">c</a><a href="/products/ok">ok</a>',
      }),
    ),
    '/robots.txt': text(`User-agent: *\nAllow: /\nSitemap: ${origin}/checkout/sitemap.xml\n`),
    '/sitemap.xml': xml(urlset([`${origin}/cart/products/d`, `${origin}/checkouts/p/e`])),
    '/products/ok': page(productHtml(origin, CATALOGUE[0])),
  }));
  assert.deepEqual(paths.filter((p) => FORBIDDEN.test(p)), []);
  assert.deepEqual(a.pdps.map((p) => p.page?.url), [`${a.origin}/products/ok`]);
});

test('a homepage that is itself a product page is PDP #1 (foundVia self)', async () => {
  const { a } = await gatherStore((origin) => ({ '/': page(productHtml(origin, CATALOGUE[0])) }));
  assert.equal(a.pdps[0]?.foundVia, 'self');
  assert.equal(a.pdps[0]?.product?.name?.value, CATALOGUE[0].name);
});

test('PDPs come from the product sitemap when the homepage links none; non-product pages are skipped', async () => {
  const { a } = await gatherStore((origin) => ({
    '/': page(htmlPage({ title: 'Home', body: '<h1>Home</h1>' })),
    '/robots.txt': text(`User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap_index.xml\n`),
    '/sitemap_index.xml': xml(sitemapIndex([`${origin}/sitemap_products_1.xml`])),
    '/sitemap_products_1.xml': xml(urlset([`${origin}/products/gone`, ...CATALOGUE.map((p) => `${origin}/products/${p.slug}`)])),
    ...Object.fromEntries(CATALOGUE.map((p) => [`/products/${p.slug}`, page(productHtml(origin, p))])),
  }));
  assert.equal(a.pdps.length, 2);
  assert.deepEqual(a.pdps.map((p) => p.foundVia), ['sitemap', 'sitemap']);
  assert.deepEqual(a.pdps.map((p) => p.product?.name?.value), [CATALOGUE[0].name, CATALOGUE[1].name]);
});

test('a declared sitemap that is broken falls back to /sitemap.xml (not declared)', async () => {
  const { a } = await gatherStore((origin) => ({
    '/': page(htmlPage({ title: 'Home', body: '<h1>Home</h1>' })),
    '/robots.txt': text(`User-agent: *\nAllow: /\nSitemap: ${origin}/broken.xml\n`),
    '/sitemap.xml': xml(urlset([`${origin}/products/a`, `${origin}/products/b`])),
  }));
  assert.equal(a.sitemapUrl?.endsWith('/sitemap.xml'), true);
  assert.equal(a.sitemapDeclared, false);
  assert.equal(a.productUrlsFromSitemap.length, 2);
});

test('a 10-level sitemap index is followed 3 documents deep at most', async () => {
  const { store } = await gatherStore((origin) => {
    const routes: FixtureRoutes = { '/': page(htmlPage({ title: 'Deep', body: '<h1>Deep</h1>' })) };
    for (let i = 0; i < 10; i++) {
      routes[i === 0 ? '/sitemap.xml' : `/sitemap-${i}.xml`] = xml(sitemapIndex([`${origin}/sitemap-${i + 1}.xml`]));
    }
    return routes;
  });
  const sitemapRequests = store.requests.filter((r) => /^\/sitemap/.test(r.path)).length;
  assert.ok(sitemapRequests <= 3, `${sitemapRequests} sitemap requests`);
});

test('a 50,000-URL sitemap and a tight budget: the fixture sees at most SCAN_MAX_REQUESTS requests', async () => {
  const { store, a } = await gatherStore(
    (origin) => ({
      '/': page(htmlPage({ title: 'Big', body: '<h1>Big</h1>' })),
      '/sitemap.xml': xml(urlset(Array.from({ length: 50_000 }, (_, i) => `${origin}/products/p-${i}`))),
      '*': page(htmlPage({ title: 'Not a product', body: '<p>nothing</p>' })),
    }),
    { maxRequests: 12 },
  );
  assert.ok(store.requests.length <= 12, `${store.requests.length} requests`);
  assert.equal(a.productUrlsFromSitemap.length, 50_000);
  for (const p of ['/', '/robots.txt', '/.well-known/ucp']) assert.ok(store.hits(p) >= 1, p);
});

test('a homepage redirecting to another host: that site is not the store, so none of its pages are crawled or scored', async () => {
  const store = await startFixtureStore({});
  stores.push(store);
  const other = `http://shop.test:${store.port}`;
  store.setRoute('/', { status: 301, headers: { location: `${other}/home` } });
  store.setRoute('/home', page(htmlPage({ title: 'Home', body: `<a href="${other}/products/${CATALOGUE[0].slug}">A</a>` })));
  store.setRoute('/sitemap.xml', xml(urlset([`${other}/products/${CATALOGUE[1].slug}`, 'http://elsewhere.test/products/x'])));
  for (const p of CATALOGUE) store.setRoute(`/products/${p.slug}`, page(productHtml(other, p)));
  const lookup = (_h: string, _o: object, cb: (e: Error | null, a: { address: string; family: number }[]) => void) =>
    setImmediate(() => cb(null, [{ address: '127.0.0.1', family: 4 }]));
  const fetcher = createFetcher({ allowPrivate: true, maxRequests: 20, deadlineMs: 10_000, baseUrl: BASE, lookup });
  const a = await gather(new URL(store.url), fetcher, { baseUrl: BASE });
  assert.deepEqual(a.productUrlsFromSitemap, []);
  assert.deepEqual(a.pdps, []);
  assert.equal(a.mcp, null);
  assert.ok(!a.sitemap.ok && /redirected to another site \(shop\.test:\d+\)/.test(a.sitemap.detail), JSON.stringify(a.sitemap).slice(0, 200));
  for (const p of CATALOGUE) assert.equal(store.hits(`/products/${p.slug}`), 0, p.slug);
  assert.equal(store.hits('/sitemap.xml'), 0);
});

test('R6b: /.well-known/mcp.json is read when the server card is missing, and its endpoint is probed', async () => {
  const { a, store } = await gatherStore((origin) => ({
    '/': page(htmlPage({ title: 'Home', body: '<h1>Home</h1>' })),
    '/.well-known/mcp.json': json({ name: 'Store MCP', endpoints: [{ url: `${origin}/mcp` }] }),
    '/mcp': mcpEndpoint({ tools: ['search_catalog'] }),
  }));
  assert.equal(store.hits('/.well-known/mcp.json'), 1);
  assert.ok(a.serverCard.ok);
  assert.equal(a.mcp?.endpoint, `${store.origin}/mcp`);
  assert.deepEqual(a.mcp?.tools, ['search_catalog']);
});

test('Shopify without declarations: /api/mcp is probed', async () => {
  const { a, store } = await gatherStore(() => ({
    '/': page(htmlPage({ title: 'Shop', head: '<link rel="stylesheet" href="//cdn.shopify.com/s/files/1/theme.css">', body: '<h1>Shop</h1>' })),
    '/api/mcp': mcpEndpoint(),
  }));
  assert.equal(a.platform, 'shopify');
  assert.equal(store.hits('/api/mcp'), 3); // server/discover, initialize, tools/list
  assert.deepEqual(a.mcp?.tools, STOREFRONT_TOOLS);
});

test('no MCP declared and not Shopify: no POST at all', async () => {
  const { a, store } = await gatherStore(() => ({ '/': page(htmlPage({ title: 'Home', body: '<h1>Home</h1>' })) }));
  assert.equal(a.mcp, null);
  assert.equal(store.requests.filter((r) => r.method !== 'GET').length, 0);
});

test('x402: a 402 answer with payment requirements is flagged', async () => {
  const { a } = await gatherStore(() => ({
    '/': page(htmlPage({ title: 'Home', body: '<h1>Home</h1>' })),
    '/llms.txt': { status: 402, headers: { 'content-type': 'application/json', 'payment-required': 'eyJ4NDAyVmVyc2lvbiI6Mn0=' }, body: '{}' },
  }));
  assert.equal(a.x402, true);
});

test('an unreachable homepage ends the plan after wave 1', async () => {
  const { a, store } = await gatherStore(() => ({ '/': (req) => req.socket.destroy() }));
  assert.equal(a.home.ok, false);
  assert.equal(a.pdps.length, 0);
  assert.equal(a.sitemap.ok, false);
  assert.equal(store.hits('/sitemap.xml'), 0);
});

describe('MCP response parsing', () => {
  const res = (body: string, contentType: string): Resource => ({
    ok: true,
    res: { requestedUrl: 'x', url: 'x', status: 200, headers: {}, contentType, body, ms: 1, redirects: [] },
  });

  test('JSON body', () => {
    assert.deepEqual(readRpc(res('{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}}', 'application/json'), 1), {
      result: { protocolVersion: '2025-06-18' },
    });
  });

  test('SSE stream: the data lines of the event with our id, multi-line data joined', () => {
    const body = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n' +
      'event: message\r\nid: 7\r\ndata: {"jsonrpc":"2.0","id":2,\r\ndata: "result":{"tools":[{"name":"get_product"}]}}\r\n\r\n';
    assert.equal(sseMessages(body).length, 2);
    assert.deepEqual(readRpc(res(body, 'text/event-stream'), 2), { result: { tools: [{ name: 'get_product' }] } });
  });

  test('JSON-RPC errors are reported', () => {
    assert.deepEqual(readRpc(res('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}', 'application/json'), 1), {
      error: '-32601 Method not found',
    });
    assert.deepEqual(readRpc(res('<html>nope</html>', 'text/html'), 1), {});
  });

  test('JSON deeper than 64 levels is refused without recursion', () => {
    assert.equal(parseJsonLimited('['.repeat(10_000) + ']'.repeat(10_000)), undefined);
    assert.deepEqual(parseJsonLimited('{"a":"[[[[["}'), { a: '[[[[[' });
    assert.equal(parseJsonLimited('{"a":'), undefined);
  });
});

describe('MCP endpoint discovery', () => {
  const base = { ucpUrl: 'https://s.test/.well-known/ucp', serverCardUrl: 'https://s.test/.well-known/mcp/server-card.json', platform: 'other', origin: 'https://s.test' };

  test('UCP 2026-01-11 transport-object shape', () => {
    const ucpJson = { ucp: { version: '2026-01-11', services: { 'dev.ucp.shopping': { version: '2026-01-11', mcp: { endpoint: 'https://s.test/ucp/mcp' } } } } };
    assert.deepEqual(findMcpEndpoint({ ...base, ucpJson, serverCardJson: null }), {
      endpoint: 'https://s.test/ucp/mcp',
      source: 'ucp',
      declaredIn: 'https://s.test/.well-known/ucp',
    });
  });

  test('UCP bindings-array shape (2026-01-23 on) wins over the server card', () => {
    const ucpJson = { ucp: { services: { 'dev.ucp.shopping': [{ transport: 'rest', endpoint: 'https://s.test/api' }, { transport: 'mcp', endpoint: '/api/mcp' }] } } };
    const serverCardJson = { remotes: [{ type: 'streamable-http', url: 'https://s.test/card-mcp' }] };
    assert.equal(findMcpEndpoint({ ...base, ucpJson, serverCardJson })?.endpoint, 'https://s.test/api/mcp');
  });

  test('server card shapes: remotes, transport.endpoint, url, endpoints', () => {
    const cards: [unknown, string][] = [
      [{ remotes: [{ type: 'sse', url: 'https://s.test/sse' }, { type: 'streamable-http', url: 'https://s.test/mcp' }] }, 'https://s.test/mcp'],
      [{ transport: { type: 'streamable-http', endpoint: '/mcp2' } }, 'https://s.test/mcp2'],
      [{ name: 'x', url: 'https://s.test/mcp3' }, 'https://s.test/mcp3'],
      [{ endpoints: { streamable_http: 'https://s.test/mcp4' } }, 'https://s.test/mcp4'],
    ];
    for (const [card, expected] of cards) assert.equal(findMcpEndpoint({ ...base, ucpJson: null, serverCardJson: card })?.endpoint, expected);
  });

  test('javascript: endpoints are ignored; Shopify falls back to /api/mcp', () => {
    assert.equal(findMcpEndpoint({ ...base, ucpJson: null, serverCardJson: { url: 'javascript:alert(1)' } }), null);
    assert.deepEqual(findMcpEndpoint({ ...base, platform: 'shopify', ucpJson: null, serverCardJson: null }), {
      endpoint: 'https://s.test/api/mcp',
      source: 'platform',
      declaredIn: null,
    });
  });

  test('a card found through a catalog comes before the well-known card, after the UCP binding', () => {
    const catalog = { catalogCardUrl: 'https://s.test/mcp/server-card', catalogCardJson: { name: 'a/b', remotes: [{ type: 'streamable-http', url: 'https://s.test/mcp' }] } };
    const serverCardJson = { remotes: [{ type: 'streamable-http', url: 'https://s.test/old-mcp' }] };
    assert.deepEqual(findMcpEndpoint({ ...base, ...catalog, ucpJson: null, serverCardJson }), {
      endpoint: 'https://s.test/mcp',
      source: 'catalog-card',
      declaredIn: 'https://s.test/mcp/server-card',
    });
    const ucpJson = { ucp: { services: { 'dev.ucp.shopping': [{ transport: 'mcp', endpoint: 'https://s.test/ucp/mcp' }] } } };
    assert.equal(findMcpEndpoint({ ...base, ...catalog, ucpJson, serverCardJson })?.source, 'ucp');
    // A catalog card without an endpoint leaves the well-known card in charge.
    assert.equal(findMcpEndpoint({ ...base, catalogCardUrl: catalog.catalogCardUrl, catalogCardJson: { name: 'a/b' }, ucpJson: null, serverCardJson })?.endpoint, 'https://s.test/old-mcp');
  });
});
