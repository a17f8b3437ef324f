// What the load tests measure, one way for all of them: read latency (p99 of timed GETs) and resident memory.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

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
