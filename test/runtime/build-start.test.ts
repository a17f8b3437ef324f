// The production runtime from a fresh copy of the project: `npm run build` compiles it, `npm start` runs the
// compiled server (no TypeScript loader in the process tree), and SIGTERM to `npm start` stops the server
// itself: the listener closes, the exit is clean and no process of the tree is left answering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitReady } from '../support/child-server.js';
import { freshCopy } from '../support/fresh-copy.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';

/** A process and its descendants, from /proc, with their command lines. */
function processTree(pid: number): { pid: number; cmd: string }[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      parentOf.set(Number(name), Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1]));
    } catch {
      // ended while listing
    }
  }
  const inTree = (p: number): boolean => p === pid || (parentOf.has(p) && p > 1 && inTree(parentOf.get(p)!));
  return [...parentOf.keys()].filter(inTree).map((p) => {
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      // ended
    }
    return { pid: p, cmd };
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].startsWith('Z');
  } catch {
    return false;
  }
};

test('npm start runs the compiled server from a fresh copy and SIGTERM stops it with no process left', { timeout: 300_000 }, async (t) => {
  const dir = freshCopy();
  const dataDir = mkdtempSync(join(tmpdir(), 'srk-data-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });
  assert.ok(!existsSync(join(dir, 'dist')), 'the copy starts without a build');
  const build = spawnSync('npm', ['run', 'build'], { cwd: dir, encoding: 'utf8', timeout: 240_000 });
  assert.equal(build.status, 0, `${build.stdout}\n${build.stderr}`);
  assert.ok(existsSync(join(dir, 'dist/server/main.js')) && existsSync(join(dir, 'dist/scan/parser-threads/page-worker.js')));

  const shop = await startStoreFrom(completeStore);
  t.after(() => shop.close());
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, MONITOR: 'off', LOG_LEVEL: 'info', SCAN_ALLOW_PRIVATE: '1' };
  const npm = spawn('npm', ['start'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  npm.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 90 s\n${out}\n${err}`)), 90_000);
    npm.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const match = /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"store-readiness listening"/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  await waitReady(url);
  // A scan through the compiled server: its page-parser threads run the compiled reader.
  const scan = await fetch(`${url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`);
  const report = (await scan.json()) as { score?: number; pillars?: { checks: unknown[] }[] };
  assert.equal(scan.status, 200, JSON.stringify(report).slice(0, 300));
  assert.equal(report.pillars?.flatMap((p) => p.checks).length, 38, 'every check loaded from dist/');

  const tree = processTree(npm.pid!);
  const server = tree.find((p) => p.cmd.includes('dist/server/main.js'));
  assert.ok(server, `the compiled server runs: ${JSON.stringify(tree)}`);
  assert.ok(!tree.some((p) => /tsx|esbuild/.test(p.cmd)), `no TypeScript loader at run time: ${JSON.stringify(tree)}`);

  npm.kill('SIGTERM');
  await exited;
  // The server drains and exits by itself; wait (bounded) for every process of the tree to be gone.
  for (let i = 0; i < 300 && tree.some((p) => alive(p.pid)); i++) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(tree.filter((p) => alive(p.pid)), [], 'no process of the tree is left');
  await assert.rejects(fetch(`${url}/readyz`), 'nothing answers on the port any more');
  assert.match(out, /"msg":"stopped"/, 'the server itself drained and stopped');
});
