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

/** The smallest time a measured batch should take, so the clock's resolution and one-off pauses do not decide. */
const MIN_BATCH_MS = 20;
/** Measurements taken before a ratio over the bound fails the test. */
const MEASUREMENTS = 3;

export interface LinearOptions {
  /** How much larger the large input is than the small one (default 10). */
  factor?: number;
  /** How much worse than linear is still accepted (default 3: 10× the input in ≤ 30× the time). */
  slack?: number;
  /** Measuring rounds; the best of each side is kept (default 3). */
  rounds?: number;
  /** CPU milliseconds a measured batch should last at least (default 20); lower for many cheap measurements. */
  minBatchMs?: number;
}

/**
 * Asserts that `run` grows linearly with its input: `run(make(n × factor))` takes at most `slack × factor` times
 * as long as `run(make(n))`. Both sides are timed on the same total amount of input (the small one `factor`
 * times per large one), interleaved and best of `rounds`, so a linear `run` has a ratio near 1 and a quadratic one
 * near `factor`, whatever the machine's speed or load. Two inputs of each size are made and used in turn, so
 * code that remembers its last input (the sitemap reader does) does real work on every call — provided `make`
 * makes them different. Returns the ratio for diagnostics.
 */
export function assertLinear<I>(label: string, n: number, make: (size: number) => I, run: (input: I) => unknown, opts: LinearOptions = {}): number {
  const { factor = 10, slack = 3, rounds = 3, minBatchMs = MIN_BATCH_MS } = opts;
  assert.ok(slack < factor, 'a slack as large as the factor could not tell linear from quadratic');
  const small = [make(n), make(n)];
  const large = [make(n * factor), make(n * factor)];
  for (const input of [...small, ...large]) run(input); // warm-up: compile both paths before anything is timed
  // Repeat both sides alike until a small-side batch is long enough to time.
  const once = cpuMs(() => {
    for (let i = 0; i < factor; i++) run(small[i % 2]);
  });
  const reps = Math.max(1, Math.ceil(minBatchMs / Math.max(once, 0.01)));
  const measure = (times: number): [number, number] => {
    let bestSmall = Infinity;
    let bestLarge = Infinity;
    for (let r = 0; r < times; r++) {
      bestSmall = Math.min(bestSmall, cpuMs(() => {
        for (let i = 0; i < reps * factor; i++) run(small[i % 2]);
      }));
      bestLarge = Math.min(bestLarge, cpuMs(() => {
        for (let i = 0; i < reps; i++) run(large[i % 2]);
      }));
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
    if (l / Math.max(s, 0.001) < ratio) [bestSmall, bestLarge, ratio] = [s, l, l / Math.max(s, 0.001)];
  }
  assert.ok(
    ratio <= slack,
    `${label}: ${factor}× the input took ${(ratio * factor).toFixed(1)}× the time (at most ${slack * factor}× for linear growth); ` +
      `${(bestSmall / reps).toFixed(1)} ms CPU for ${factor} × n = ${n}, ${(bestLarge / reps).toFixed(1)} ms for one × ${n * factor}`,
  );
  if (process.env.TIMING_LOG) process.stderr.write(`[ratio] ${label}: ${ratio.toFixed(2)} (${(bestSmall / reps).toFixed(1)} / ${(bestLarge / reps).toFixed(1)} ms, reps ${reps})\n`);
  return ratio;
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
