// One public entry per store, moved only by the store's own root (docs/decisions.md "The store's own root and owner verification"). Host
// names resolve through an injected table to loopback fixtures, so shop.test, shop.test. and www.shop.test can
// answer differently, as a parked www. or a misconfigured trailing-dot virtual host does.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { call, startApp, type TestApp } from '../helpers/start-app.js';
import { startFixtureStore, startStoreFrom, type FixtureHandler, type FixtureRoute } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import { entryVerdict } from '../../lib/public-entry.js';

type LookupCallback = (err: Error | null, address: string | { address: string; family: number }[], family?: number) => void;
const toLoopback = (_host: string, options: object, cb: LookupCallback) =>
  setImmediate(() => ((options as { all?: boolean }).all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)));

const scan = async (app: TestApp, url: string) => {
  const res = await call(`${app.url}/api/v1/scan?url=${encodeURIComponent(url)}`);
  assert.equal(res.status, 200, `${url}: ${res.text.slice(0, 300)}`);
  return res.body as ScanResult;
};

function serve(route: FixtureRoute | FixtureHandler, req: IncomingMessage, res: ServerResponse): void {
  if (typeof route === 'function') return route(req, res);
  res.writeHead(route.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...route.headers });
  res.end(route.body ?? '');
}

/**
 * The complete store at http://shop.test:PORT; every other spelling of the host gets `variant` (a parked page
 * unless the test says otherwise).
 */
async function storeWithVariants(t: { after(fn: () => unknown): void }) {
  const shop = await startFixtureStore({});
  t.after(() => shop.close());
  const own = `shop.test:${shop.port}`;
  const routes = completeStore(`http://${own}`);
  const parked: FixtureHandler = (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Parked</title><h1>This domain is parked</h1>');
  };
  const state = { variant: parked };
  const byHost = (route: FixtureRoute | FixtureHandler | undefined): FixtureHandler => (req, res) => {
    if (req.headers.host !== own) return state.variant(req, res);
    if (route) return serve(route, req, res);
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Not found</title>');
  };
  for (const [path, route] of Object.entries(routes)) shop.setRoute(path, byHost(route));
  shop.setRoute('*', byHost(undefined));
  return { shop, own, state };
}

test('trailing-dot and www. variants answering differently do not move the public entry; the real root still does', async (t) => {
  const { shop, own } = await storeWithVariants(t);
  const app = await startApp(t, {}, { scanOverrides: { lookup: toLoopback } });
  const root = await scan(app, `http://${own}/`);
  assert.equal(root.public_entry, true);
  assert.equal(root.host, own);
  const listed = await app.db.latestByHost(own);
  assert.equal(listed?.scanId, root.scan_id);

  for (const variant of [`http://shop.test.:${shop.port}/`, `http://www.shop.test:${shop.port}/`]) {
    const v = await scan(app, variant);
    assert.equal(v.host, own, 'filed under the store');
    assert.ok(v.score < root.score, `${variant} answered differently (${v.score} < ${root.score})`);
    assert.equal(v.public_entry, false, variant);
    assert.match(v.public_entry_note ?? '', /another spelling of the store's address that does not lead to its own root/);
    const after = await app.db.latestByHost(own);
    assert.deepEqual([after?.scanId, after?.score, after?.grade], [root.scan_id, root.score, root.grade], `${variant} moved the entry`);
    const badge = await call(`${app.url}/badge/${own}.svg`);
    assert.ok(badge.text.includes(String(root.score)), 'the badge still shows the root score');
  }

  const again = await scan(app, `http://${own}/`);
  assert.equal(again.public_entry, true);
  assert.equal((await app.db.latestByHost(own))?.scanId, again.scan_id, 'the real root moves it');
});

test('a variant scanned first by a stranger lists nothing; the real root lists the store, and a www. that redirects to the root counts', async (t) => {
  const { shop, own, state } = await storeWithVariants(t);
  const app = await startApp(t, {}, { scanOverrides: { lookup: toLoopback } });
  const first = await scan(app, `http://www.shop.test:${shop.port}/`);
  assert.equal(first.public_entry, false);
  assert.equal(await app.db.latestByHost(own), null);
  const root = await scan(app, `http://${own}/`);
  assert.equal(root.public_entry, true);
  assert.equal((await app.db.latestByHost(own))?.scanId, root.scan_id);

  state.variant = (req, res) => {
    res.writeHead(301, { location: `http://${own}${req.url ?? '/'}` });
    res.end();
  };
  const redirecting = await scan(app, `http://www.shop.test:${shop.port}/`);
  assert.equal(redirecting.public_entry, true, redirecting.public_entry_note ?? '');
  assert.equal((await app.db.latestByHost(own))?.scanId, redirecting.scan_id);
});

test('a root redirecting to another site: no POST is sent there, that site\'s entry is unchanged, and the scan says so', async (t) => {
  // victim.test is a listed store; shop.test's root redirects there and its server card names an endpoint on it.
  const victim = await startStoreFrom((origin) => completeStore(origin.replace('127.0.0.1', 'victim.test')));
  t.after(() => victim.close());
  const victimOrigin = `http://victim.test:${victim.port}`;
  const shop = await startStoreFrom(() => {
    const naming = completeStore(victimOrigin);
    return {
      '/': { status: 302, headers: { location: `${victimOrigin}/` } },
      '/.well-known/ucp': naming['/.well-known/ucp'],
      '/.well-known/mcp/server-card.json': {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'shop', endpoints: { streamable_http: `${victimOrigin}/admin/api/delete-account` }, url: `${victimOrigin}/admin/api/delete-account` }),
      },
    };
  });
  t.after(() => shop.close());
  const app = await startApp(t, {}, { scanOverrides: { lookup: toLoopback } });
  const listed = await scan(app, `${victimOrigin}/`);
  assert.equal(listed.public_entry, true);
  const victimHost = `victim.test:${victim.port}`;
  const postsBefore = victim.requests.filter((r) => r.method === 'POST').length;
  const victimRequestsBefore = victim.requests.length;

  const r = await scan(app, `http://shop.test:${shop.port}/`);
  assert.equal(r.host, `shop.test:${shop.port}`);
  assert.equal(r.public_entry, false);
  assert.match(r.public_entry_note ?? '', new RegExp(`redirects to another site \\(victim\\.test:${victim.port}\\)`));
  assert.equal(victim.requests.filter((q) => q.method === 'POST').length, postsBefore, 'no POST went to the other site');
  assert.deepEqual(
    victim.requests.slice(victimRequestsBefore).map((q) => q.path).sort(),
    ['/', '/'],
    'only the two homepage fetches followed the redirect; nothing else of that site was crawled',
  );
  assert.equal((await app.db.latestByHost(victimHost))?.scanId, listed.scan_id, "the other site's entry is unchanged");
  assert.equal(await app.db.latestByHost(r.host), null, 'nor is the redirecting host listed');
});

test('the scheme: an http answer that stays on http does not replace an entry taken over https; one that leads to https does', () => {
  const u = (s: string) => new URL(s);
  const base = { ownerOrigins: [] as string[] };
  const httpsEntry = u('https://shop.example/');
  assert.equal(entryVerdict({ ...base, scanned: u('http://shop.example/'), landed: u('http://shop.example/'), entryUrl: httpsEntry }).publicEntry, false);
  assert.equal(entryVerdict({ ...base, scanned: u('http://shop.example/'), landed: u('https://shop.example/'), entryUrl: httpsEntry }).publicEntry, true);
  assert.equal(entryVerdict({ ...base, scanned: u('http://shop.example/'), landed: u('http://shop.example/'), entryUrl: u('http://shop.example/') }).publicEntry, true, 'a store without https');
  assert.equal(entryVerdict({ ...base, scanned: u('https://shop.example/'), landed: u('https://www.shop.example/'), entryUrl: null }).publicEntry, true, 'the root may live at www.');
  // A verified owner's claimed origin is the store's own spelling of its root.
  const www = { scanned: u('https://www.shop.example/'), landed: u('https://www.shop.example/'), entryUrl: httpsEntry };
  assert.equal(entryVerdict({ ...www, ownerOrigins: [] }).publicEntry, false);
  assert.equal(entryVerdict({ ...www, ownerOrigins: ['https://www.shop.example'] }).publicEntry, true);
});
