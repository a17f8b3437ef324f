// The real service in its own process, as production runs it: `node --import tsx --import
// ./test/support/loopback-guard.ts server/main.ts` with a given environment and DATA_DIR, for the tests that kill,
// stop or restart it (docs/security.md F2, F4, SIGTERM). Resolves once the "listening" log line names the URL.
// stdout and stderr are drained continuously (pino writes synchronously: a full pipe would stall the child).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildServer {
  url: string; // http://127.0.0.1:PORT
  pid: number;
  dataDir: string;
  process: ChildProcess;
  /** Resolves when the process has exited (never rejects). */
  exited: Promise<ChildExit>;
  /** The last 64 KiB of each stream, for failure messages. */
  output(): { stdout: string; stderr: string };
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit. */
  stop(graceMs?: number): Promise<ChildExit>;
}

/** How long a child may take to listen: a hang catcher (measured: over 90 s at a load of 25 on 2 cores). */
export const CHILD_START_MS = 180_000;

export interface ChildServerOptions {
  env?: Record<string, string>;
  dataDir?: string; // a fresh temp folder when omitted
  startTimeoutMs?: number; // default CHILD_START_MS (tsx compiles the service on a cold start; the machine may be busy)
  imports?: string[]; // more modules for `node --import`, loaded before the service (paths from the project root)
}

const KEEP = 64 * 1024;

export async function startChildServer(opts: ChildServerOptions = {}): Promise<ChildServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'srk-child-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    BASE_URL: 'http://localhost:3000',
    RENDER_CONCURRENCY: '0', // no browser view unless a test asks for one: Chromium is heavy on a shared machine
    ...opts.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info', // the "listening" line carries the URL; request lines are drained and dropped
  };
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './test/support/loopback-guard.ts', ...(opts.imports ?? []).flatMap((m) => ['--import', m]), 'server/main.ts'],
    { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  const keep = (buf: string, chunk: string) => (buf + chunk).slice(-KEEP);
  const exited = new Promise<ChildExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const url = await new Promise<string>((resolve, reject) => {
    let pending = '';
    let found = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child server did not listen within ${opts.startTimeoutMs ?? CHILD_START_MS} ms\n${stderr.slice(-2000)}`));
    }, opts.startTimeoutMs ?? CHILD_START_MS);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr = keep(stderr, chunk)));
    child.stdout.on('data', (chunk: string) => {
      stdout = keep(stdout, chunk);
      if (found) return;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = /"url":"(http:\/\/[^"]+)".*"msg":"store-readiness listening"/.exec(line);
        if (match) {
          found = true;
          clearTimeout(timer);
          resolve(match[1]);
          return;
        }
      }
    });
    void exited.then(({ code, signal }) => {
      if (found) return;
      clearTimeout(timer);
      reject(new Error(`child server exited before listening (code ${code}, signal ${signal})\n${stderr.slice(-2000)}`));
    });
  });

  const kill = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  return {
    url,
    pid: child.pid ?? -1,
    dataDir,
    process: child,
    exited,
    output: () => ({ stdout, stderr }),
    kill,
    async stop(graceMs = 40_000) {
      kill('SIGTERM');
      const force = setTimeout(() => kill('SIGKILL'), graceMs);
      const exit = await exited;
      clearTimeout(force);
      return exit;
    },
  };
}

/** Polls GET /readyz until it answers 200 (the scanner is warm once it does); rejects after `timeoutMs`. */
export async function waitReady(url: string, timeoutMs = 90_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while ((await fetch(`${url}/readyz`).then((r) => r.status, () => 0)) !== 200) {
    if (Date.now() > until) throw new Error(`${url}/readyz not 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
