// The package people run: `npm pack` in a fresh copy of the project (its `prepare` builds dist/), the tarball holds
// only what the command needs (the compiled code, its licence, README and changelog; no sources, tests or build
// leftovers), and installed from the tarball into an empty folder (its dependencies from the registry) its
// command scans a loopback store, as `npx ./store-readiness-x.y.z.tgz scan …` would.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshCopy } from '../support/fresh-copy.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import { AuditResult } from '../../schemas/scan-result.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

/** Runs a command to its end without blocking the event loop (the loopback store must keep answering). */
function run(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

test('npm pack gives a package whose command scans a store from a clean folder', { timeout: 1_200_000 }, async (t) => {
  const source = freshCopy();
  const out = mkdtempSync(join(tmpdir(), 'srk-pack-'));
  const home = mkdtempSync(join(tmpdir(), 'srk-pack-home-'));
  t.after(() => {
    for (const dir of [source, out, home]) rmSync(dir, { recursive: true, force: true });
  });

  const packed = await run('npm', ['pack', '--pack-destination', out, '--json'], { cwd: source, timeoutMs: 480_000 });
  assert.equal(packed.code, 0, `${packed.stdout.slice(-2000)}\n${packed.stderr.slice(-2000)}`);
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  assert.equal(info.filename, `${pkg.name}-${pkg.version}.tgz`);
  const files = info.files.map((f) => f.path);
  for (const needed of ['package.json', 'LICENSE', 'README.md', 'bin/store-readiness.js', 'dist/server/cli.js', 'dist/scan/parser-threads/page-worker.js', 'dist/docs/checks.md', 'dist/public/styles.css']) {
    assert.ok(files.includes(needed), `the package carries ${needed}`);
  }
  const stray = files.filter((f) => !/^(package\.json|LICENSE|README\.md|CHANGELOG\.md|bin\/store-readiness\.js|dist\/.+)$/.test(f) || /\.(map|ts)$|\.tsbuildinfo$/.test(f) && !f.endsWith('.d.ts'));
  assert.deepEqual(stray, [], 'nothing else: no sources, tests, source maps or build state');

  // An empty folder, dependencies from the registry (the local cache first), the package from the tarball. Without
  // install scripts: `scan` needs no native module, and compiling SQLite's (for `serve`) takes minutes on a busy
  // machine; the project's own `npm ci` compiles it in CI and the build test runs the server from it.
  const folder = mkdtempSync(join(out, 'app-'));
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'tries-store-readiness', private: true }));
  const tarball = join(out, info.filename);
  const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', tarball], { cwd: folder, timeoutMs: 600_000 });
  assert.equal(installed.code, 0, installed.stderr.slice(-3000));

  const shop = await startStoreFrom(completeStore);
  t.after(() => shop.close());
  const env = { PATH: process.env.PATH ?? '', HOME: home, SCAN_ALLOW_PRIVATE: '1', SCAN_TIMEOUT_MS: '60000' };
  const scanned = await run('npx', ['--no-install', 'store-readiness', 'scan', shop.url, '--json', '--min-score', '50'], { cwd: folder, env, timeoutMs: 180_000 });
  assert.equal(scanned.code, 0, scanned.stderr);
  const result = AuditResult.parse(JSON.parse(scanned.stdout.slice(scanned.stdout.indexOf('{'))));
  assert.equal(result.grade, 'A');
  assert.ok(shop.requests.length > 5, 'the installed command fetched the store');
  assert.ok(!existsSync(join(folder, 'node_modules', 'store-readiness', 'server')), 'the installed package holds no TypeScript sources');

  const help = await run('npx', ['--no-install', 'store-readiness', 'scan', '--help'], { cwd: folder, env, timeoutMs: 60_000 });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Exit codes: 0 scanned and every gate passed/);
});
