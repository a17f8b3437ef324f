// npm run bench: loopback load against the service, each figure as a ratio to a bare server (node:http, or an
// express route for the stored read, the badge and MCP tools/call) answering the same bytes, measured in the same
// run (house rule 5), with the server's CPU per request where /proc tells it, and the ceilings of
// test/bench/serve-child.ts (`store-routes`) beside them. Bounded: every load runs a fixed time.
// Also: scan time of the complete fixture store, index reads on 1,000,000 stores seeded in SQLite, and the speed
// targets of the parsers, of hostile-store scans and of store-failure recovery (test/bench/timings.ts).
// Deep audits on the loopback catalog (test/bench/crawl.ts): pages per minute for one and two instances, and the
// memory an audit of 5,000 pages holds. The buying journey (test/bench/journey.ts): its median time and the browser
// memory it adds beside a render of the same pages, and reads while ten journeys run.
// `npm run bench -- parsers hostile recovery console crawl agents journey` runs only those sections (`load` names the rest; `mcp` only
// MCP tools/call on both revisions against their ceilings, the two loads of a pair measured in turns).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { runScan } from '../../scan/index.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import { createApiKey } from '../../accounts/keys.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createApp } from '../../server/app.js';
import { loadConfig } from '../../lib/config.js';
import { createRepo } from '../../db/index.js';
import { agentsMatrixTimings, formatTimings, hostileScanTimings, parserTimings, recoveryTimings } from './timings.js';
import { consoleTimings } from './console.js';
import { journeyTimings } from './journey.js';
import { crawlFigures, formatCrawl } from './crawl.js';

const MODERN_HEADERS = { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'check_merchant_readiness' };
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
// Each load is preceded by an unmeasured one of this length, so a scenario is measured on warm (JIT-compiled)
// code rather than partly on its first-run compilation, whatever ran before it.
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const SEEDED_SCANS = 10_000;
const INDEX_SIZE = Number(process.env.BENCH_INDEX_SIZE ?? 1_000_000);
const work = mkdtempSync(join(tmpdir(), 'srk-bench-'));
const children: ChildProcess[] = [];
/** Lines printed under the table: what a figure of it means. */
const notes: string[] = [];

interface Row {
  name: string;
  reqPerSec: number;
  /** Server CPU per answered request (user + system), where /proc tells: steadier than req/s on a shared machine. */
  cpuUs?: number;
  /** The baseline's CPU per request over this one's: the CPU-side view of the same ratio. */
  cpuRatio?: number;
  p50: number;
  p99: number;
  errors: number;
  ratio?: number;
  target?: string;
}

const SECTIONS = ['parsers', 'hostile', 'recovery', 'console', 'crawl', 'agents', 'journey', 'load', 'mcp'] as const;
const chosen = process.argv.slice(2);
for (const name of chosen) if (!(SECTIONS as readonly string[]).includes(name)) throw new Error(`unknown section ${name}; sections: ${SECTIONS.join(', ')}`);
const wanted = (name: (typeof SECTIONS)[number]) => chosen.length === 0 || chosen.includes(name);

async function main() {
  // Single-process timings first, before any load pins this process to one core.
  const lines: string[] = [];
  if (wanted('parsers')) lines.push(...formatTimings('Parsers on hostile input (CPU, best of 5)', 'JSON.parse of a 2 MB document', parserTimings()), '');
  if (wanted('hostile')) lines.push(...formatTimings('Scans of hostile stores (wall, median of 3)', 'a scan of a small plain store', await hostileScanTimings()), '');
  if (wanted('recovery')) lines.push(...formatTimings('The store failing under the service', 'a scan through the same app', await recoveryTimings()), '');
  if (wanted('console')) lines.push(...formatTimings('The console scans page by number of scans', 'the page of an account with 10 scans', await consoleTimings()), '');
  if (wanted('crawl')) lines.push(...formatCrawl(await crawlFigures()), '');
  if (wanted('journey')) {
    const journey = await journeyTimings();
    if (!journey) lines.push('The buying journey: skipped, no Chromium at /usr/bin/chromium', '');
    else lines.push(...formatTimings('The buying journey on the complete store (wall, median of 5, in turns)', 'a render of its 3 pages without the walk', journey.section), ...journey.lines, '');
  }
  if (wanted('agents')) lines.push(...formatTimings('The agents matrix (wall, 15 pairs in turns)', 'the same root scan without it, median', await agentsMatrixTimings(await startChild(['complete-store'], process.env))), '');
  if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
  if (!wanted('load') && !wanted('mcp')) return;

  // docs/security.md P0: the server on core 0, the load generator (this process) on core 1.
  if (spawnSync('taskset', ['-p', '-c', '1', String(process.pid)]).status !== 0) process.stderr.write('taskset unavailable: cores not pinned\n');
  const scanStats = await scanTiming();
  const template = scanStats.result;

  // The service's store: 10,000 realistic reports (copies of a real scan) and a Pro key.
  const dataDir = join(work, 'app');
  mkdirSync(dataDir);
  const repo = new SqliteRepo(join(dataDir, 'store.db'));
  await repo.init();
  const hosts: string[] = [];
  const ids: number[] = []; // scan ids are not 1, 2, 3 … (lib/scan-ids.ts)
  for (let i = 0; i < SEEDED_SCANS; i++) {
    const host = `store${i}.bench.test`;
    hosts.push(host);
    const id = await repo.allocateScanId();
    ids.push(id);
    const score = (i * 37) % 101;
    const report: ScanResult = { ...template, scan_id: id, host, score, report_url: `http://localhost:3000/r/${id}` };
    await repo.saveScan({ id, host, vertical: null, score, grade: template.grade, capped: false, agentReady: score >= 70, createdAt: new Date(), ownerKeyId: null, report });
  }
  const { key } = await createApiKey(repo, 'bench@bench.test');
  const floorBody = JSON.stringify((await repo.getScan(ids[0]))!.report);
  await repo.close();
  const floorFile = join(work, 'floor.json');
  writeFileSync(floorFile, floorBody);

  const env = {
    ...process.env,
    ANON_READS_PER_MINUTE: '10000000',
    PRO_READS_PER_MINUTE: '10000000',
    ANON_SCANS_PER_HOUR: '1000000',
    SCAN_ALLOW_PRIVATE: '1', // the scans below target a loopback fixture store
    BASE_URL: 'http://localhost:3000',
  };
  const floor = await startChild(['floor', floorFile], env);
  const app = await startChild(['app', dataDir], env);

  // Bare express routes answering the bytes the service answers: a stored report, a badge, an MCP tools/call.
  const mcpCall = (host: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'check_merchant_readiness', arguments: { host } } });
  // The same call as a 2026-07-28 client sends it: the _meta envelope, and the headers that must match the body.
  const modernCall = (host: string) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'check_merchant_readiness', arguments: { host }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
    });
  const sample = async (name: string, path: string, init?: RequestInit) => {
    const file = join(work, name);
    writeFileSync(file, Buffer.from(await (await fetch(`${app}${path}`, init)).arrayBuffer()));
    return file;
  };
  const expressRoutes = [
    { method: 'get', path: '/report', type: 'application/json; charset=utf-8', file: floorFile },
    { method: 'get', path: '/badge', type: 'image/svg+xml', file: await sample('badge.svg', `/badge/${hosts[0]}.svg`) },
    { method: 'post', path: '/mcp', type: 'application/json', file: await sample('mcp.json', '/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: mcpCall(hosts[0]) }) },
  ];
  const routesFile = join(work, 'express-routes.json');
  writeFileSync(routesFile, JSON.stringify(expressRoutes));
  const expressFloor = await startChild(['express-floor', routesFile], env);
  const storeRoutes = await startChild(['store-routes', dataDir], env);

  const rows: Row[] = [];
  // MCP tools/call on both revisions, each against its same-run ceiling: the MCP router alone answering the same
  // requests (`npm run bench -- mcp` runs only these).
  const rnd = (n: number) => 1 + Math.floor(Math.random() * n);
  const anyScanId = () => ids[rnd(SEEDED_SCANS) - 1];
  const mcpFloor = await load('floor: express POST route, MCP bytes', { url: `${expressFloor}/mcp`, method: 'POST', headers: { 'content-type': 'application/json' }, body: mcpCall(hosts[0]) });
  rows.push(mcpFloor);
  for (const revision of ['2025', '2026-07-28'] as const) {
    const modern = revision !== '2025';
    const headers = modern ? MODERN_HEADERS : { 'content-type': 'application/json' };
    const calls = [{ setupRequest: (r: autocannon.Request) => ({ ...r, body: modern ? modernCall(hosts[rnd(SEEDED_SCANS) - 1]) : mcpCall(hosts[rnd(SEEDED_SCANS) - 1]) }) }];
    const [ceiling, call] = await loadAlternating(
      { name: `ceiling: the MCP router alone (${revision})`, opts: { url: `${storeRoutes}/mcp`, method: 'POST', headers, requests: calls }, base: mcpFloor },
      { name: `MCP tools/call (${revision}) vs its ceiling`, opts: { url: `${app}/mcp`, method: 'POST', headers, requests: calls }, target: 0.9 },
    );
    rows.push(ceiling, call);
    // The ceiling runs the same MCP router, so what a call costs over it is spent in the service's layers in front.
    if (call.cpuUs !== undefined && ceiling.cpuUs !== undefined) {
      notes.push(`MCP tools/call (${revision}): ${call.cpuUs - ceiling.cpuUs} µs CPU a call over its ceiling, in the service's layers before the MCP router (request id and log line, compression, caller and read limit, routing)`);
    }
  }
  if (!wanted('load')) return report(rows, scanStats);

  const base = await load('floor: bare node:http, same bytes', { url: `${floor}/` });
  rows.push(base);
  const reportFloor = await load('floor: express route, report bytes', { url: `${expressFloor}/report` });
  rows.push(reportFloor);
  rows.push(await load('ceiling: express route + store read only', { url: storeRoutes, requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, path: `/scan/${anyScanId()}` }) }] }, reportFloor));
  rows.push(await load('stored report read', { url: app, requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, path: `/api/v1/scan/${anyScanId()}.json` }) }] }, reportFloor, 0.8));
  const badgeFloor = await load('floor: express route, badge bytes', { url: `${expressFloor}/badge` });
  rows.push(badgeFloor);
  const badgePath = () => `${Math.random() < 0.5 ? hosts[rnd(SEEDED_SCANS) - 1] : `nobody${rnd(1e6)}.test`}`;
  rows.push(await load('ceiling: express route + index lookup only', { url: storeRoutes, requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, path: `/badge/${badgePath()}` }) }] }, badgeFloor));
  rows.push(await load('badge (50% unknown hosts)', { url: app, requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, path: `/badge/${badgePath()}.svg` }) }] }, badgeFloor, 0.8));
  const bulkHosts = Array.from({ length: 100 }, (_, i) => (i % 2 ? hosts[i * 97] : `unknown${i}.test`));
  rows.push(await load('bulk read, 100 hosts (Pro)', {
    url: `${app}/api/v1/reports`,
    method: 'POST',
    connections: 10,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ hosts: bulkHosts }),
  }, base, 0.1));
  rows.push(await load('discovery GET /api/v1', { url: `${app}/api/v1` }, base));

  // P7: reads stay fast while scans run — stored reads at a fixed 500 req/s, alone and with two scans in a loop.
  const paced = { url: app, connections: 10, overallRate: 500, requests: [{ setupRequest: (r: autocannon.Request) => ({ ...r, path: `/api/v1/scan/${anyScanId()}.json` }) }] };
  rows.push(await load('stored reads at 500 req/s, no scans', paced));
  // Two stores: two loops over one store would share its running scan (single-flight) and load the app half as much.
  const shops = [await startStoreFrom(completeStore), await startStoreFrom(completeStore)];
  let scanning = true;
  let scans = 0;
  const scanLoop = async (shop: { url: string }) => {
    while (scanning) {
      await fetch(`${app}/api/v1/scan?url=${encodeURIComponent(shop.url)}`).then((r) => r.arrayBuffer());
      scans++;
    }
  };
  const loops = shops.map(scanLoop);
  rows.push(await load('stored reads at 500 req/s, 2 scans looping', paced));
  scanning = false;
  await Promise.all(loops);
  await Promise.all(shops.map((shop) => shop.close()));
  process.stderr.write(`  ${scans} scans ran during the paced reads\n`);

  const index = await indexTiming();
  const completion = await completionTiming();
  report(rows, scanStats, index, completion);
}

async function load(name: string, opts: Record<string, unknown>, base?: Row, target?: number): Promise<Row> {
  if (WARMUP > 0) await autocannon({ connections: 50, ...opts, duration: WARMUP } as autocannon.Options);
  const pid = serverPids.get(new URL(String(opts.url)).origin);
  const cpuBefore = cpuTicksOf(pid);
  const result = await autocannon({ connections: 50, duration: DURATION, ...opts } as autocannon.Options);
  const cpuAfter = cpuTicksOf(pid);
  const row: Row = {
    name,
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
  if (cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0) {
    row.cpuUs = Math.round(((cpuAfter - cpuBefore) * (1e6 / CLOCK_TICKS)) / result.requests.total);
  }
  return compared(row, base, target);
}

/** The row's ratios to its baseline, and its line on stderr. */
function compared(row: Row, base?: Row, target?: number): Row {
  if (base) row.ratio = Math.round((row.reqPerSec / base.reqPerSec) * 100) / 100;
  if (base?.cpuUs && row.cpuUs) row.cpuRatio = Math.round((base.cpuUs / row.cpuUs) * 100) / 100;
  if (target !== undefined) row.target = `≥ ${target}×`;
  process.stderr.write(`  ${row.name}: ${row.reqPerSec} req/s${row.cpuUs ? `, ${row.cpuUs} µs CPU a request` : ''}\n`);
  return row;
}

interface Load {
  name: string;
  opts: Record<string, unknown>;
  base?: Row;
  target?: number;
}

/** How many turns each of two alternating loads takes (load them in turn so both meet the same neighbours). */
const TURNS = 4;

/**
 * Two loads measured in turns, a slice of DURATION each, first, second, first, second…: on a shared machine a load
 * measured after its baseline meets other neighbours than the baseline did, and the ratio then says more about
 * the neighbours than about the code. The second load's ratio is to the first. req/s and CPU per request are over
 * all slices; p50 is the median of the slices' and p99 the highest.
 */
async function loadAlternating(first: Load, second: Load): Promise<[Row, Row]> {
  const loads = [first, second];
  if (WARMUP > 0) for (const { opts } of loads) await autocannon({ connections: 50, ...opts, duration: WARMUP } as autocannon.Options);
  const tallies = loads.map(() => ({ requests: 0, seconds: 0, ticks: 0 as number | undefined, p50s: [] as number[], p99: 0, errors: 0 }));
  for (let turn = 0; turn < TURNS; turn++) {
    for (const [i, { opts }] of loads.entries()) {
      const pid = serverPids.get(new URL(String(opts.url)).origin);
      const cpuBefore = cpuTicksOf(pid);
      const result = await autocannon({ connections: 50, ...opts, duration: DURATION / TURNS } as autocannon.Options);
      const cpuAfter = cpuTicksOf(pid);
      const tally = tallies[i];
      tally.requests += result.requests.total;
      tally.seconds += result.duration;
      tally.ticks = cpuBefore !== undefined && cpuAfter !== undefined && tally.ticks !== undefined ? tally.ticks + cpuAfter - cpuBefore : undefined;
      tally.p50s.push(result.latency.p50);
      tally.p99 = Math.max(tally.p99, result.latency.p99);
      tally.errors += result.errors + result.timeouts + result.non2xx;
    }
  }
  const rowOf = (load: Load, tally: (typeof tallies)[number]): Row => ({
    name: load.name,
    reqPerSec: Math.round(tally.requests / tally.seconds),
    p50: median(tally.p50s),
    p99: tally.p99,
    errors: tally.errors,
    ...(tally.ticks !== undefined && tally.requests > 0 ? { cpuUs: Math.round((tally.ticks * (1e6 / CLOCK_TICKS)) / tally.requests) } : {}),
  });
  const firstRow = compared(rowOf(first, tallies[0]), first.base, first.target);
  return [firstRow, compared(rowOf(second, tallies[1]), firstRow, second.target)];
}

/** Each server child's pid by its URL origin, to read its CPU time. */
const serverPids = new Map<string, number>();
const CLOCK_TICKS = 100; // USER_HZ: /proc counts CPU time in hundredths of a second on Linux

/** User + system CPU ticks a process has used, from /proc (undefined where there is none). */
function cpuTicksOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the parenthesised command name: state is the 3rd field, utime the 14th, stime the 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

async function scanTiming() {
  const shop = await startStoreFrom(completeStore);
  const opts = { allowPrivate: true, maxRequests: 20, timeoutMs: 30_000, baseUrl: 'http://localhost:3000' };
  let result = await runScan(shop.url, opts);
  for (let i = 0; i < 3; i++) await runScan(shop.url, opts); // warm-up
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    result = await runScan(shop.url, opts);
    times.push(performance.now() - t0);
  }
  await shop.close();
  times.sort((a, b) => a - b);
  const full: ScanResult = { ...result, scan_id: 1, report_url: 'http://localhost:3000/r/1', vertical: null, neighbors: [] };
  return { median: times[10], p95: times[18], score: result.score, grade: result.grade, requests: result.fetched.length, result: full };
}

const verticals = ['apparel', 'beauty', 'electronics', 'pets', null];

/** A readiness index of `size` stores, seeded straight into SQLite at `file`. */
async function seedIndex(file: string, size: number): Promise<void> {
  const repo = new SqliteRepo(file);
  await repo.init();
  await repo.close();
  const db = new Database(file);
  const insert = db.prepare('INSERT INTO latest (host, scan_id, vertical, score, grade, capped, agent_ready, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)');
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < size; i++) {
      const score = (i * 7919) % 101;
      insert.run(`h${i}.index.test`, i + 1, verticals[i % 5], score, score >= 85 ? 'A' : 'C', score >= 70 ? 1 : 0, now);
    }
    // The adapter's rank histogram, rebuilt in one pass (it keeps it exact on every save).
    db.exec(`INSERT INTO score_buckets (scope, score, band, n)
               SELECT '*', score, CAST(score / 5 AS INTEGER), COUNT(*) FROM latest GROUP BY score;
             INSERT INTO score_buckets (scope, score, band, n)
               SELECT 'v:' || vertical, score, CAST(score / 5 AS INTEGER), COUNT(*) FROM latest
               WHERE vertical IS NOT NULL GROUP BY vertical, score;
             INSERT INTO score_bands (scope, band, n) SELECT scope, band, SUM(n) FROM score_buckets GROUP BY scope, band;`);
  })();
  db.close();
}

const INDEX_DIR = join(work, 'index');

/** Rank window and bulk read on a readiness index of INDEX_SIZE stores, seeded straight into SQLite. */
async function indexTiming() {
  mkdirSync(INDEX_DIR);
  const file = join(INDEX_DIR, 'store.db');
  await seedIndex(file, INDEX_SIZE);
  const indexed = new SqliteRepo(file);
  await indexed.init();
  const sample = (n: number) => Array.from({ length: n }, () => `h${Math.floor(Math.random() * INDEX_SIZE)}.index.test`);
  const windowTimes: number[] = [];
  for (const host of sample(2000)) {
    const t0 = performance.now();
    await indexed.rankWindow(host);
    windowTimes.push(performance.now() - t0);
  }
  const countTimes: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t0 = performance.now();
    await indexed.countStores(i % 2 ? verticals[i % 4] : null);
    countTimes.push(performance.now() - t0);
  }
  const bulkTimes: number[] = [];
  for (let i = 0; i < 200; i++) {
    const batch = sample(100);
    const t0 = performance.now();
    await indexed.latestByHosts(batch);
    bulkTimes.push(performance.now() - t0);
  }
  await indexed.close();
  const stat = (xs: number[]) => {
    xs.sort((a, b) => a - b);
    return { median: xs[Math.floor(xs.length / 2)], p99: xs[Math.floor(xs.length * 0.99)] };
  };
  return { size: INDEX_SIZE, rankWindow: stat(windowTimes), count: stat(countTimes), bulk100: stat(bulkTimes) };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Host completion on INDEX_SIZE stores against 1,000: the store query alone, and MCP completion/complete requests
 * through the app (one at a time, in this process). Prefixes are what a person types: the first 1 to 6 characters
 * of a host of that index.
 */
async function completionTiming() {
  const smallDir = join(work, 'index-1k');
  mkdirSync(smallDir);
  await seedIndex(join(smallDir, 'store.db'), 1000);
  const measure = async (dir: string, size: number) => {
    const typed = () => `h${Math.floor(Math.random() * size)}.index.test`.slice(0, 1 + Math.floor(Math.random() * 6));
    const config = loadConfig({ ...process.env, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent', ANON_READS_PER_MINUTE: '10000000', BASE_URL: 'http://localhost:3000' });
    const db = await createRepo(config);
    const queryTimes: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const prefix = typed();
      const t0 = performance.now();
      await db.hostsByPrefix(prefix);
      queryTimes.push(performance.now() - t0);
    }
    const server = createApp({ config, db, log: pino({ level: 'silent' }) }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const requestTimes: number[] = [];
    for (let i = 0; i < 1500; i++) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'completion/complete', params: { ref: { type: 'ref/resource', uri: 'readiness://reports/{host}' }, argument: { name: 'host', value: typed() } } });
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.arrayBuffer();
      if (i >= 100) requestTimes.push(performance.now() - t0); // the first 100 warm up
    }
    await new Promise((resolve) => server.close(resolve));
    await db.close();
    return { query: median(queryTimes), request: median(requestTimes) };
  };
  const small = await measure(smallDir, 1000);
  const large = await measure(INDEX_DIR, INDEX_SIZE);
  return { size: INDEX_SIZE, small, large, queryRatio: large.query / small.query, requestRatio: large.request / small.request };
}

function report(
  rows: Row[],
  scan: Awaited<ReturnType<typeof scanTiming>>,
  index?: Awaited<ReturnType<typeof indexTiming>>,
  completion?: Awaited<ReturnType<typeof completionTiming>>,
) {
  const pad = (s: string | number, n: number) => String(s).padEnd(n);
  const lines = [
    `${pad('scenario', 44)}${pad('req/s', 9)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('errors', 8)}${pad('ratio', 7)}${pad('target', 8)}${pad('CPU µs', 8)}CPU ratio`,
    ...rows.map(
      (r) =>
        `${pad(r.name, 44)}${pad(r.reqPerSec, 9)}${pad(r.p50, 8)}${pad(r.p99, 8)}${pad(r.errors, 8)}` +
        `${pad(r.ratio !== undefined ? r.ratio.toFixed(2) : r === rows[0] ? '1.00' : '—', 7)}${pad(r.target ?? '', 8)}` +
        `${pad(r.cpuUs ?? '—', 8)}${r.cpuRatio !== undefined ? r.cpuRatio.toFixed(2) : ''}`,
    ),
    ...notes,
    '',
    `scan of the complete fixture store (loopback): median ${scan.median.toFixed(1)} ms, p95 ${scan.p95.toFixed(1)} ms, ${scan.requests} requests, score ${scan.score} ${scan.grade} (target < 500 ms)`,
    ...(index && completion
      ? [
          `rank window on ${index.size.toLocaleString('en')} stores: median ${index.rankWindow.median.toFixed(3)} ms, p99 ${index.rankWindow.p99.toFixed(3)} ms (target < 1 ms)`,
          `store count (whole index / one vertical) on ${index.size.toLocaleString('en')} stores: median ${index.count.median.toFixed(3)} ms, p99 ${index.count.p99.toFixed(3)} ms`,
          `bulk read of 100 hosts on ${index.size.toLocaleString('en')} stores: median ${index.bulk100.median.toFixed(3)} ms, p99 ${index.bulk100.p99.toFixed(3)} ms`,
          `MCP completion/complete of a host on ${completion.size.toLocaleString('en')} stores: median ${completion.large.request.toFixed(3)} ms, on 1,000: ${completion.small.request.toFixed(3)} ms, ratio ${completion.requestRatio.toFixed(2)} (target ≤ 3×)`,
          `  its store query (hostsByPrefix): median ${completion.large.query.toFixed(3)} ms on ${completion.size.toLocaleString('en')}, ${completion.small.query.toFixed(3)} ms on 1,000, ratio ${completion.queryRatio.toFixed(2)}`,
        ]
      : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  mkdirSync('bench', { recursive: true });
  const { result: _omit, ...scanFigures } = scan;
  writeFileSync('bench/results.json', JSON.stringify({ at: new Date().toISOString(), durationSeconds: DURATION, warmupSeconds: WARMUP, rows, notes, scan: scanFigures, index, completion }, null, 2));
}

async function startChild(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  // Pin the server to core 0 where taskset exists, so the load generator gets the other core.
  const pin = spawnSync('taskset', ['--version']).status === 0;
  const cmd = pin ? 'taskset' : process.execPath;
  const argv = [...(pin ? ['-c', '0', process.execPath] : []), '--import', 'tsx', 'test/bench/serve-child.ts', ...args];
  const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const { url } = JSON.parse(line) as { url: string };
  // taskset execs the server, so the child's pid is the server's.
  if (child.pid !== undefined) serverPids.set(new URL(url).origin, child.pid);
  return url;
}

try {
  await main();
} finally {
  for (const child of children) child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
