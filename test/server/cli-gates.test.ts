// `scan` as CI runs it, in-process against loopback stores: every --format from real scans, --output files, the
// baseline gate (a baseline that passed, then a store that lost its llms.txt failing and naming the check),
// --max-drop, --fail-on, and --server/--key scanning through a real instance so the scan is stored under the key.
import '../support/loopback-guard.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseJunit } from 'junit2json';
import { startStoreFrom, type FixtureStore } from '../helpers/fixture-store.js';
import { startApp, type TestApp } from '../helpers/start-app.js';
import { parseScanArgs } from '../../server/cli-scan.js';
import { scanCli } from '../helpers/cli.js';
import { AuditResult, ScanResult } from '../../schemas/scan-result.js';
import { RUBRIC } from '../../scan/checks/rubric.js';
import { createAccountKey } from '../../accounts/console-keys.js';
import { completeStore, robotsBlockedStore } from '../fixtures/stores.js';

const ENV = { SCAN_ALLOW_PRIVATE: '1', SCAN_TIMEOUT_MS: '15000', BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent' };

let complete: FixtureStore;
let blocked: FixtureStore;
let dir: string;

before(async () => {
  [complete, blocked] = await Promise.all([startStoreFrom(completeStore), startStoreFrom(robotsBlockedStore)]);
  dir = mkdtempSync(join(tmpdir(), 'srk-cli-gates-'));
});
after(async () => {
  await Promise.all([complete, blocked].map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

const cli = (argv: string[], env: Record<string, string> = ENV) => scanCli(argv, env);

interface JunitCase {
  name: string;
  classname?: string;
  failure?: { inner?: string; message?: string; type?: string }[];
  'system-out'?: string[];
}
interface JunitSuites {
  name: string;
  tests: number;
  failures: number;
  testsuite: { name: string; tests: number; failures: number; testcase: JunitCase[] }[];
}

test('one scan, four formats: text on stdout, and JSON, Markdown and JUnit written with --output', async () => {
  const files = { json: join(dir, 'r.json'), markdown: join(dir, 'r.md'), junit: join(dir, 'r.xml') };
  const run = await cli(['scan', blocked.url, ...Object.entries(files).flatMap(([f, path]) => ['--output', `${f}=${path}`])]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /Score {2}35\/100 {3}Grade E/);

  const json = AuditResult.parse(JSON.parse(readFileSync(files.json, 'utf8')));
  const checks = json.pillars.flatMap((p) => p.checks);
  assert.equal(checks.length, RUBRIC.length);

  const markdown = readFileSync(files.markdown, 'utf8');
  assert.match(markdown, new RegExp(`### 127\\.0\\.0\\.1:${blocked.port}: 35/100, grade E \\(capped`));
  assert.match(markdown, /\*\*Top fixes\*\*\n\n1\. \*\*\+\d+ pts\*\* .*\(`access_live_agents_robots`\)/);

  // The JUnit file, read by a JUnit reader: a suite per pillar, a case per check naming it, failures with the fix.
  const junit = (await parseJunit(readFileSync(files.junit, 'utf8'))) as JunitSuites;
  assert.equal(junit.tests, RUBRIC.length);
  assert.deepEqual(junit.testsuite.map((s) => s.name), json.pillars.map((p) => p.label));
  const cases = junit.testsuite.flatMap((s) => s.testcase);
  assert.deepEqual(cases.map((c) => c.name.split(':')[0]), checks.map((c) => c.id), 'every check, in report order');
  const failed = checks.filter((c) => c.status === 'fail');
  assert.equal(junit.failures, failed.length);
  assert.ok(failed.length > 0);
  const robots = cases.find((c) => c.name.startsWith('access_live_agents_robots:'))!;
  assert.equal(robots.failure?.[0].type, 'hard_block');
  assert.match(robots.failure?.[0].inner ?? '', /Seen: .*\n\nFix \(\+\d+ points\): /s);
  for (const c of cases.filter((x) => checks.find((k) => x.name.startsWith(`${k.id}:`))?.status === 'partial')) {
    assert.equal(c.failure, undefined, 'a partial check is not a failure');
    assert.match(c['system-out']?.[0] ?? '', /^Partial: \d+\/\d+ points/);
  }
});

test('--format junit and --format markdown on stdout; --json is --format json', async () => {
  const junit = await cli(['scan', complete.url, '--format', 'junit', '--min-score', '50']);
  assert.equal(junit.code, 0, junit.stderr);
  const parsed = (await parseJunit(junit.stdout)) as JunitSuites;
  assert.equal(parsed.testsuite.at(-1)?.name, 'gates');
  assert.deepEqual(parsed.testsuite.at(-1)?.testcase.map((c) => [c.name, c.failure === undefined]), [['min-score', true]]);
  const markdown = await cli(['scan', complete.url, '--format=markdown']);
  assert.equal(markdown.code, 0);
  assert.match(markdown.stdout, /^## Agent readiness\n\n### 127\.0\.0\.1:\d+: \d+\/100, grade A/);
  assert.doesNotMatch(markdown.stdout, /\[Full report\]/, 'a local scan has no report page');
  const json = await cli(['scan', complete.url, '--json']);
  assert.equal(AuditResult.parse(JSON.parse(json.stdout)).grade, 'A');
});

test('a baseline that passed, then a drop that fails the gate and names the check that broke', async (t) => {
  const baseline = join(dir, 'baseline.json');
  const first = await cli(['scan', complete.url, '--output', `json=${baseline}`, '--format', 'json']);
  assert.equal(first.code, 0, first.stderr);
  const before = AuditResult.parse(JSON.parse(first.stdout));

  const same = await cli(['scan', complete.url, '--baseline', baseline, '--max-drop', '0', '--format', 'markdown']);
  assert.equal(same.code, 0, same.stderr);
  assert.match(same.stderr, new RegExp(`Baseline: ${before.score} → ${before.score} \\(\\+0\\)`));
  assert.match(same.stdout, /No check changed since the baseline\./);

  // The store loses its llms.txt: the check that passed now fails, and the score falls.
  complete.setRoute('/llms.txt', { status: 404, body: 'gone' });
  t.after(() => complete.setRoute('/llms.txt', completeStore(complete.origin)['/llms.txt']));
  const dropped = await cli(['scan', complete.url, '--baseline', baseline, '--format', 'junit', '--output', `markdown=${join(dir, 'drop.md')}`]);
  assert.equal(dropped.code, 1, dropped.stderr);
  assert.match(dropped.stderr, /Gate regressions failed: A check that passed in the baseline now fails: discovery_llms_txt\./);
  const junit = (await parseJunit(dropped.stdout)) as JunitSuites;
  const gates = junit.testsuite.find((s) => s.name === 'gates')!;
  assert.match(gates.testcase.find((c) => c.name === 'regressions')?.failure?.[0].message ?? '', /discovery_llms_txt/);
  const markdown = readFileSync(join(dir, 'drop.md'), 'utf8');
  assert.match(markdown, /\*\*Gate failed:\*\*/);
  assert.match(markdown, /<details open><summary>\d+ checks? changed since the baseline<\/summary>/);
  assert.match(markdown, /`discovery_llms_txt` \| ✅ pass \| ❌ fail \|/);

  // The same drop within an allowance of points still fails on the check; a tight --max-drop fails on the score too.
  const after = AuditResult.parse(JSON.parse((await cli(['scan', complete.url, '--json'])).stdout));
  const drop = before.score - after.score;
  assert.ok(drop > 0, `the score fell (${before.score} → ${after.score})`);
  const tight = await cli(['scan', complete.url, '--baseline', baseline, '--max-drop', String(drop - 1)]);
  assert.equal(tight.code, 1);
  assert.match(tight.stderr, new RegExp(`Gate max-drop failed: Score fell ${drop} points, from ${before.score} to ${after.score}: more than the ${drop - 1} allowed\\.`));
});

test('--fail-on: hard-block and named checks; an unknown check id is a usage error', async () => {
  const hard = await cli(['scan', blocked.url, '--fail-on', 'hard-block']);
  assert.equal(hard.code, 1);
  assert.match(hard.stderr, /Gate fail-on failed: A check that blocks agents outright fails: access_live_agents_robots\./);
  const named = await cli(['scan', complete.url, '--fail-on', 'discovery_llms_txt,access_live_agents_robots']);
  assert.equal(named.code, 0, named.stderr);
  const unknown = await cli(['scan', complete.url, '--fail-on', 'discovery_llms_txt,no_such_check']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown: no_such_check/);
});

test('usage: exit codes in --help; --max-drop without a baseline, --key without --server, bad --output; nothing is scanned', async () => {
  const hits = complete.requests.length;
  const help = await cli(['scan', '--help']);
  assert.match(help.stdout, /Exit codes: 0 scanned and every gate passed, 1 a gate failed/);
  for (const argv of [
    ['scan', complete.url, '--max-drop', '3'],
    ['scan', complete.url, '--key', 'k'],
    ['scan', complete.url, '--output', 'pdf=x.pdf'],
    ['scan', complete.url, '--output', 'json'],
    ['scan', complete.url, '--format', 'xml'],
    ['scan', complete.url, '--json', '--format', 'text'],
    ['scan', complete.url, '--server', 'ftp://x'],
  ]) {
    const run = await cli(argv);
    assert.equal(run.code, 2, argv.join(' '));
    assert.match(run.stderr, /Usage: store-readiness scan <url>/);
  }
  const missing = await cli(['scan', complete.url, '--baseline', join(dir, 'nope.json')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /Baseline .*nope\.json cannot be read: ENOENT/);
  writeFileSync(join(dir, 'bad.json'), JSON.stringify({ score: 'high' }));
  const bad = await cli(['scan', complete.url, '--baseline', join(dir, 'bad.json')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /is not a scan report/);
  assert.equal(complete.requests.length, hits, 'a refused command or a bad baseline costs no scan');
  assert.deepEqual((parseScanArgs(['s.test', '--server', 'https://h.test', '--fail-on', 'hard-block'], { STORE_READINESS_API_KEY: 'from-env' }) as { key: string }).key, 'from-env');
});

test('--server/--key: the scan runs on the instance and is stored under the key; its report page is a baseline URL', async (t) => {
  const app: TestApp = await startApp(t, { SCAN_ALLOW_PRIVATE: '1' }, { selfBaseUrl: true });
  const account = await app.db.accounts.ensureAccount('ci@example.com', new Date(), 'acct_ci');
  const { key } = await createAccountKey(app.db, account, 'CI');

  const run = await cli(['scan', complete.url, '--server', app.url, '--format', 'json'], { ...ENV, STORE_READINESS_API_KEY: key });
  assert.equal(run.code, 0, run.stderr);
  const stored = ScanResult.parse(JSON.parse(run.stdout));
  assert.equal(stored.report_url, `${app.url}/r/${stored.scan_id}`);
  const owned = await app.db.accounts.scansOfAccount(account.id, { limit: 10 });
  assert.deepEqual(owned.map((s) => s.id), [stored.scan_id], 'the scan is in the key owner\'s console');

  const again = await cli(['scan', complete.url, '--server', app.url, '--key', key, '--baseline', stored.report_url, '--max-drop', '0', '--format', 'markdown']);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, new RegExp(`\\[Full report\\]\\(${app.url.replaceAll('.', '\\.')}/r/\\d+\\)`));
  assert.equal((await app.db.accounts.scansOfAccount(account.id, { limit: 10 })).length, 2);

  const refused = await cli(['scan', complete.url, '--server', app.url, '--key', 'sk_not_a_key']);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /The server answered 401: UNAUTHORIZED/);
  assert.doesNotMatch(refused.stderr, /sk_not_a_key/, 'the key is never echoed');
  const gone = await cli(['scan', complete.url, '--server', 'http://127.0.0.1:9']);
  assert.equal(gone.code, 2);
  assert.match(gone.stderr, /could not be reached/);
});
