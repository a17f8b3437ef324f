// Load with the browser view on, bounded and on loopback only: 20 scans of 20 stores by the real service in its own
// process (RENDER_CONCURRENCY 2, every scan admitted), while /healthz and a stored report are read in a loop. Every
// scan renders; the reads' p99 stays within 10× of their idle p99 measured in the same run, or of an idle twin
// instance's p99 at the same moments when the machine itself is busy (the bound every load test holds,
// test/support/load-figures.ts); the service's and the browser's resident memory are stated. LOAD_LOG=1 prints the
// figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { startChildServer } from '../support/child-server.js';
import { startStoreFrom, type FixtureStore } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import { chromiumAvailable } from '../helpers/browser.js';
import { takeLoadTurn } from '../support/load-turn.js';
import { assertReadsHeld, browserLoad } from '../support/load-figures.js';

const SCANS = 20;
const RENDER_CONCURRENCY = 2;
/** The service's own process stays under the scan-load test's bound; Chromium's processes are stated beside it. */
const RSS_BOUND_MIB = 1024;

test('20 scans with rendering: every scan renders, reads stay fast, memory is stated', { timeout: 300_000 }, async (t) => {
  if (!chromiumAvailable(t)) return;
  if (!existsSync('/proc/self/status')) return t.skip('needs /proc to read resident memory');
  await takeLoadTurn(t); // measured alone: no other load test's scans in its idle or loaded figures
  const stores: FixtureStore[] = [];
  for (let i = 0; i < SCANS + 1; i++) stores.push(await startStoreFrom(completeStore));
  t.after(() => Promise.all(stores.map((s) => s.close())));
  const env = {
    SCAN_ALLOW_PRIVATE: '1',
    SCAN_CONCURRENCY: '4',
    SCAN_QUEUE: String(SCANS),
    RENDER_CONCURRENCY: String(RENDER_CONCURRENCY),
    ANON_SCANS_PER_HOUR: '1000',
    ANON_READS_PER_MINUTE: '1000000',
    SCAN_TIMEOUT_MS: '120000',
    RENDER_TIMEOUT_MS: '30000',
    // The browser view's load alone: the buying journey's is test/faults/journey-load.browser.test.ts.
    JOURNEY_TIMEOUT_MS: '0',
  };
  const app = await startChildServer({ env });
  t.after(() => app.stop(10_000));

  // A stored report to read; this first scan also starts the browser.
  const seeded = await fetch(`${app.url}/api/v1/scan?url=${encodeURIComponent(stores[SCANS].url)}`);
  assert.equal(seeded.status, 200, await seeded.clone().text());
  const first = (await seeded.json()) as { scan_id: number; browser_view: { status: string; duration_ms: number } };
  assert.equal(first.browser_view.status, 'rendered');
  const reads = ['/healthz', `/api/v1/scan/${first.scan_id}.json`];

  const load = await browserLoad({ ...app, env }, reads, () =>
    Promise.all(
      stores.slice(0, SCANS).map(async (s) => {
        const res = await fetch(`${app.url}/api/v1/scan?url=${encodeURIComponent(s.url)}`);
        const body = (await res.json()) as { code?: string; browser_view?: { status: string; duration_ms: number; findings: unknown[] } };
        return { status: res.status, code: body.code, view: body.browser_view };
      }),
    ),
    (fn) => t.after(fn),
  );
  const answers = load.result;

  const renderMs = answers.flatMap((a) => (a.view ? [a.view.duration_ms] : [])).sort((a, b) => a - b);
  const figures = {
    scans: answers.length,
    rendered: answers.filter((a) => a.view?.status === 'rendered').length,
    wallS: +(load.wallMs / 1000).toFixed(1),
    renderMedianMs: renderMs[Math.floor(renderMs.length / 2)],
    renderMaxMs: renderMs.at(-1),
    rssIdleMiB: Math.round(load.rssIdleMiB),
    rssPeakMiB: Math.round(load.rssPeakMiB),
    browserIdleMiB: Math.round(load.browserIdleMiB),
    browserPeakMiB: Math.round(load.browserPeakMiB),
    ...load.reads,
  };
  t.diagnostic(JSON.stringify(figures));
  if (process.env.LOAD_LOG === '1') console.log('render load:', figures);

  assert.deepEqual(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.code}`), [], 'every scan completed');
  assert.equal(figures.rendered, SCANS, 'every scan rendered');
  for (const a of answers) assert.deepEqual(a.view?.findings, [], `a complete store has no browser findings: ${JSON.stringify(a.view?.findings).slice(0, 600)}`);
  assert.ok(load.rssPeakMiB < RSS_BOUND_MIB, `service peak RSS ${load.rssPeakMiB.toFixed(0)} MiB < ${RSS_BOUND_MIB} MiB`);
  assertReadsHeld(load.reads, 'under load');
});
