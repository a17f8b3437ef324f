// The same view wherever a scan runs: a monitor's scheduled scan and a command-line scan render with the Chromium
// that is there (the command line skips it on --no-browser), and a scan that cannot render keeps the last browser
// view of the same address and says from when.
import '../support/loopback-guard.js';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { completeStore } from '../fixtures/stores.js';
import { startStoreFrom, type FixtureStore } from '../helpers/fixture-store.js';
import { getJson, startApp } from '../helpers/start-app.js';
import { chromiumAvailable } from '../helpers/browser.js';
import { createChromiumRenderer } from '../../render/chromium.js';
import { createMonitoring } from '../../server/monitoring.js';
import { runScanCommand } from '../../server/cli-scan.js';
import { secretBox } from '../../monitoring/secrets.js';
import { claimHost, verifyHost } from '../../monitoring/ownership.js';
import { addMonitor } from '../../monitoring/monitors.js';
import type { ScanResult } from '../../schemas/scan-result.js';

const stores: FixtureStore[] = [];
after(() => Promise.all(stores.map((s) => s.close())));

test('a monitor scan renders with the instance browser; a later scan that cannot render keeps that view and says from when', async (t) => {
  if (!chromiumAvailable(t)) return;
  const renderer = createChromiumRenderer({ executablePath: '/usr/bin/chromium', concurrency: 1 })!;
  t.after(() => renderer.close());
  const shop = await startStoreFrom(completeStore);
  stores.push(shop);
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '1' }, { renderer });
  const deps = { db: app.db, config: app.config };
  const claim = await claimHost(deps, 'acct_1', shop.url);
  const home = completeStore(shop.origin)['/'] as { body: string; headers: Record<string, string> };
  shop.setRoute('/', { ...home, body: home.body.replace('</head>', `<meta name="store-readiness-verification" content="${claim.token}"></head>`) });
  await verifyHost(deps, 'acct_1', claim.host);
  await addMonitor(deps, 'acct_1', { host: claim.host, cadence: 'daily', firstRunAt: new Date(Date.now() - 1000) });
  const worker = createMonitoring({ config: app.config, db: app.db, state: app.state, log: pino({ level: 'silent' }), box: secretBox(randomBytes(32)), renderer });

  await worker.tick();
  const [ran] = await app.db.monitoring.listMonitors('acct_1');
  assert.equal(ran.lastOutcome, 'scanned');
  const scheduled = (await app.db.getScan(ran.lastScanId!))!.report as ScanResult;
  assert.equal(scheduled.browser_view?.status, 'rendered', scheduled.browser_view?.note);
  assert.ok(scheduled.browser_view.pages.length >= 2);

  // The same address scanned where no browser is: the public report keeps the last view, dated.
  const plain = await startApp(t, { SCAN_ALLOW_PRIVATE: '1' }, { db: app.db });
  const res = await getJson(`${plain.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`);
  assert.equal(res.status, 200);
  const view = (res.body as ScanResult).browser_view!;
  assert.equal(view.status, 'rendered');
  assert.deepEqual(view.from_scan, { scan_id: scheduled.scan_id, scanned_at: scheduled.scanned_at });
  assert.match(view.note, /^Not run: this instance has no browser .*Shown instead: the browser view of the scan of \d{4}-\d\d-\d\d \(report \d+\), the last one rendered\.$/);
  assert.deepEqual(view.pages, scheduled.browser_view.pages);
  const page = await fetch(`${plain.url}/r/${(res.body as ScanResult).scan_id}`).then((r) => r.text());
  assert.match(page, /Shown instead: the browser view of the scan of/);
});

test('a command-line scan renders where Chromium is, and --no-browser skips it', async (t) => {
  if (!chromiumAvailable(t)) return;
  const shop = await startStoreFrom(completeStore);
  stores.push(shop);
  const env = { SCAN_ALLOW_PRIVATE: '1', SCAN_TIMEOUT_MS: '30000', BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent' };
  const run = async (argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runScanCommand(argv, env, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
    assert.equal(code, 0, stderr);
    return stdout;
  };
  const json = JSON.parse(await run(['scan', shop.url, '--json'])) as ScanResult;
  assert.equal(json.browser_view?.status, 'rendered', json.browser_view?.note);
  assert.ok(shop.requests.some((r) => /store-readiness-browser/.test(String(r.headers['user-agent']))));
  const text = await run(['scan', shop.url]);
  assert.match(text, /What browser agents see \(not scored\)\n {2}Rendered in headless Chromium/);
  const skipped = JSON.parse(await run(['scan', shop.url, '--json', '--no-browser'])) as ScanResult;
  assert.equal(skipped.browser_view?.status, 'not_run');
});
