// `--json` prints JSON alone on standard output, run exactly as the README says: its command line for a JSON scan,
// taken from README.md, through a shell with npm, against a loopback store. npm's own banner lines ("> store-readiness
// cli …") used to come first, so the output did not parse.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import { AuditResult } from '../../schemas/scan-result.js';
import { REPO_ROOT } from '../support/child-server.js';

const run = promisify(execFile);

test("the README's JSON scan command prints only the JSON", async (t) => {
  const store = await startStoreFrom(completeStore);
  t.after(() => store.close());
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const line = readme.split('\n').find((l) => l.includes('scan https://your-store.example --json'));
  assert.ok(line, 'the README shows a JSON scan');
  const command = line.split('#')[0].trim().replace('https://your-store.example', store.url);
  const { stdout } = await run('sh', ['-c', command], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', SCAN_ALLOW_PRIVATE: '1', RENDER_CONCURRENCY: '0', LOG_LEVEL: 'silent' },
    timeout: 120_000,
  }).catch((err: { code?: number; stdout: string; stderr: string }) => {
    if (err.code === 1) return err; // below --min-score: the JSON is printed all the same
    throw new Error(`${command} failed: ${err.stderr}`);
  });
  const parsed = AuditResult.safeParse(JSON.parse(stdout));
  assert.ok(parsed.success, stdout.slice(0, 200));
  assert.equal(parsed.data.url, store.url);
});
