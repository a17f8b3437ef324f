// The scanner is warm from the start and stays warm: in the real service (its own process, as production runs
// it) the first scan once /readyz says ready and a scan after 10 s without work each take a small multiple of a
// warm scan of the same loopback store. Before the parser threads were warmed with a sample page and kept, these ratios were
// about 60 and 40.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startChildServer, waitReady } from '../support/child-server.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';

/** Generous against a busy machine; a cold scanner measured 40–60 here. */
const MAX_RATIO = 10;

test('the first scan and a scan after 10 s idle are each within a small multiple of a warm scan', async (t) => {
  const store = await startStoreFrom(completeStore);
  const server = await startChildServer({ env: { SCAN_ALLOW_PRIVATE: '1', ANON_SCANS_PER_HOUR: '1000', MONITOR: 'off' }, startTimeoutMs: 90_000 });
  t.after(async () => {
    await server.stop();
    await store.close();
  });
  await waitReady(server.url); // as a load balancer would: the first scan after the instance says it is ready
  const scan = async () => {
    const started = performance.now();
    const res = await fetch(`${server.url}/api/v1/scan?url=${encodeURIComponent(store.url)}`);
    const body = (await res.json()) as { score?: number };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(typeof body.score, 'number');
    return performance.now() - started;
  };
  const first = await scan();
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) warm.push(await scan());
  const warmMedian = warm.sort((a, b) => a - b)[2];
  await sleep(10_000);
  const afterIdle = await scan();
  const figures = `first ${first.toFixed(0)} ms, after idle ${afterIdle.toFixed(0)} ms, warm median ${warmMedian.toFixed(0)} ms`;
  assert.ok(first <= MAX_RATIO * warmMedian, `first scan: ${figures}`);
  assert.ok(afterIdle <= MAX_RATIO * warmMedian, `scan after idle: ${figures}`);
});
