// What the load tests measure, one way for all of them: read latency (p99 of timed GETs) and resident memory.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { processesBelow } from '../helpers/processes.js';
import { startChildServer, waitReady } from './child-server.js';
import { backupSqlite } from '../../db/sqlite/backup.js';

export function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
}

/** One GET, read to its end; it must answer 200. Returns its wall time in ms. */
export async function timedGet(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  assert.equal(res.status, 200, url);
  return performance.now() - t0;
}

/** Resident memory of one process in MiB; 0 when it ended while being read. */
export function rssMiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Resident memory of every process below `root` (a service's Chromium, its renderers and helpers), in MiB. */
export function descendantsRssMiB(root: number): number {
  let total = 0;
  for (const pid of processesBelow(root)) total += rssMiB(pid);
  return total;
}

/** The instance whose reads a load test times: its address, its data folder and the settings it was started with. */
export interface ReadTarget {
  url: string;
  dataDir: string;
  env: Record<string, string>;
}

/** Read times in ms: the working instance's reads and its twin's, taken in the same rounds. */
export interface ReadTimes {
  service: number[];
  twin: number[];
}

/**
 * Times an instance's reads at rest and while work runs, and beside them the same reads of its twin: a second
 * instance of the service with the same settings, on a copy of its store, that does no work of its own (no scans,
 * monitors, crawls or browser). The twin shows what the machine alone (its other processes, the browser's included,
 * the CPU left) does to a read of this service at the same moments. The bound every load test holds (`assertReadsHeld`):
 * the working instance's p99 within 10× of the larger of its own idle p99 and its twin's p99 under load. On a
 * machine with room to spare that is its idle p99; on one whose cores are taken it is what any instance gets there.
 * A service whose own work delays its reads fails it on any machine.
 */
export class ReadProbe {
  readonly idle: ReadTimes = { service: [], twin: [] };
  readonly loaded: ReadTimes = { service: [], twin: [] };

  private constructor(
    private readonly reads: string[],
    private readonly twinReads: string[],
  ) {}

  /** `paths` are read from the target (and its twin) in turn, every round. */
  static async start(target: ReadTarget, paths: string[], after: (fn: () => Promise<unknown>) => void): Promise<ReadProbe> {
    // A copy of the target's store as it is now (the service's own backup), not the same file: every read counts
    // against a rate limit kept in the store, and two processes writing one SQLite file wait on each other's locks.
    const dataDir = mkdtempSync(join(tmpdir(), 'srk-twin-'));
    backupSqlite(join(target.dataDir, 'store.db'), join(dataDir, 'store.db'));
    const twin = await startChildServer({
      env: { ...target.env, MONITOR: 'off', CRAWL_WORKERS: '0', SEED_CONCURRENCY: '0', RENDER_CONCURRENCY: '0' },
      dataDir,
    });
    after(() => twin.stop(10_000));
    await waitReady(twin.url);
    return new ReadProbe(
      paths.map((p) => target.url + p),
      paths.map((p) => twin.url + p),
    );
  }

  private async round(into: ReadTimes): Promise<void> {
    for (let i = 0; i < this.reads.length; i++) {
      into.service.push(await timedGet(this.reads[i]));
      into.twin.push(await timedGet(this.twinReads[i]));
    }
  }

  /** The reads with nothing else running (150 rounds). */
  async measureIdle(rounds = 150): Promise<void> {
    for (let i = 0; i < rounds; i++) await this.round(this.idle);
  }

  /** Runs `work` while rounds of reads are timed one after another: its result and how long it took. */
  async during<T>(work: () => Promise<T>): Promise<{ result: T; wallMs: number }> {
    let loading = true;
    const poller = (async () => {
      while (loading) await this.round(this.loaded);
    })();
    const started = performance.now();
    try {
      const result = await work();
      return { result, wallMs: performance.now() - started };
    } finally {
      loading = false;
      await poller;
    }
  }

  figures(): ReadFigures {
    return {
      readsIdle: this.idle.service.length,
      readsLoaded: this.loaded.service.length,
      p99IdleMs: +p99(this.idle.service).toFixed(1),
      p99LoadedMs: +p99(this.loaded.service).toFixed(1),
      twinP99IdleMs: +p99(this.idle.twin).toFixed(1),
      twinP99LoadedMs: +p99(this.loaded.twin).toFixed(1),
    };
  }
}

export interface ReadFigures {
  readsIdle: number;
  readsLoaded: number;
  p99IdleMs: number;
  p99LoadedMs: number;
  /** The idle twin's p99 at rest and while the work ran: what the machine alone did to the same reads. */
  twinP99IdleMs: number;
  twinP99LoadedMs: number;
}

/** The load tests' read bound (see ReadProbe), with at least 20 reads under load. */
export function assertReadsHeld(f: ReadFigures, during: string): void {
  assert.ok(f.readsLoaded >= 20, `${f.readsLoaded} reads ${during}`);
  const base = Math.max(f.p99IdleMs, f.twinP99LoadedMs);
  assert.ok(
    f.p99LoadedMs <= 10 * base,
    `p99 ${during} ${f.p99LoadedMs} ms ≤ 10 × ${base} ms, the larger of its idle p99 (${f.p99IdleMs} ms) and an idle twin's p99 at the same moments (${f.twinP99LoadedMs} ms)`,
  );
}

export interface BrowserLoad<T> {
  result: T;
  reads: ReadFigures;
  wallMs: number;
  rssIdleMiB: number;
  rssPeakMiB: number;
  browserIdleMiB: number;
  browserPeakMiB: number;
}

/**
 * The reads timed idle, then during `work`, with the memory of the service `pid` and of its browser (every process
 * below it) at rest and at their peak, sampled every 100 ms: what the render and journey load tests hold to the
 * same bounds.
 */
export async function browserLoad<T>(
  app: ReadTarget & { pid: number },
  paths: string[],
  work: () => Promise<T>,
  after: (fn: () => Promise<unknown>) => void,
): Promise<BrowserLoad<T>> {
  const pid = app.pid;
  const probe = await ReadProbe.start(app, paths, after);
  await probe.measureIdle();
  const rssIdle = rssMiB(pid);
  const browserIdle = descendantsRssMiB(pid);
  let peakRss = rssIdle;
  let peakBrowser = browserIdle;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMiB(pid));
    peakBrowser = Math.max(peakBrowser, descendantsRssMiB(pid));
  }, 100).unref(); // a test that times out before clearing it must not keep its process (and the whole run) alive
  try {
    const { result, wallMs } = await probe.during(work);
    return { result, reads: probe.figures(), wallMs, rssIdleMiB: rssIdle, rssPeakMiB: peakRss, browserIdleMiB: browserIdle, browserPeakMiB: peakBrowser };
  } finally {
    clearInterval(sampler);
  }
}
