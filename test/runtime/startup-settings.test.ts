// Settings an operator gets wrong stop start-up with one JSON line naming what to change, never a stack:
// production without BASE_URL or without SMTP_URL (unless MAIL_TO_LOG=1), a TRUST_PROXY that is neither a hop
// count nor addresses, a HOST that is no address of the machine, a port in use. TRUST_PROXY=true starts with a
// warning. The real entry in its own process, as production runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from '../../lib/config.js';
import { REPO_ROOT, startChildServer } from '../support/child-server.js';

const KEY = Buffer.alloc(32, 7).toString('base64');

/** Starts the service with this environment and waits for it to exit (at most 60 s). */
function startAndExit(env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), DATA_DIR: mkdtempSync(join(tmpdir(), 'srk-settings-')), MONITOR: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, lines: out.split('\n').filter(Boolean) });
    }),
  );
}

/** Exactly one line, JSON, fatal, naming the setting; no stack anywhere. */
function assertOneLine(lines: string[], pattern: RegExp): void {
  assert.equal(lines.length, 1, lines.join('\n'));
  const line = JSON.parse(lines[0]) as { level: number; msg: string };
  assert.equal(line.level, 60);
  assert.match(line.msg, pattern);
  assert.doesNotMatch(lines[0], /\\n\s+at |node_modules/);
}

test('production without BASE_URL exits 78 with one line naming it', async () => {
  const { code, lines } = await startAndExit({ NODE_ENV: 'production', SECRETS_KEY: KEY, SMTP_URL: 'smtp://u:p@127.0.0.1:2525' });
  assert.equal(code, 78);
  assertOneLine(lines, /BASE_URL: is required in production/);
});

test('production without SMTP_URL is refused unless mail to the log is asked for', () => {
  const production = { NODE_ENV: 'production', SECRETS_KEY: KEY, BASE_URL: 'https://readiness.example' };
  assert.throws(() => loadConfig(production), (err: unknown) => err instanceof ConfigError && /SMTP_URL: is required in production/.test(err.message));
  assert.equal(loadConfig({ ...production, MAIL_TO_LOG: '1' }).MAIL_TO_LOG, true);
  assert.equal(loadConfig({ ...production, SMTP_URL: 'smtps://u:p@mail.example' }).BASE_URL, 'https://readiness.example');
  // Outside production nothing changes: npm start needs no setting.
  assert.equal(loadConfig({}).BASE_URL, 'http://localhost:3000');
});

test('TRUST_PROXY must be a hop count, addresses or ranges, true or false', async () => {
  for (const ok of ['1', '2', 'false', 'true', '10.0.0.1', '10.0.0.0/8, loopback', '::1,uniquelocal']) {
    assert.doesNotThrow(() => loadConfig({ TRUST_PROXY: ok }), ok);
  }
  for (const bad of ['yes', 'on', '10.0.0.0/99', 'proxy.example', '-1']) {
    assert.throws(() => loadConfig({ TRUST_PROXY: bad }), (err: unknown) => err instanceof ConfigError && /TRUST_PROXY: must be a hop count/.test(err.message), bad);
  }
  const { code, lines } = await startAndExit({ TRUST_PROXY: 'yes' });
  assert.equal(code, 78);
  assertOneLine(lines, /TRUST_PROXY: must be a hop count/);
});

test('a HOST that is no address of this machine, and a port in use, each end with one line', async (t) => {
  const { code, lines } = await startAndExit({ HOST: 'not-a-host', PORT: '0' });
  assert.equal(code, 78);
  assertOneLine(lines.filter((l) => JSON.parse(l).level >= 50), /^HOST: not-a-host is not an address of this machine/);
  assert.ok(lines.every((l) => JSON.parse(l)), 'every line is JSON');

  const holder = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => holder.once('listening', r));
  t.after(() => holder.close());
  const busy = await startAndExit({ HOST: '127.0.0.1', PORT: String((holder.address() as AddressInfo).port) });
  assert.equal(busy.code, 78);
  assertOneLine(busy.lines.filter((l) => JSON.parse(l).level >= 50), /^PORT: 127\.0\.0\.1:\d+ is already in use/);
  assert.ok(busy.lines.every((l) => JSON.parse(l)), 'every line is JSON');
});

test('TRUST_PROXY=true starts, with a warning that a forged X-Forwarded-For passes the per-IP limit', async (t) => {
  const server = await startChildServer({ env: { TRUST_PROXY: 'true', MONITOR: 'off' }, startTimeoutMs: 90_000 });
  t.after(() => server.stop());
  const lines = server.output().stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { level: number; msg: string });
  const warning = lines.find((l) => /TRUST_PROXY=true/.test(l.msg));
  assert.equal(warning?.level, 40);
  assert.match(warning!.msg, /forge/);
});
