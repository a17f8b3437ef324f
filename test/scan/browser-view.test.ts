// The browser view where there is no browser: the scan works as before and says the view was not run; an
// instance with RENDER_CONCURRENCY=0 or no Chromium at CHROMIUM_PATH gets no renderer at all.
import '../support/loopback-guard.js';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStoreFrom, type FixtureStore } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import { runScan } from '../../scan/index.js';
import { AuditResult } from '../../schemas/scan-result.js';
import { createChromiumRenderer } from '../../render/chromium.js';
import { loadConfig } from '../../lib/config.js';
import type { PageRenderer } from '../../scan/fetching/render.js';

const stores: FixtureStore[] = [];
after(() => Promise.all(stores.map((s) => s.close())));
const OPTS = { allowPrivate: true, maxRequests: 20, timeoutMs: 10_000, baseUrl: 'http://localhost:3000' };

test('without a browser the scan says the browser view was not run, and the result is valid', async () => {
  const store = await startStoreFrom(completeStore);
  stores.push(store);
  const result = await runScan(store.url, OPTS);
  assert.equal(AuditResult.safeParse(result).success, true);
  assert.equal(result.browser_view?.status, 'not_run');
  assert.match(result.browser_view?.note ?? '', /no browser/);
  assert.deepEqual(result.browser_view?.findings, []);
  assert.equal(store.requests.filter((r) => /HeadlessChrome/.test(String(r.headers['user-agent']))).length, 0);
});

test('a browser that cannot be used fails the view, never the scan', async () => {
  const store = await startStoreFrom(completeStore);
  stores.push(store);
  const broken: PageRenderer = { label: 'broken', render: () => Promise.reject(new Error('cannot start the browser')) };
  const result = await runScan(store.url, { ...OPTS, render: broken });
  assert.equal(result.browser_view?.status, 'failed');
  assert.match(result.browser_view?.note ?? '', /cannot start the browser/);
  // Every check but the one that times the store (a busy machine moves it) scores the same as without a browser.
  const outcomes = (r: typeof result) => r.pillars.flatMap((p) => p.checks.filter((c) => c.id !== 'access_response_time').map((c) => `${c.id} ${c.status} ${c.points}`));
  assert.deepEqual(outcomes(await runScan(store.url, OPTS)), outcomes(result));
});

test('too little time left in the scan: the browser is not started', async () => {
  const store = await startStoreFrom(completeStore);
  stores.push(store);
  let called = 0;
  const counting: PageRenderer = { label: 'counting', render: () => Promise.reject(new Error(`called ${++called}`)) };
  const result = await runScan(store.url, { ...OPTS, render: counting, renderTimeoutMs: 100 });
  assert.equal(result.browser_view?.status, 'not_run');
  assert.match(result.browser_view?.note ?? '', /used up its time/);
  assert.equal(called, 0);
});

test('no renderer without Chromium at CHROMIUM_PATH, or with RENDER_CONCURRENCY=0', () => {
  const config = loadConfig({ CHROMIUM_PATH: '/nonexistent/chromium', LOG_LEVEL: 'silent' });
  assert.equal(config.RENDER_CONCURRENCY, 2);
  assert.equal(createChromiumRenderer({ executablePath: config.CHROMIUM_PATH, concurrency: config.RENDER_CONCURRENCY }), null);
  assert.equal(createChromiumRenderer({ executablePath: '/usr/bin/chromium', concurrency: loadConfig({ RENDER_CONCURRENCY: '0' }).RENDER_CONCURRENCY }), null);
  assert.throws(() => loadConfig({ RENDER_CONCURRENCY: '-1' }), /RENDER_CONCURRENCY/);
});
