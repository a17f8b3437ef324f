// Starts the real app on port 0 over a real SQLite store in a temp DATA_DIR; closes both when the test ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { TestContext } from 'node:test';
import { pino } from 'pino';
import { createApp, type AppDeps } from '../../server/app.js';
import { testConfig, type Config } from '../../lib/config.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import type { Repository } from '../../db/repo.js';
import { createAppState, type AppState } from '../../tools/app-state.js';

export interface TestApp {
  url: string; // http://127.0.0.1:PORT (no trailing slash)
  config: Config;
  db: Repository;
  /** The app's state, for a monitoring worker that shares its scan bound and running scans (as main.ts does). */
  state: AppState;
  server: Server;
  dataDir: string;
  close(): Promise<void>;
}

export async function startApp(
  t: Pick<TestContext, 'after'> | null,
  env: Record<string, string> = {},
  extra: Partial<Pick<AppDeps, 'scanOverrides' | 'guards' | 'routes' | 'renderer' | 'log' | 'wakeMonitoring'>> & {
    db?: Repository;
    /** BASE_URL is the app's own loopback address (for scanning the service itself), not http://localhost:3000. */
    selfBaseUrl?: boolean;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'srk-test-'));
  // Listen first, so the port is known before the config is built; the app handles requests once it exists.
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  // Generous anonymous limits unless a test is about limits: suites make many calls from one IP.
  const config = testConfig({
    DATA_DIR: dataDir,
    BASE_URL: extra.selfBaseUrl ? url : 'http://localhost:3000',
    ANON_SCANS_PER_HOUR: '10000',
    ANON_READS_PER_MINUTE: '100000',
    ...env,
  });
  const db = extra.db ?? new SqliteRepo(join(dataDir, 'store.db'));
  const { selfBaseUrl: _self, ...deps } = extra;
  const state = createAppState(config);
  try {
    await db.init();
    server.on('request', createApp({ config, db, log: pino({ level: 'silent' }), state, ...deps }));
  } catch (err) {
    // An app that refuses to start (a test of exactly that) must not leave the listener behind.
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db.close().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  t?.after(close);
  return { url, config, db, state, server, dataDir, close };
}

/** fetch + JSON body in one step, for assertions. */
export async function getJson(url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: keep the text so the assertion shows it */
  }
  return { status: res.status, headers: res.headers, body };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any; // parsed JSON, or null for HTML, SVG and other text
  ms: number;
}

/** One request, redirects not followed, with the raw text, the parsed JSON (if any) and the time it took. */
export async function call(url: string, init?: RequestInit): Promise<Answer> {
  const t0 = performance.now();
  const res = await fetch(url, { redirect: 'manual', ...init });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, text, body, ms: performance.now() - t0 };
}
