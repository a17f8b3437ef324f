// Index integrity through GET /api/v1/scan on loopback stores: only a scan of a store's entry point (the site
// root) moves its public entry (index row, badge, verify, history, MCP reads); a scan of any other page is stored and
// answered, says it is not the public score, and leaves all of those as they were. A scan naming another
// vertical ranks the store in that vertical's window without rewriting the store's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { call as get, startApp, type TestApp } from '../helpers/start-app.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { completeStore } from '../fixtures/stores.js';
import type { ScanResult } from '../../schemas/scan-result.js';

const scan = async (app: TestApp, url: string, vertical?: string): Promise<ScanResult> => {
  const res = await get(`${app.url}/api/v1/scan?url=${encodeURIComponent(url)}${vertical ? `&vertical=${vertical}` : ''}`);
  assert.equal(res.status, 200, res.text.slice(0, 300));
  return res.body as ScanResult;
};

/** Everything a stranger reads about the store's public entry. */
async function publicView(app: TestApp, host: string, mcp: Awaited<ReturnType<typeof connectMcp>>) {
  const badge = await get(`${app.url}/badge/${host}.svg`);
  const verify = await fetch(`${app.url}/verify/${host}`, { redirect: 'manual' });
  await verify.body?.cancel();
  const summary = await mcp.callTool({ name: 'check_merchant_readiness', arguments: { host } });
  const report = await mcp.callTool({ name: 'get_readiness_report', arguments: { host } });
  const latest = await app.db.latestByHost(host);
  const history = await get(`${app.url}/api/v1/history/${host}`);
  return {
    history: history.body,
    badge: badge.text,
    verify: verify.headers.get('location'),
    summary: summary.structuredContent,
    report: report.structuredContent,
    latest: latest && { scanId: latest.scanId, score: latest.score, vertical: latest.vertical },
    index: (await app.db.topStores({ limit: 10 })).map((r) => `${r.host}:${r.score}#${r.rank}`),
  };
}

test('a non-root scan leaves the public entry as it was; a root scan moves it; another vertical leaves the store\'s', async (t) => {
  let blockAgents = false;
  const shop = await startStoreFrom((origin) => {
    const routes = completeStore(origin);
    const robots = routes['/robots.txt'];
    return {
      ...routes,
      // The page that capped a listed store at 16 E when any scan replaced the entry.
      '/account': { status: 401, body: '<!doctype html><title>Sign in</title><h1>Sign in</h1>', headers: { 'content-type': 'text/html' } },
      '/robots.txt': (req: IncomingMessage, res: ServerResponse) => {
        if (blockAgents) {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('User-agent: *\nDisallow: /\n');
        } else if (typeof robots === 'function') robots(req, res);
        else {
          res.writeHead(200, robots.headers ?? { 'content-type': 'text/plain' });
          res.end(robots.body);
        }
      },
    };
  });
  t.after(() => shop.close());
  const app = await startApp(t);
  const mcp = await connectMcp(t, app);

  const root = await scan(app, shop.url, 'apparel');
  assert.equal(root.public_entry, true);
  assert.equal(root.public_entry_note, null);
  assert.equal(root.vertical, 'apparel');
  const host = root.host;
  const before = await publicView(app, host, mcp);
  assert.equal(before.latest?.scanId, root.scan_id);
  assert.match(before.verify ?? '', new RegExp(`/r/${root.scan_id}$`));

  // Not the entry: a login wall, a contact page, the root with a query string.
  const scores: Record<string, number> = {};
  for (const path of ['/account', '/pages/contact', '/?preview=1']) {
    const page = await scan(app, `${shop.origin}${path}`);
    scores[path] = page.score;
    assert.equal(page.public_entry, false, path);
    assert.match(page.public_entry_note ?? '', /not the store's public score/, path);
    assert.ok(page.scan_id > root.scan_id && page.report_url.endsWith(`/r/${page.scan_id}`), 'answered as usual');
    const stored = await get(`${app.url}/api/v1/scan/${page.scan_id}.json`);
    assert.deepEqual(stored.body, page, 'stored and served by id');
    const html = await get(`${app.url}/r/${page.scan_id}`, { headers: { accept: 'text/html' } });
    assert.match(html.text, /Not the store&#39;s public score|Not the store's public score/);
    const md = await get(`${app.url}/r/${page.scan_id}`, { headers: { accept: 'text/markdown' } });
    assert.match(md.text, /Not the store's public score/);
    assert.deepEqual(await publicView(app, host, mcp), before, `${path}: the public entry moved`);
  }
  assert.ok(scores['/account'] < root.score, `the login wall did score lower (${scores['/account']} < ${root.score})`);

  // Another vertical: ranked in that vertical's window, the store's vertical unchanged.
  const other = await scan(app, shop.url, 'electronics');
  assert.equal(other.public_entry, true);
  assert.equal(other.vertical, 'apparel', 'the answer names the store\'s vertical');
  assert.equal((await app.db.latestByHost(host))?.vertical, 'apparel');
  assert.equal(await app.db.countStores('electronics'), 0);
  assert.deepEqual(other.neighbors.map((n) => n.host), [host], 'ranked in the electronics window');
  const afterVertical = await publicView(app, host, mcp);
  assert.equal(afterVertical.latest?.scanId, other.scan_id, 'a root scan moves the entry');

  // A root scan moves everything: the store now blocks agents, and its public entry says so.
  blockAgents = true;
  const blocked = await scan(app, `${shop.origin}/`);
  assert.equal(blocked.public_entry, true);
  assert.ok(blocked.score < root.score, `${blocked.score} < ${root.score}`);
  const after = await publicView(app, host, mcp);
  assert.equal(after.latest?.scanId, blocked.scan_id);
  assert.equal(after.latest?.score, blocked.score);
  assert.equal(after.latest?.vertical, 'apparel');
  assert.notEqual(after.badge, before.badge);
  assert.match(after.verify ?? '', new RegExp(`/r/${blocked.scan_id}$`));
  assert.notDeepEqual(after.history, before.history, 'a root scan enters the public history');
  assert.notDeepEqual(after.summary, before.summary);
  assert.equal((after.summary as { score: number }).score, blocked.score);
});
