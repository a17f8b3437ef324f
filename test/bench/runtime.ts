// npm run bench:runtime [-- command args...]: the service as an operator starts it (default `npm start`), measured
// from outside: time from spawn to the first /readyz 200, resident memory of the whole process tree at idle, and
// the wall time of a scan of a loopback store (the first after start, warm scans, and one after 10 s idle).
// Prints one JSON object. The store is the complete fixture store; scans are not rate limited here.
//
// Figures on the 2-core development machine (wall times; ratios are the steadier figure on a shared machine):
// | | ready | idle RSS | first scan | warm scan | after 10 s idle | SIGTERM |
// |---|---|---|---|---|---|---|
// | before: `npm start` = npm → sh → tsx → node (+ esbuild), load ~2 | 1.7 s | 396 MiB | 1503 ms (63×) | 24 ms | 944 ms (40×) | npm gone in 3 ms, server left answering |
// | after: `npm start` = npm → node dist/, load ~17 | 13.1 s | 354 MiB | 290 ms (1.5×) | 199 ms | 48 ms (0.2×) | exit 0 in 80 ms, nothing left |
// | after: `node dist/server/main.js` (the image's CMD), load ~17 | 13.3 s | 300 MiB | 337 ms (2.9×) | 116 ms | 174 ms (1.5×) | exit 0 |
// "ready" is now the first /readyz 200, which waits for the scanner's warm-up (about 2.6 s of CPU: the stock-word
// pattern compiled on the main thread and on the parser thread); the server listens before it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import { REPO_ROOT } from '../support/child-server.js';

const command = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['npm', 'start'];
const IDLE_MS = 10_000;

/** A process and all its descendants, from /proc. */
function treePids(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // the process ended while listing
    }
  }
  const all: number[] = [];
  const walk = (p: number) => {
    all.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return all;
}

/** Resident memory (KiB) of a process and all its descendants. */
function treeRssKiB(pid: number): number {
  let total = 0;
  for (const p of treePids(pid)) {
    try {
      total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

async function main() {
  const store = await startStoreFrom(completeStore);
  const dataDir = mkdtempSync(join(tmpdir(), 'srk-runtime-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SCAN_ALLOW_PRIVATE: '1',
    ANON_SCANS_PER_HOUR: '1000000',
    LOG_LEVEL: 'warn',
    MONITOR: 'off',
  };
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), { cwd: REPO_ROOT, env, stdio: 'ignore' });
  for (;;) {
    const ok = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (performance.now() - started > 120_000) throw new Error('not ready within 120 s');
    await sleep(25);
  }
  const readyMs = performance.now() - started;
  await sleep(3_000);
  const idleRssMiB = treeRssKiB(child.pid!) / 1024;

  const scan = async () => {
    const t = performance.now();
    const res = await fetch(`${base}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`scan answered ${res.status}`);
    return performance.now() - t;
  };
  const firstMs = await scan();
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) warm.push(await scan());
  warm.sort((a, b) => a - b);
  await sleep(IDLE_MS);
  const afterIdleMs = await scan();
  const afterScansRssMiB = treeRssKiB(child.pid!) / 1024;

  const tree = treePids(child.pid!);
  const stopAt = performance.now();
  child.kill('SIGTERM');
  const exit = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stopMs = performance.now() - stopAt;
  // A server left behind by a wrapper that exited on the signal still answers.
  await sleep(500);
  const orphanAnswers = await fetch(`${base}/readyz`).then(() => true, () => false);

  const round = (n: number) => Math.round(n);
  const warmMedian = warm[Math.floor(warm.length / 2)];
  process.stdout.write(
    `${JSON.stringify({
      command: command.join(' '),
      readyMs: round(readyMs),
      idleRssMiB: round(idleRssMiB),
      afterScansRssMiB: round(afterScansRssMiB),
      firstScanMs: round(firstMs),
      warmScanMedianMs: round(warmMedian),
      afterIdleScanMs: round(afterIdleMs),
      firstOverWarm: Number((firstMs / warmMedian).toFixed(1)),
      afterIdleOverWarm: Number((afterIdleMs / warmMedian).toFixed(1)),
      sigtermExit: exit,
      stopMs: round(stopMs),
      orphanAnswers,
    })}\n`,
  );
  // Whatever the wrapper left running is ours to stop.
  for (const pid of tree) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
