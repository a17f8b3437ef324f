// security.md R8, the light node:test version (the 200-socket run belongs to the bench): the server exactly as
// serve() builds it for production. 20 raw sockets send an unfinished header block and then one byte every 2 s;
// each must get Node's 408 and be closed about headersTimeout (10 s) after it opened, well before Node's default
// 30 s connection check would do it (the regression signal), while /healthz keeps answering fast.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serve } from '../../server/main.js';
import { loadConfig } from '../../server/config.js';

const SOCKETS = 20;
const BOUND_MS = 14_000; // headersTimeout 10 s + a 1 s check interval + slack for a busy CI machine

interface Outcome {
  closedAfterMs: number;
  status: string;
}

test('R8: slowloris sockets get 408 and are closed within ~12 s; /healthz stays fast meanwhile', { timeout: 30_000 }, async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'srk-slowloris-'));
  const running = await serve(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ANON_READS_PER_MINUTE: '100000' }));
  t.after(async () => {
    await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  assert.equal(running.server.headersTimeout, 10_000);
  const port = Number(new URL(running.url).port);

  const sockets: net.Socket[] = [];
  const outcomes = Promise.all(
    Array.from(
      { length: SOCKETS },
      () =>
        new Promise<Outcome>((resolve) => {
          const opened = performance.now();
          const socket = net.connect(port, '127.0.0.1');
          sockets.push(socket);
          let data = '';
          socket.setEncoding('latin1');
          socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ');
          const drip = setInterval(() => {
            if (!socket.destroyed) socket.write('a');
          }, 2000);
          // Bounded: whatever the server does, the test ends.
          const giveUp = setTimeout(() => socket.destroy(), BOUND_MS);
          socket.on('data', (chunk: string) => (data += chunk));
          socket.on('error', () => {});
          socket.on('close', () => {
            clearInterval(drip);
            clearTimeout(giveUp);
            resolve({ closedAfterMs: performance.now() - opened, status: data.split('\r\n')[0] ?? '' });
          });
        }),
    ),
  );

  // Meanwhile: /healthz, sequentially, until the sockets are gone.
  const health: number[] = [];
  let settled = false;
  void outcomes.then(() => (settled = true));
  while (!settled && health.length < 200) {
    const t0 = performance.now();
    const res = await fetch(`${running.url}/healthz`);
    await res.text();
    assert.equal(res.status, 200);
    health.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 250));
  }
  const results = await outcomes;
  for (const s of sockets) s.destroy();

  const late = results.filter((r) => r.closedAfterMs >= 13_000);
  assert.deepEqual(late.map((r) => Math.round(r.closedAfterMs)), [], 'sockets the server did not close within ~12 s');
  assert.ok(results.every((r) => r.closedAfterMs >= 9_000), `closed too early: ${results.map((r) => Math.round(r.closedAfterMs)).join(', ')}`);
  assert.deepEqual([...new Set(results.map((r) => r.status))], ['HTTP/1.1 408 Request Timeout']);

  health.sort((a, b) => a - b);
  const median = health[Math.floor(health.length / 2)];
  t.diagnostic(`/healthz during the attack: ${health.length} calls, median ${median.toFixed(1)} ms, max ${health.at(-1)!.toFixed(1)} ms`);
  assert.ok(health.length >= 10);
  assert.ok(median < 50, `median ${median.toFixed(1)} ms`);
  assert.ok(health.at(-1)! < 1000, `max ${health.at(-1)!.toFixed(1)} ms`); // a hang catcher on a shared machine
});
