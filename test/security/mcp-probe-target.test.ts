// The scanner POSTs only to the store: the MCP initialize probe goes to an endpoint on the store's own site (same
// registrable domain); a server card or UCP profile naming another site is reported as such and gets no request.
// Names resolve through an injected table to the one loopback fixture, so a probe that went out would be seen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call as get, startApp } from '../helpers/start-app.js';
import { startStoreFrom, type FixtureStore } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import { onStoreSite } from '../../scan/fetching/mcp-probe.js';

type LookupCallback = (err: Error | null, address: string | { address: string; family: number }[], family?: number) => void;
const toLoopback = (_host: string, options: object, cb: LookupCallback) =>
  setImmediate(() => ((options as { all?: boolean }).all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)));

/** The complete store, its UCP profile and server card naming the MCP endpoint on `mcpHost` instead of itself. */
async function storeNaming(mcpHost: string): Promise<FixtureStore> {
  return startStoreFrom((origin) => {
    const named = completeStore(origin.replace('127.0.0.1', mcpHost));
    return {
      ...completeStore(origin),
      '/.well-known/ucp': named['/.well-known/ucp'],
      '/.well-known/mcp/server-card.json': named['/.well-known/mcp/server-card.json'],
    };
  });
}

const mcpCheck = (r: ScanResult) => r.pillars.flatMap((p) => p.checks).find((c) => c.id === 'protocol_mcp_endpoint')!;
const posts = (s: FixtureStore) => s.requests.filter((r) => r.method === 'POST');

test('a card and profile naming another site: no initialize is sent there, and the report says why', async (t) => {
  // Before: the scanner POSTed initialize and tools/list to victim.example, whoever that is.
  const shop = await storeNaming('victim.example');
  t.after(() => shop.close());
  const app = await startApp(t, {}, { scanOverrides: { lookup: toLoopback } });
  const res = await get(`${app.url}/api/v1/scan?url=${encodeURIComponent(`http://shop.test:${shop.port}/`)}`);
  assert.equal(res.status, 200, res.text.slice(0, 300));
  const r = res.body as ScanResult;
  assert.deepEqual(posts(shop), [], 'no POST left the scanner');
  assert.match(mcpCheck(r).evidence, /victim\.example.*another site than the store: not probed/);
  assert.equal(mcpCheck(r).status, 'fail');
  assert.equal(r.protocols.mcp, false);
});

test('an endpoint on the store\'s own site (another subdomain of the same registrable domain) is probed', async (t) => {
  const shop = await storeNaming('mcp.shop.test');
  t.after(() => shop.close());
  const app = await startApp(t, {}, { scanOverrides: { lookup: toLoopback } });
  const res = await get(`${app.url}/api/v1/scan?url=${encodeURIComponent(`http://www.shop.test:${shop.port}/`)}`);
  assert.equal(res.status, 200, res.text.slice(0, 300));
  const r = res.body as ScanResult;
  assert.ok(posts(shop).length >= 1 && posts(shop).every((p) => p.headers.host === `mcp.shop.test:${shop.port}`), JSON.stringify(posts(shop)));
  assert.equal(mcpCheck(r).status, 'pass', mcpCheck(r).evidence);
  assert.equal(r.protocols.mcp, true);
});

test('one site: the registrable domain by the Public Suffix List, private suffixes included', () => {
  const store = ['https://www.shop.co.uk/'];
  assert.ok(onStoreSite('https://mcp.shop.co.uk/mcp', store));
  assert.ok(onStoreSite('http://shop.co.uk:8443/api/mcp', store), 'scheme and port do not matter');
  for (const other of ['https://other.co.uk/mcp', 'https://co.uk/mcp', 'https://shop.co.uk.evil.example/mcp', 'http://127.0.0.1/mcp', 'not a url']) {
    assert.equal(onStoreSite(other, store), false, other);
  }
  assert.equal(onStoreSite('https://victim.myshopify.com/api/mcp', ['https://mine.myshopify.com/']), false, 'two shops on one platform suffix');
  assert.ok(onStoreSite('https://mine.myshopify.com/api/mcp', ['https://shop.example/', 'https://mine.myshopify.com/']), 'where the homepage landed counts');
});

/** The complete store whose MCP endpoint answers every POST with a 307 to `target` (resolved against the store). */
async function storeRedirectingMcp(target: (origin: string) => string): Promise<FixtureStore> {
  return startStoreFrom((origin) => ({
    ...completeStore(origin),
    // The profile and card name the endpoint on the store's own name, as the store is scanned.
    '/.well-known/ucp': completeStore(origin.replace('127.0.0.1', 'shop.test'))['/.well-known/ucp'],
    '/.well-known/mcp/server-card.json': completeStore(origin.replace('127.0.0.1', 'shop.test'))['/.well-known/mcp/server-card.json'],
    '/api/mcp': (req, res) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      res.writeHead(307, { location: target(origin) }).end();
    },
    '/mcp-moved': completeStore(origin)['/api/mcp'],
  }));
}

test('an MCP endpoint redirecting to another site: the POST is not followed there, and the report says why', async (t) => {
  // Before: got followed the 307 with the POST body to victim.example.
  const shop = await storeRedirectingMcp((origin) => `${origin.replace('127.0.0.1', 'victim.example')}/mcp-moved`);
  t.after(() => shop.close());
  const app = await startApp(t, {}, { scanOverrides: { lookup: toLoopback } });
  const res = await get(`${app.url}/api/v1/scan?url=${encodeURIComponent(`http://shop.test:${shop.port}/`)}`);
  assert.equal(res.status, 200, res.text.slice(0, 300));
  const r = res.body as ScanResult;
  assert.ok(posts(shop).length >= 1, 'the store\'s own endpoint was asked');
  assert.deepEqual(posts(shop).filter((p) => !String(p.headers.host).startsWith('shop.test:')), [], 'no POST left the store\'s site');
  assert.match(mcpCheck(r).evidence, /redirect to victim\.example:\d+ \(another site\): not followed/);
  assert.equal(mcpCheck(r).status, 'fail');
});

test('an MCP endpoint redirecting within the store\'s site is followed', async (t) => {
  const shop = await storeRedirectingMcp((origin) => `${origin.replace('127.0.0.1', 'mcp.shop.test')}/mcp-moved`);
  t.after(() => shop.close());
  const app = await startApp(t, {}, { scanOverrides: { lookup: toLoopback } });
  const res = await get(`${app.url}/api/v1/scan?url=${encodeURIComponent(`http://shop.test:${shop.port}/`)}`);
  const r = res.body as ScanResult;
  assert.ok(posts(shop).some((p) => p.path === '/mcp-moved' && p.headers.host === `mcp.shop.test:${shop.port}`), JSON.stringify(posts(shop)));
  assert.equal(mcpCheck(r).status, 'pass', mcpCheck(r).evidence);
});
