// What the load tests measure, one way for all of them: read latency (p99 of timed GETs) and resident memory.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { processesBelow } from '../helpers/processes.js';

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

/**
 * Runs `work` while a loop times GETs of `reads` one after another: the reads' times under load, the work's result
 * and how long it took from start to end.
 */
export async function readsDuring<T>(reads: string[], work: () => Promise<T>): Promise<{ result: T; loaded: number[]; wallMs: number }> {
  let loading = true;
  const loaded: number[] = [];
  const poller = (async () => {
    while (loading) for (const url of reads) loaded.push(await timedGet(url));
  })();
  const started = performance.now();
  try {
    const result = await work();
    return { result, loaded, wallMs: performance.now() - started };
  } finally {
    loading = false;
    await poller;
  }
}

export interface BrowserLoad<T> {
  result: T;
  idle: number[];
  loaded: number[];
  wallMs: number;
  rssIdleMiB: number;
  rssPeakMiB: number;
  browserIdleMiB: number;
  browserPeakMiB: number;
}

/**
 * The reads timed idle (150 rounds), then during `work`, with the memory of the service `pid` and of its browser
 * (every process below it) at rest and at their peak, sampled every 100 ms: what the render and journey load tests
 * hold to the same bounds.
 */
export async function browserLoad<T>(pid: number, reads: string[], work: () => Promise<T>): Promise<BrowserLoad<T>> {
  const idle: number[] = [];
  for (let i = 0; i < 150; i++) for (const url of reads) idle.push(await timedGet(url));
  const rssIdle = rssMiB(pid);
  const browserIdle = descendantsRssMiB(pid);
  let peakRss = rssIdle;
  let peakBrowser = browserIdle;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMiB(pid));
    peakBrowser = Math.max(peakBrowser, descendantsRssMiB(pid));
  }, 100).unref(); // a test that times out before clearing it must not keep its process (and the whole run) alive
  try {
    const { result, loaded, wallMs } = await readsDuring(reads, work);
    return { result, idle, loaded, wallMs, rssIdleMiB: rssIdle, rssPeakMiB: peakRss, browserIdleMiB: browserIdle, browserPeakMiB: peakBrowser };
  } finally {
    clearInterval(sampler);
  }
}
