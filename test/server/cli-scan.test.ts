// server/cli-scan.ts in-process: `scan <url> [--json] [--min-score N]` (the other formats and gates: cli-gates.test.ts) against loopback fixture stores, with the
// output captured through injected writers; exit codes 0 / 1 / 2.
import '../support/loopback-guard.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureStore, type FixtureStore } from '../helpers/fixture-store.js';
import { parseScanArgs } from '../../server/cli-scan.js';
import { scanCli } from '../helpers/cli.js';
import { AuditResult } from '../../schemas/scan-result.js';
import { bar, renderReport } from '../../server/report-text.js';
import { brochureStore, completeStore, robotsBlockedStore } from '../fixtures/stores.js';

// No browser view here (RENDER_CONCURRENCY=0): test/render/same-view.browser.test.ts scans with one.
const ENV = { SCAN_ALLOW_PRIVATE: '1', SCAN_TIMEOUT_MS: '10000', BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent', RENDER_CONCURRENCY: '0' };

let complete: FixtureStore;
let blocked: FixtureStore;
let brochure: FixtureStore;

async function serve(build: (origin: string) => Parameters<typeof startFixtureStore>[0]): Promise<FixtureStore> {
  const store = await startFixtureStore({});
  for (const [path, route] of Object.entries(build(store.origin))) store.setRoute(path, route);
  return store;
}

before(async () => {
  [complete, blocked, brochure] = await Promise.all([serve(completeStore), serve(robotsBlockedStore), serve(brochureStore)]);
});
after(async () => {
  await Promise.all([complete, blocked, brochure].map((s) => s.close()));
});

const cli = (argv: string[], env: Record<string, string> = ENV) => scanCli(argv, env);

test('the readable report: host, score, grade, pillar bars, findings and fixes', async () => {
  const { code, stdout, stderr } = await cli(['scan', complete.url]);
  assert.equal(code, 0, stderr);
  assert.match(stdout, new RegExp(`Agent readiness of 127\\.0\\.0\\.1:${complete.port}`));
  assert.match(stdout, /Score {2}\d+\/100 {3}Grade A/);
  assert.match(stdout, /Agent access +[█░]{10} \d+\/20/);
  assert.match(stdout, /Checkout +[█░]{10} \d+\/8/);
  assert.match(stdout, /Findings\n {2}FAIL {4}.*HTTPS/);
  assert.match(stdout, /Top fixes\n {3}1\. \+\d+ pts {2}/);
  assert.doesNotMatch(stdout, /CAPPED/);
});

test('a capped store shows the cap banner and the unblock fix first', async () => {
  const { code, stdout } = await cli([blocked.url]); // the leading "scan" is optional
  assert.equal(code, 0);
  assert.match(stdout, /Score {2}35\/100 {3}Grade E/);
  assert.match(stdout, /CAPPED at 35: robots\.txt blocks the live AI shopping agents \(H1\)/);
  assert.match(stdout, /Top fixes\n {3}1\. \+\d+ pts {2}Allow AI shopping agents/i);
});

test('--json prints an AuditResult', async () => {
  const { code, stdout } = await cli(['scan', complete.url, '--json']);
  assert.equal(code, 0);
  const result = AuditResult.parse(JSON.parse(stdout));
  assert.equal(result.grade, 'A');
});

test('store-controlled text cannot drive the terminal', async () => {
  const { stdout } = await cli(['scan', brochure.url, '--json']);
  const result = AuditResult.parse(JSON.parse(stdout));
  const failing = result.pillars.flatMap((p) => p.checks).find((c) => c.status === 'fail');
  assert.ok(failing);
  failing.evidence = 'title "\u001b[2J\u001b[31mPWNED\u0007" seen';
  const text = renderReport(result);
  assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f]/);
  assert.match(text, /\[2J \[31mPWNED/);
});

test('--min-score: exit 1 below the bar, 0 at or above it', async () => {
  const below = await cli(['scan', brochure.url, '--min-score', '70']);
  assert.equal(below.code, 1);
  assert.match(below.stderr, /below the minimum of 70/);
  const above = await cli(['scan', brochure.url, '--min-score=0', '--json']);
  assert.equal(above.code, 0);
  assert.ok(AuditResult.parse(JSON.parse(above.stdout)));
});

test('usage errors exit 2 with the usage on stderr', async () => {
  for (const argv of [['scan'], ['scan', 'a.test', 'b.test'], ['scan', 'a.test', '--min-score', '101'], ['scan', 'a.test', '--min-score'], ['scan', 'a.test', '--fast']]) {
    const { code, stdout, stderr } = await cli(argv);
    assert.equal(code, 2, argv.join(' '));
    assert.equal(stdout, '');
    assert.match(stderr, /Usage: store-readiness scan <url>/);
  }
  const help = await cli(['scan', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--min-score N/);
});

test('a failed scan exits 2 with the error on stderr', async () => {
  const refused = await cli(['scan', 'http://127.0.0.1:9/'], { ...ENV, SCAN_ALLOW_PRIVATE: '' });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /INVALID_URL/);
  const badConfig = await cli(['scan', complete.url], { ...ENV, SCAN_MAX_REQUESTS: 'lots' });
  assert.equal(badConfig.code, 2);
  assert.match(badConfig.stderr, /SCAN_MAX_REQUESTS/);
});

test('argument parsing and the text bar', () => {
  assert.deepEqual(parseScanArgs(['scan', 'shop.test', '--json', '--min-score', '80']), {
    url: 'shop.test',
    format: 'json',
    outputs: [],
    gates: { minScore: 80 },
    baseline: null,
    server: null,
    key: null,
    browser: true,
  });
  assert.equal((parseScanArgs(['shop.test', '--no-browser']) as { browser: boolean }).browser, false);
  assert.equal(parseScanArgs(['-h']), 'help');
  assert.equal(bar(16, 20), '████████░░');
  assert.equal(bar(0, 8), '░░░░░░░░░░');
  assert.equal(bar(30, 30), '██████████');
});
