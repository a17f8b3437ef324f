// docs/security.md F2 (kill -9 under write load), F4 (restart loses nothing) and a SIGTERM during a scan, against the
// real service in child processes (test/support/child-server.ts) sharing one DATA_DIR:
//   A: parallel scans of loopback fixture stores, SIGKILL at a random 0.5–3 s
//   B: restart on the same file → every acknowledged scan readable as answered, the file consistent; 20 more hosts
//      scanned, everything read, SIGTERM → exit 0
//   C: restart → every report byte-identical, the ranking and MCP answers unchanged; then SIGTERM while a scan is
//      in flight → that scan completes (200), exit 0, and it is on disk whole.
// The tests run in order and share these processes (each one needs the previous one's data).
import '../support/loopback-guard.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { CHILD_START_MS, startChildServer, type ChildServer } from '../support/child-server.js';
import { waitFor } from '../helpers/wait-for.js';
import { startStoreFrom, type FixtureStore } from '../helpers/fixture-store.js';
import { brochureStore, completeStore, jsShellStore, microdataStore } from '../fixtures/stores.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import { sequenceOf } from '../../lib/scan-ids.js';

/** A hang catcher: a test here starts the service once or twice, and a start may take CHILD_START_MS on a busy machine. */
const HANG_TWO_STARTS_MS = 2 * CHILD_START_MS + 60_000;

const ENV = {
  SCAN_ALLOW_PRIVATE: '1', // the fixtures are on loopback and a child process has no injected allowlist
  ANON_SCANS_PER_HOUR: '1000000',
  ANON_READS_PER_MINUTE: '1000000',
  SCAN_TIMEOUT_MS: '10000',
};
const BUILDERS = [completeStore, brochureStore, jsShellStore, microdataStore];

const fixtures: FixtureStore[] = [];
const children: ChildServer[] = [];
let dataDir = '';
const acknowledged = new Map<number, string>(); // scan_id → the exact response text

before(async () => {
  for (let i = 0; i < 24; i++) fixtures.push(await startStoreFrom(BUILDERS[i % BUILDERS.length]));
});
after(async () => {
  for (const c of children) c.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  await Promise.all(fixtures.map((f) => f.close()));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<ChildServer> {
  const child = await startChildServer({ env: ENV, ...(dataDir ? { dataDir } : {}) });
  dataDir = child.dataDir;
  children.push(child);
  return child;
}

async function scanText(server: ChildServer, store: FixtureStore): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
  return { status: res.status, text: await res.text() };
}

/** The file's own consistency: integrity, every listed host's latest row is its newest scan, histograms exact. */
function checkFile(label: string): { scans: number; hosts: number } {
  const db = new Database(join(dataDir, 'store.db'), { readonly: true });
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok', `${label}: integrity_check`);
    const newest = db
      .prepare(
        `SELECT s.host, MAX(s.created_at) AS newest FROM scans s WHERE s.host NOT IN (SELECT host FROM delisted) GROUP BY s.host`,
      )
      .all() as { host: string; newest: number }[];
    for (const { host, newest: at } of newest) {
      const latest = db.prepare('SELECT scan_id, updated_at FROM latest WHERE host = ?').get(host) as { scan_id: number; updated_at: number } | undefined;
      assert.ok(latest, `${label}: ${host} has scans but no latest row`);
      assert.equal(latest.updated_at, at, `${label}: ${host}'s latest row is not its newest scan`);
      // Scans that started in the same millisecond are equally new; latest must be one of them.
      const tied = (db.prepare('SELECT id FROM scans WHERE host = ? AND created_at = ?').all(host, at) as { id: number }[]).map((r) => r.id);
      assert.ok(tied.includes(latest.scan_id), `${label}: ${host} latest → ${latest.scan_id}, newest ${tied}`);
    }
    const latestCount = db.prepare('SELECT COUNT(*) AS n FROM latest').get() as { n: number };
    assert.equal(latestCount.n, newest.length, `${label}: latest rows without scans`);
    const bands = db.prepare("SELECT COALESCE(SUM(n), 0) AS n FROM score_bands WHERE scope = '*'").get() as { n: number };
    assert.equal(bands.n, latestCount.n, `${label}: the rank histogram disagrees with the index`);
    const counter = db.prepare("SELECT n FROM counters WHERE name = 'scan_id'").get() as { n: number };
    const maxId = db.prepare('SELECT COALESCE(MAX(id), 0) AS n FROM scans').get() as { n: number };
    assert.ok(counter.n >= sequenceOf(maxId.n), `${label}: the id counter (${counter.n}) is behind the ids used (${maxId.n})`);
    const scans = db.prepare('SELECT COUNT(*) AS n FROM scans').get() as { n: number };
    return { scans: scans.n, hosts: latestCount.n };
  } finally {
    db.close();
  }
}

test('F2: SIGKILL at a random 0–2.5 s after the first acknowledgement of 20 parallel scans; after a restart every acknowledged scan is there as answered', { timeout: HANG_TWO_STARTS_MS }, async (t) => {
  const a = await start();
  // Warm the child (module loading, JIT) so that acknowledgements arrive before the kill.
  assert.equal((await scanText(a, fixtures[0])).status, 200);
  // Counted from the first acknowledgement under load, not from the start: on a busy machine no scan may have been
  // answered 3 s into the load (measured: none in the first 976 ms at a load of 26 on 2 cores).
  const killAfter = Number(process.env.F2_KILL_MS) || Math.floor(Math.random() * 2500); // F2_KILL_MS replays a run
  t.diagnostic(`SIGKILL ${killAfter} ms after the first acknowledgement`);
  let killed = false;
  let attempts = 0;
  const worker = async (w: number) => {
    for (let i = 0; !killed; i++) {
      attempts++;
      try {
        const res = await scanText(a, fixtures[(w + i) % 4]);
        if (res.status === 200 && !killed) acknowledged.set((JSON.parse(res.text) as ScanResult).scan_id, res.text);
        // 503 + Retry-After is the documented answer of a full scan queue; anything else is a failure.
        else if (res.status !== 200 && res.status !== 503) assert.fail(`scan answered ${res.status}: ${res.text.slice(0, 200)}`);
      } catch (err) {
        if (!killed) throw err;
      }
    }
  };
  const load = Promise.all(Array.from({ length: 20 }, (_, w) => worker(w)));
  await waitFor(() => acknowledged.size >= 1, 'the first scan under load acknowledged');
  await new Promise((r) => setTimeout(r, killAfter));
  killed = true;
  a.kill('SIGKILL');
  const exit = await a.exited;
  await load;
  assert.equal(exit.signal, 'SIGKILL');
  t.diagnostic(`${acknowledged.size} scans acknowledged of ${attempts} started`);
  assert.ok(acknowledged.size >= 1, 'some scans were acknowledged before the kill');

  const b = await start();
  for (const [id, text] of acknowledged) {
    const res = await fetch(`${b.url}/api/v1/scan/${id}.json`);
    assert.equal(res.status, 200, `acknowledged scan ${id} lost`);
    assert.deepEqual(await res.json(), JSON.parse(text), `scan ${id} is not what was answered`);
  }
  checkFile('after the crash');
});

let snapshot: { reports: Map<number, string>; index: string; ready: string; checks: string[] } | null = null;

async function read(server: ChildServer, ids: number[]) {
  const reports = new Map<number, string>();
  for (const id of ids) {
    const res = await fetch(`${server.url}/api/v1/scan/${id}.json`);
    assert.equal(res.status, 200, `scan ${id}`);
    reports.set(id, await res.text());
  }
  const index = await (await fetch(`${server.url}/index`)).text();
  const mcp = async (name: string, args: Record<string, unknown>) => {
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });
    return JSON.stringify(((await res.json()) as { result: unknown }).result);
  };
  const ready = await mcp('list_agent_ready_stores', { limit: 100 });
  const checks = [];
  for (const f of fixtures) checks.push(await mcp('check_merchant_readiness', { host: `127.0.0.1:${f.port}` }));
  return { reports, index, ready, checks };
}

test('F4: 20 more hosts scanned; SIGTERM exits 0; after a restart every report is byte-identical and ranks are unchanged', { timeout: HANG_TWO_STARTS_MS }, async () => {
  const b = children.at(-1)!;
  assert.ok(b && b.process.exitCode === null, 'server B from the F2 test is running');
  for (let i = 4; i < 24; i += 4) {
    const batch = await Promise.all(fixtures.slice(i, i + 4).map((f) => scanText(b, f)));
    for (const res of batch) {
      assert.equal(res.status, 200, res.text.slice(0, 200));
      acknowledged.set((JSON.parse(res.text) as ScanResult).scan_id, res.text);
    }
  }
  const ids = [...acknowledged.keys()].sort((x, y) => x - y);
  snapshot = await read(b, ids);
  assert.match(snapshot.index, /#1</);
  const exit = await b.stop();
  assert.deepEqual(exit, { code: 0, signal: null }, b.output().stderr.slice(-500));
  const onDisk = checkFile('after SIGTERM');
  const hosts = new Set([...acknowledged.values()].map((text) => (JSON.parse(text) as ScanResult).host));
  assert.ok(hosts.size >= 21 && onDisk.hosts >= hosts.size, `${onDisk.hosts} hosts indexed, ${hosts.size} acknowledged`);
  assert.ok(onDisk.scans >= acknowledged.size);

  const c = await start();
  const again = await read(c, ids);
  for (const id of ids) assert.equal(again.reports.get(id), snapshot.reports.get(id), `scan ${id} changed across the restart`);
  assert.equal(again.index, snapshot.index, 'the ranking page changed across the restart');
  assert.equal(again.ready, snapshot.ready);
  assert.deepEqual(again.checks, snapshot.checks);
});

test('SIGTERM during a scan: the in-flight scan completes (200), the process exits 0, and the scan is on disk whole', { timeout: HANG_TWO_STARTS_MS }, async () => {
  const c = children.at(-1)!;
  assert.ok(c && c.process.exitCode === null, 'server C from the F4 test is running');
  const slow = await startStoreFrom((origin) => ({ ...brochureStore(origin), '/': { ...(brochureStore(origin)['/'] as object), delayMs: 1500 } }));
  fixtures.push(slow);
  const pending = scanText(c, slow);
  await waitFor(() => slow.hits('/') >= 1, 'the scan reached the store before the signal');
  const exitP = c.stop();
  const res = await pending;
  assert.equal(res.status, 200, res.text.slice(0, 300));
  const exit = await exitP;
  assert.deepEqual(exit, { code: 0, signal: null }, c.output().stderr.slice(-500));
  assert.match(c.output().stdout, /"msg":"SIGTERM received/);

  const report = JSON.parse(res.text) as ScanResult;
  checkFile('after SIGTERM during a scan');
  const db = new Database(join(dataDir, 'store.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT report FROM scans WHERE id = ?').get(report.scan_id) as { report: string } | undefined;
    assert.ok(row, 'the in-flight scan was saved');
    assert.deepEqual(JSON.parse(row.report), report);
    const latest = db.prepare('SELECT scan_id FROM latest WHERE host = ?').get(report.host) as { scan_id: number } | undefined;
    assert.equal(latest?.scan_id, report.scan_id);
  } finally {
    db.close();
  }
});
