// The seeded index at scale on loopback: `cli seed` queues 1,000 stores, two real instances on one data folder drain
// them at the operator's rate. Each store is scanned once, the rate holds across both instances, the index lists
// every store, and meanwhile reads stay within the load tests' bound (10× their idle p99, or an idle twin
// instance's p99 at the same moments when the machine itself is busy) and an interactive scan gets its answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer, waitReady } from '../support/child-server.js';
import { takeLoadTurn } from '../support/load-turn.js';
import { ReadProbe, assertReadsHeld } from '../support/load-figures.js';
import { runCli } from '../../server/cli.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import { SEED_GROUP } from '../../crawl/seed.js';

const STORES = 1000;
const RATE_PER_MINUTE = 1500; // 40 ms apart: the drain takes at least 40 s

/** A small real store: a homepage with a title and a product link, and 404 for everything else. */
function store(robotsHits: Map<number, number>): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const port = (req.socket.address() as AddressInfo).port;
    if (req.url === '/robots.txt') robotsHits.set(port, (robotsHits.get(port) ?? 0) + 1);
    if (req.url !== '/') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html lang="en"><title>Shop ${port}</title><h1>Shop ${port}</h1><a href="/products/a">A</a></html>`);
  };
}

test('cli seed: 1,000 stores drained by two instances at the set rate, each scanned once, reads unharmed', { timeout: 420_000 }, async (t) => {
  await takeLoadTurn(t);
  const robotsHits = new Map<number, number>();
  const handler = store(robotsHits);
  const servers: Server[] = [];
  for (let i = 0; i < STORES + 1; i++) {
    const s = createServer(handler);
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    servers.push(s);
  }
  t.after(() => Promise.all(servers.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r))))));
  const ports = servers.map((s) => (s.address() as AddressInfo).port);

  const dataDir = mkdtempSync(join(tmpdir(), 'srk-seed-'));
  const env = { SCAN_ALLOW_PRIVATE: '1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_RATE_PER_MINUTE: String(RATE_PER_MINUTE), SEED_CONCURRENCY: '2', CRAWL_DELAY_MS: '0', CRAWL_POLL_MS: '50', MONITOR: 'off', ANON_SCANS_PER_HOUR: '1000', ANON_READS_PER_MINUTE: '1000000' };
  const file = join(dataDir, 'stores.txt');
  writeFileSync(file, ['# the seeded stores', ...ports.slice(0, STORES).map((p) => `http://127.0.0.1:${p}`), 'not a url at all', ''].join('\n'));
  const out: string[] = [];
  const io = { out: (s: string) => void out.push(s), err: (s: string) => void out.push(s) };

  const [a, b] = await Promise.all([startChildServer({ env, dataDir, startTimeoutMs: 240_000 }), startChildServer({ env, dataDir, startTimeoutMs: 240_000 })]);
  t.after(() => Promise.all([a.stop(20_000), b.stop(20_000)]));
  await Promise.all([waitReady(a.url), waitReady(b.url)]);

  // A stored report to read, and the idle figures, before anything is seeded.
  const first = await fetch(`${a.url}/api/v1/scan?url=${encodeURIComponent(`http://127.0.0.1:${ports[STORES]}/`)}`);
  assert.equal(first.status, 200);
  const reads = ['/healthz', `/api/v1/scan/${((await first.json()) as { scan_id: number }).scan_id}.json`];
  const probe = await ReadProbe.start({ url: a.url, dataDir, env }, reads, (fn) => t.after(fn));
  await probe.measureIdle();

  const db = new SqliteRepo(join(dataDir, 'store.db'));
  await db.init();
  t.after(() => db.close());
  const { result: interactive } = await probe.during(async () => {
    assert.equal(await runCli(['seed', file], { ...process.env, ...env }, io), 0);
    assert.match(out.join('\n'), /queued 1000 store roots \(0 already seeded, 1 refused\)/);
    assert.match(out.join('\n'), /line 1002 refused/);
    await new Promise((r) => setTimeout(r, 5_000));
    const scan = await fetch(`${b.url}/api/v1/scan?url=${encodeURIComponent(`http://127.0.0.1:${ports[STORES]}/`)}`);
    const until = Date.now() + 360_000;
    while ((await db.queue.counts(SEED_GROUP, new Date(0))).queued > 0) {
      assert.ok(Date.now() < until, JSON.stringify(await db.queue.counts(SEED_GROUP, new Date(0))));
      await new Promise((r) => setTimeout(r, 1000));
    }
    return scan.status;
  });
  assert.equal(interactive, 200, 'an interactive scan during the drain gets its answer');

  const counts = await db.queue.counts(SEED_GROUP, new Date(0));
  assert.deepEqual([counts.done, counts.failed], [STORES, 0]);
  for (const port of ports.slice(0, STORES)) assert.equal(robotsHits.get(port), 1, `store ${port} scanned once`);
  assert.equal(await db.countStores(), STORES + 1, 'the index lists every seeded store (and the one scanned by hand)');

  // The rate across both instances: scans started no more often than the operator allows.
  const starts = (await db.queue.results(SEED_GROUP, 0, STORES + 10)).map((r) => Date.parse((JSON.parse(r.result!) as { at: string }).at)).sort((x, y) => x - y);
  const interval = 60_000 / RATE_PER_MINUTE;
  for (let i = 20; i < starts.length; i++) {
    assert.ok(starts[i] - starts[i - 20] >= 19 * interval, `20 starts within ${starts[i] - starts[i - 20]} ms (at least ${19 * interval} ms)`);
  }

  const status: string[] = [];
  assert.equal(await runCli(['seed', 'status'], { ...process.env, ...env }, { out: (s) => void status.push(s), err: (s) => void status.push(s) }), 0);
  assert.match(status[0], /seeded stores: 0 queued, 1000 done, 0 failed/);
  const metrics = await (await fetch(`${a.url}/metrics`)).text();
  assert.match(metrics, /store_readiness_seed_stores\{state="done"\} 1000/);

  const figures = probe.figures();
  t.diagnostic(JSON.stringify(figures));
  assertReadsHeld(figures, 'during the drain');
});
