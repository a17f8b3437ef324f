// Linear-time assertions without wall-clock limits: a run on ten times the input may take at most thirty times as
// long as a run on the input, both measured in the same test on the same machine. Quadratic work (a backtracking
// regex, a rescan per character) fails by a wide margin; a slow or busy machine slows both runs alike.
import assert from 'node:assert/strict';

const RUNS = 5; // runs per measurement, so one run of a few microseconds is not lost in timer noise
const TRIES = 3; // the best of three measurements, so one GC pause or scheduler hiccup does not decide

function measure(run: () => void): number {
  let best = Infinity;
  for (let t = 0; t < TRIES; t++) {
    const t0 = performance.now();
    for (let i = 0; i < RUNS; i++) run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** `work(input)` on `make(10 * n)` takes at most 30× its time on `make(n)`. */
export function assertLinear<T>(label: string, make: (n: number) => T, work: (input: T) => unknown, n: number): void {
  const small = make(n);
  const large = make(10 * n);
  // First runs compile the regexes (V8 interprets a new pattern before it compiles it): not what is measured.
  work(small);
  work(large);
  const a = measure(() => work(small));
  const b = measure(() => work(large));
  assert.ok(b <= 30 * a, `${label}: ${b.toFixed(2)} ms on 10× the input vs ${a.toFixed(2)} ms (more than 30×)`);
}
