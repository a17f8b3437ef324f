// The console's scans page against the number of scans behind it: the page of an account with 10,000 scans
// must answer within 2× the time of one with 10 (one indexed read whatever the count). Both accounts live in
// one SQLite file among other accounts' scans; each page is fetched over real HTTP with a real session,
// alternating, and the medians compared. Baseline: the page of the account with 10 scans.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { createApp } from '../../server/app.js';
import { testConfig } from '../../lib/config.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import { SESSION_COOKIE } from '../../lib/same-site.js';
import { startSession } from '../../accounts/sessions.js';
import type { Timing } from './timings.js';

const ROUNDS = Number(process.env.BENCH_CONSOLE_ROUNDS ?? 300);

export async function consoleTimings(): Promise<{ baseline: number; rows: Timing[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'srk-bench-console-'));
  const db = new SqliteRepo(join(dir, 'store.db'));
  await db.init();
  const server = createServer();
  try {
    const small = await db.accounts.ensureAccount('small@shop.test', new Date(), 'acct_small');
    const large = await db.accounts.ensureAccount('large@shop.test', new Date(), 'acct_large');
    const owners: [string | null, number][] = [[small.id, 10], [large.id, 10_000], [null, 10_000]];
    const t0 = Date.now() - 20 * 86_400_000;
    let n = 0;
    for (const [owner, count] of owners) {
      for (let i = 0; i < count; i++) {
        const id = await db.allocateScanId();
        const host = `shop-${n++ % 200}.test`;
        await db.saveScan({
          id, host, vertical: null, score: 40 + (id % 60), grade: 'C', capped: false, agentReady: false,
          createdAt: new Date(t0 + id * 60_000), ownerKeyId: null, ownerAccountId: owner, report: { id, host },
        });
      }
    }
    const app = createApp({ config: testConfig({ ANON_READS_PER_MINUTE: '10000000' }), db, log: pino({ level: 'silent' }) });
    server.on('request', app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const cookie = async (account: typeof small) => `${SESSION_COOKIE}=${(await startSession(db, account)).token}`;
    const cookies = { small: await cookie(small), large: await cookie(large) };
    // Time to the answer (status and headers: the server has read, rendered and sent the page in one write);
    // the client reading the longer body afterwards is not the server's time.
    const fetchPage = async (c: string) => {
      const t = performance.now();
      const res = await fetch(`${base}/console/scans`, { headers: { cookie: c } });
      const ms = performance.now() - t;
      const body = await res.text();
      if (res.status !== 200 || !body.includes('data-scan-id')) throw new Error(`scans page answered ${res.status}`);
      return ms;
    };
    for (let i = 0; i < 30; i++) await fetchPage(i % 2 ? cookies.small : cookies.large); // warm-up
    const times = { small: [] as number[], large: [] as number[] };
    for (let i = 0; i < ROUNDS; i++) {
      times.small.push(await fetchPage(cookies.small));
      times.large.push(await fetchPage(cookies.large));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const baseline = median(times.small);
    const ms = median(times.large);
    return {
      baseline,
      rows: [{ name: `GET /console/scans, account with 10,000 scans (median of ${ROUNDS})`, ms, ratio: ms / baseline, target: '≤ 2.00× the account with 10' }],
    };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
