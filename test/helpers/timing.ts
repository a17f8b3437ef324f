// Ratio helpers: the only way a test in `npm test` bounds time. A test proves a behaviour (a parse is linear, not
// quadratic; a timeout fires) by comparing two times measured in the same test, never against a fixed number of
// milliseconds, which a busy or slow machine breaks. Speed targets live in `npm run bench`. TIMING_LOG=1 prints
// every measured ratio.
import assert from 'node:assert/strict';

/** CPU milliseconds `fn` took on this process (other processes on the machine do not count). */
export function cpuMs(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

/** The smallest CPU time a measured batch takes, so the clock's resolution and one-off pauses do not decide. */
const MIN_BATCH_MS = 30;
/** Measurements taken before a ratio over the bound fails the test. */
const MEASUREMENTS = 3;

export interface LinearOptions {
  /** How much larger the large input is than the small one (default 10). */
  factor?: number;
  /** How much worse than linear is still accepted (default 3: 10× the input in ≤ 30× the time). */
  slack?: number;
  /** Measuring rounds; the best of each side is kept (default 3). */
  rounds?: number;
  /** CPU milliseconds a measured batch lasts at least (default 30). */
  minBatchMs?: number;
}

/**
 * Asserts that `run` grows linearly with its input: `run(make(n × factor))` takes at most `slack × factor` times
 * as long as `run(make(n))`. Both sides are timed on the same total amount of input (the small one `factor`
 * times per large one), interleaved and best of `rounds`, so a linear `run` has a ratio near 1 and a quadratic one
 * near `factor`, whatever the machine's speed or load. Each side cycles through inputs of the same total size
 * (2 × factor small ones, 2 large ones), so both read as much memory and meet the same caches: a small input that
 * fits in a cache the large one does not would otherwise make a linear `run` look superlinear on a busy machine.
 * The inputs differ, so code that remembers its last input (the sitemap reader does) does real work on every call
 * — provided `make` makes them different. Each batch is repeated until it lasts `minBatchMs` of CPU time, measured,
 * not estimated from one call. Returns the ratio for diagnostics.
 */
export function assertLinear<I>(label: string, n: number, make: (size: number) => I, run: (input: I) => unknown, opts: LinearOptions = {}): number {
  const { factor = 10, slack = 3, rounds = 3, minBatchMs = MIN_BATCH_MS } = opts;
  assert.ok(slack < factor, 'a slack as large as the factor could not tell linear from quadratic');
  const small = Array.from({ length: 2 * factor }, () => make(n));
  const large = [make(n * factor), make(n * factor)];
  for (const input of [...small, ...large]) run(input); // warm-up: compile both paths before anything is timed
  const smallBatch = (reps: number) => cpuMs(() => {
    for (let i = 0; i < reps * factor; i++) run(small[i % small.length]);
  });
  const largeBatch = (reps: number) => cpuMs(() => {
    for (let i = 0; i < reps; i++) run(large[i % large.length]);
  });
  const reps = repsLasting(minBatchMs, smallBatch);
  const measure = (times: number): [number, number] => {
    let bestSmall = Infinity;
    let bestLarge = Infinity;
    for (let r = 0; r < times; r++) {
      bestSmall = Math.min(bestSmall, smallBatch(reps));
      bestLarge = Math.min(bestLarge, largeBatch(reps));
    }
    return [bestSmall, bestLarge];
  };
  // The process's CPU time includes V8's compiler and collector threads, which may still be busy with the code
  // just warmed up: one round is thrown away first, and a ratio over the bound is measured again (up to
  // MEASUREMENTS times). A superlinear `run` fails every measurement; a one-off pause fails one.
  measure(1);
  let bestSmall = Infinity;
  let bestLarge = Infinity;
  let ratio = Infinity;
  for (let attempt = 0; attempt < MEASUREMENTS && ratio > slack; attempt++) {
    const [s, l] = measure(rounds);
    if (l / s < ratio) [bestSmall, bestLarge, ratio] = [s, l, l / s];
  }
  assert.ok(
    ratio <= slack,
    `${label}: ${factor}× the input took ${(ratio * factor).toFixed(1)}× the time (at most ${slack * factor}× for linear growth); ` +
      `${(bestSmall / reps).toFixed(2)} ms CPU for ${factor} × n = ${n}, ${(bestLarge / reps).toFixed(2)} ms for one × ${n * factor} (batches of ${reps}, ${bestSmall.toFixed(0)} / ${bestLarge.toFixed(0)} ms)`,
  );
  if (process.env.TIMING_LOG) process.stderr.write(`[ratio] ${label}: ${ratio.toFixed(2)} (${bestSmall.toFixed(0)} / ${bestLarge.toFixed(0)} ms CPU, reps ${reps})\n`);
  return ratio;
}

/**
 * How many repetitions make `batch(reps)` last at least `minMs` of CPU time: grown from one and measured each time,
 * the smallest of two measurements counting, so neither a pause nor a lucky quick call sets it.
 */
export function repsLasting(minMs: number, batch: (reps: number) => number): number {
  let reps = 1;
  for (let i = 0; i < 30; i++) {
    const ms = Math.min(batch(reps), batch(reps));
    if (ms >= minMs) return reps;
    reps = Math.ceil(reps * Math.min(10, Math.max(1.5, (1.2 * minMs) / Math.max(ms, 0.01))));
  }
  throw new Error(`a batch of ${reps} repetitions still took under ${minMs} ms of CPU time: is the work being done at all?`);
}

/**
 * Asserts `measuredMs` ≤ `margin` × `expectedMs` — for a bound that must exist to prove a behaviour (a timeout
 * fires rather than waiting for a store that never ends) where no second measurement can serve as the baseline.
 * The margin is at least 10, so load on the machine cannot reach it.
 */
export function assertWithin(label: string, measuredMs: number, expectedMs: number, margin = 10): void {
  assert.ok(margin >= 10, 'a margin under 10× the expected time is a speed target: it belongs in npm run bench');
  assert.ok(measuredMs <= expectedMs * margin, `${label}: ${Math.round(measuredMs)} ms, more than ${margin} × the expected ${expectedMs} ms`);
}

/** Asserts `measuredMs` ≤ `maxRatio` × `baselineMs`, both measured in the same test (best of several, interleaved). */
export function assertRatio(label: string, measuredMs: number, baselineMs: number, maxRatio: number): void {
  assert.ok(
    measuredMs <= maxRatio * baselineMs,
    `${label}: ${measuredMs.toFixed(1)} ms, more than ${maxRatio} × the ${baselineMs.toFixed(1)} ms measured alongside as the baseline`,
  );
}
