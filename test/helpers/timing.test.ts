// The ratio helpers themselves: a linear function passes assertLinear, a quadratic one fails it, whatever the
// machine's speed; the fixed-bound helpers refuse margins too small to survive a busy machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertLinear, assertRatio, assertWithin } from './timing.js';

/** Touches every element once. */
const sum = (xs: number[]) => {
  let total = 0;
  for (const x of xs) total += x;
  return total;
};

/** Compares every pair: n² steps. */
const pairs = (xs: number[]) => {
  let equal = 0;
  for (let i = 0; i < xs.length; i++) for (let j = 0; j < xs.length; j++) if (xs[i] === xs[j]) equal++;
  return equal;
};

const numbers = (n: number) => Array.from({ length: n }, (_, i) => i % 97);

test('assertLinear passes linear work and fails quadratic work', () => {
  assertLinear('sum', 100_000, numbers, sum);
  assert.throws(() => assertLinear('pairs', 100, numbers, pairs), /pairs: 10× the input took .* the time \(at most 30× for linear growth\)/);
});

test('assertLinear refuses a slack that could not tell linear from quadratic', () => {
  assert.throws(() => assertLinear('sum', 1000, numbers, sum, { factor: 4, slack: 4 }), /could not tell linear from quadratic/);
});

test('assertWithin needs a margin of at least 10×; assertRatio compares with a baseline', () => {
  assertWithin('quick', 50, 10);
  assert.throws(() => assertWithin('slow', 101, 10), /slow: 101 ms, more than 10 × the expected 10 ms/);
  assert.throws(() => assertWithin('tight', 1, 10, 2), /belongs in npm run bench/);
  assertRatio('close', 20, 10, 3);
  assert.throws(() => assertRatio('far', 40, 10, 3), /far: 40\.0 ms, more than 3 × the 10\.0 ms/);
});
