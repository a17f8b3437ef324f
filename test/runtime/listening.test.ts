// "listening" is logged when the service answers: the first request sent on that line is answered at once, not
// after the scanner's warm-up has held the event loop for seconds. Bounded with a wide margin (a request to
// /healthz takes milliseconds; the warm-up held it for seconds on a busy machine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { startChildServer } from '../support/child-server.js';

const MARGIN_MS = 1000; // at least 10× what /healthz takes even on a loaded machine

test('the first request after the "listening" line is answered at once', async (t) => {
  const server = await startChildServer();
  t.after(() => server.stop());
  const started = performance.now();
  const res = await fetch(`${server.url}/healthz`);
  const ms = performance.now() - started;
  assert.equal(res.status, 200);
  assert.ok(ms < MARGIN_MS, `/healthz took ${Math.round(ms)} ms after "listening"`);
  // Once warm, the scanner says so; readiness follows it.
  for (let i = 0; i < 600 && !server.output().stdout.includes('"scanner warm"'); i++) await new Promise((r) => setTimeout(r, 100));
  assert.match(server.output().stdout, /"msg":"scanner warm"/);
});
