// MCP discovery paths and AI-usage signals end to end: GET /api/v1/scan on the real app against loopback stores that
// are complete except for the document under test (docs/checks.md §11). Each accepted discovery path finds the card
// (and the MCP probe uses its endpoint); an older but valid path is never reported missing. The catalogs and robots.txt
// records are the published examples in test/fixtures/protocols, with example.com pointed at the loopback store.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, startApp } from '../helpers/start-app.js';
import { signedRequests, startStoreFrom, type FixtureRoute, type FixtureRoutes } from '../helpers/fixture-store.js';
import { readProtocolFixture } from '../helpers/artifacts.js';
import { ScanResult } from '../../schemas/scan-result.js';
import { completeStore, json, mcpEndpoint, page, text } from '../fixtures/stores.js';

type Check = { id: string; status: string; evidence: string };

/** A SEP-2127 card for the store's MCP endpoint at /mcp. */
const card = (origin: string) => ({
  name: 'example.northwind/storefront',
  version: '1.0.0',
  description: 'Search the catalogue and build a cart.',
  remotes: [{ type: 'streamable-http', url: `${origin}/mcp` }],
});

/** The complete store without any MCP discovery document or UCP MCP binding; its MCP server lives at /mcp. */
function withoutMcpDiscovery(origin: string): FixtureRoutes {
  const routes = completeStore(origin);
  for (const path of ['/.well-known/ucp', '/.well-known/mcp/server-card.json', '/.well-known/ai-catalog.json', '/api/mcp']) delete routes[path];
  routes['/mcp'] = mcpEndpoint();
  return routes;
}

const fromFixture = (name: string, origin: string) => JSON.parse(readProtocolFixture(name).replaceAll('https://example.com', origin)) as unknown;

const MCP_CASES: { name: string; routes: (origin: string) => FixtureRoutes; status: 'pass' | 'fail'; evidence: RegExp; endpoint: string | null; notFetched?: string[] }[] = [
  {
    name: 'the AI Catalog at /.well-known/ai-catalog.json points at the card at <mcp-url>/server-card',
    routes: (o) => ({
      ...withoutMcpDiscovery(o),
      '/.well-known/ai-catalog.json': json(fromFixture('mcp-catalog-discovery-type.json', o), 'application/ai-catalog+json'),
      '/mcp/server-card': json(card(o), 'application/mcp-server-card+json'),
    }),
    status: 'pass',
    evidence: /\/mcp\/server-card \(found through the AI Catalog http:\/\/127\.0\.0\.1:\d+\/\.well-known\/ai-catalog\.json\): "example\.northwind\/storefront" at http:\/\/127\.0\.0\.1:\d+\/mcp\.$/,
    endpoint: '/mcp',
    notFetched: ['/.well-known/mcp/catalog.json'],
  },
  {
    name: 'the earlier MCP catalog at /.well-known/mcp/catalog.json (mediaType entries) when there is no AI Catalog',
    routes: (o) => ({
      ...withoutMcpDiscovery(o),
      '/.well-known/mcp/catalog.json': json(fromFixture('mcp-catalog-discovery-mediatype.json', o)),
      '/mcp/server-card': json(card(o)),
    }),
    status: 'pass',
    evidence: /found through the MCP catalog http:\/\/127\.0\.0\.1:\d+\/\.well-known\/mcp\/catalog\.json\): "example\.northwind\/storefront"/,
    endpoint: '/mcp',
  },
  {
    name: 'a card carried inline in the AI Catalog costs no further request',
    routes: (o) => ({
      ...withoutMcpDiscovery(o),
      '/.well-known/ai-catalog.json': json({
        specVersion: '1.0',
        entries: [{ identifier: 'urn:air:northwind.example:mcp:storefront', type: 'application/mcp-server-card+json', data: card(o) }],
      }),
    }),
    status: 'pass',
    evidence: /\(carried inline in the AI Catalog http:\/\/127\.0\.0\.1:\d+\/\.well-known\/ai-catalog\.json\): "example\.northwind\/storefront"/,
    endpoint: '/mcp',
    notFetched: ['/.well-known/mcp/catalog.json', '/mcp/server-card'],
  },
  {
    name: 'a card only at /.well-known/mcp/server-card.json (earlier drafts) is not reported missing',
    routes: (o) => ({ ...withoutMcpDiscovery(o), '/.well-known/mcp/server-card.json': json(card(o)) }),
    status: 'pass',
    evidence: /^http:\/\/127\.0\.0\.1:\d+\/\.well-known\/mcp\/server-card\.json: "example\.northwind\/storefront" at/,
    endpoint: '/mcp',
  },
  {
    name: 'a SEP-1649 card only at /.well-known/mcp.json (the oldest path) is not reported missing',
    routes: (o) => ({
      ...withoutMcpDiscovery(o),
      '/.well-known/mcp.json': json({ serverInfo: { name: 'northwind', version: '1' }, transport: { type: 'streamable-http', endpoint: `${o}/mcp` } }),
    }),
    status: 'pass',
    evidence: /\/\.well-known\/mcp\.json: "northwind" at http:\/\/127\.0\.0\.1:\d+\/mcp\.$/,
    endpoint: '/mcp',
  },
  {
    name: 'a catalog entry whose card is missing leaves the well-known card to pass',
    routes: (o) => ({
      ...withoutMcpDiscovery(o),
      '/.well-known/ai-catalog.json': json(fromFixture('mcp-catalog-discovery-type.json', o)),
      '/.well-known/mcp/server-card.json': json(card(o)),
    }),
    status: 'pass',
    evidence: /^http:\/\/127\.0\.0\.1:\d+\/\.well-known\/mcp\/server-card\.json: "example\.northwind\/storefront"/,
    endpoint: '/mcp',
  },
  {
    name: 'no catalog and no well-known card: the card at <mcp-url>/server-card, beside the endpoint the UCP profile names, without a tool list',
    routes: (o) => ({
      ...withoutMcpDiscovery(o),
      '/.well-known/ucp': completeStore(o)['/.well-known/ucp'],
      '/api/mcp': mcpEndpoint(),
      '/api/mcp/server-card': json({ ...card(o), remotes: [{ type: 'streamable-http', url: `${o}/api/mcp` }] }, 'application/mcp-server-card+json'),
    }),
    status: 'pass',
    evidence: /\/api\/mcp\/server-card \(at the card's home beside the MCP endpoint .*\/api\/mcp\): "example\.northwind\/storefront" at http:\/\/127\.0\.0\.1:\d+\/api\/mcp\.$/,
    endpoint: '/api/mcp',
  },
  {
    name: 'no catalog and no card fails, naming every place looked at',
    routes: withoutMcpDiscovery,
    status: 'fail',
    evidence: /server-card\.json → 404 .*catalog .*\/\.well-known\/ai-catalog\.json → 404.*: no MCP server card entry\.$/,
    endpoint: null,
  },
];

test('GET /api/v1/scan finds the MCP server card through every accepted discovery path', async (t) => {
  const app = await startApp(t);
  for (const c of MCP_CASES) {
    await t.test(c.name, async (st) => {
      const shop = await startStoreFrom(c.routes);
      st.after(() => shop.close());
      const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const parsed = ScanResult.safeParse(res.body);
      assert.ok(parsed.success, parsed.error?.message);
      const checks = new Map<string, Check>(parsed.data.pillars.flatMap((p) => p.checks).map((x) => [x.id, x as Check]));
      const cardCheck = checks.get('protocol_mcp_server_card')!;
      assert.equal(cardCheck.status, c.status, cardCheck.evidence);
      assert.match(cardCheck.evidence, c.evidence);
      assert.equal(parsed.data.protocols.mcp_server_card, c.status === 'pass');
      for (const path of c.notFetched ?? []) assert.equal(shop.hits(path), 0, `${path} was not requested`);
      const endpoint = checks.get('protocol_mcp_endpoint')!;
      if (c.endpoint) {
        // The storefront probe used the endpoint the card declares, and says where it was declared.
        assert.equal(endpoint.status, 'pass', endpoint.evidence);
        assert.match(endpoint.evidence, new RegExp(`^${shop.origin}${c.endpoint} \\(declared in ${shop.origin}/`));
        // server/discover (which this 2025 server refuses), initialize, tools/list.
        assert.equal(shop.requests.filter((r) => r.method === 'POST' && r.path === c.endpoint).length, 3);
        assert.equal(parsed.data.protocols.mcp_endpoint, `${shop.origin}${c.endpoint}`);
      } else {
        assert.equal(endpoint.status, 'fail');
        assert.equal(shop.hits('/mcp'), 0);
      }
      assert.ok(signedRequests(shop).length <= 20, `${signedRequests(shop).length} requests of the scan's own`);
    });
  }
});

/** robots.txt with no AI-usage record and fewer than three AI groups, plus what the case adds. */
const plainRobots = (extra: string) => text(`User-agent: *\nDisallow: /cart\n${extra}`);

const USAGE_CASES: { name: string; change: (routes: FixtureRoutes) => void; status: 'pass' | 'fail'; evidence: RegExp; flag: boolean }[] = [
  {
    name: 'a Content-Usage robots.txt record (IETF aipref attachment example)',
    change: (r) => void (r['/robots.txt'] = text(readProtocolFixture('aipref-attach-05-content-usage.robots.txt'))),
    status: 'pass',
    evidence: /^robots\.txt declares Content-Usage: train-ai=n\.$/,
    flag: true,
  },
  {
    name: 'a Content-Signal robots.txt record (Content Signals Policy example)',
    change: (r) => void (r['/robots.txt'] = text(readProtocolFixture('content-signals-policy.robots.txt'))),
    status: 'pass',
    evidence: /^robots\.txt declares Content-Signal: search=yes, ai-train=no\.$/,
    flag: true,
  },
  {
    name: 'a Content-Usage response header on the homepage',
    change: (r) => {
      r['/robots.txt'] = plainRobots('');
      const home = r['/'] as FixtureRoute;
      r['/'] = page(String(home.body), { ...home.headers, 'content-usage': 'train-ai=n, search=y' });
    },
    status: 'pass',
    evidence: /^http:\/\/127\.0\.0\.1:\d+\/ answers with the header Content-Usage: train-ai=n, search=y\.$/,
    flag: true,
  },
  {
    name: 'neither record nor header',
    change: (r) => void (r['/robots.txt'] = plainRobots('')),
    status: 'fail',
    evidence: /robots\.txt has no Content-Signal or Content-Usage record, no AI agent groups, and no Content-Signal or Content-Usage response header/,
    flag: false,
  },
];

test('GET /api/v1/scan reads Content-Signal and Content-Usage from robots.txt and from response headers', async (t) => {
  const app = await startApp(t);
  for (const c of USAGE_CASES) {
    await t.test(c.name, async (st) => {
      const shop = await startStoreFrom((origin) => {
        const routes = completeStore(origin);
        c.change(routes);
        return routes;
      });
      st.after(() => shop.close());
      const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const body = ScanResult.parse(res.body);
      const check = body.pillars.flatMap((p) => p.checks).find((x) => x.id === 'access_ai_policy_declared') as Check;
      assert.equal(check.status, c.status, check.evidence);
      assert.match(check.evidence, c.evidence);
      assert.equal(body.protocols.content_signals, c.flag);
    });
  }
});
