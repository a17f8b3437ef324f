// The only entry that reads the environment, opens the store, listens and shuts down: SIGTERM/SIGINT make
// /readyz 503 for SHUTDOWN_DRAIN_MS, then stop accepting, let in-flight requests (scans included) and claimed
// monitoring work finish, then close the store. Every line it writes is JSON, start-up failures included.
import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { ConfigError, loadConfig, type Config } from '../lib/config.js';
import { createLogger } from '../lib/log.js';
import { createMetrics } from '../lib/metrics.js';
import { createApp } from './app.js';
import { exitOnUncaughtErrors } from './fatal.js';
import { createAppState } from '../tools/app-state.js';
import { createRepo, SchemaVersionError, StoreFileError } from '../db/index.js';
import { SqliteRepo } from '../db/sqlite/repo.js';
import type { Repository } from '../db/repo.js';
import { createMonitoring, secretBoxFor } from './monitoring.js';
import { createCrawl } from './crawl.js';
import { createMailer } from '../accounts/mailer.js';
import { closePagePool, reportPagePoolErrors, warmPagePool } from '../scan/parser-threads/page-pool.js';
import { createChromiumRenderer } from '../render/chromium.js';
import { keyringOf } from './app.js';

export interface Running {
  server: Server;
  db: Repository;
  url: string;
  stop(): Promise<void>;
}

/** A start-up failure an operator fixes outside the code (a setting, a busy port, the store file): one line, no stack. */
export class StartupError extends Error {
  constructor(
    message: string,
    readonly exitCode = 78, // EX_CONFIG: change a setting and start again
  ) {
    super(message);
    this.name = 'StartupError';
  }
}

/**
 * How long SIGTERM may take before the process gives up and exits 1: the drain delay, then the longest work the
 * settings allow to be in flight (a scan waiting behind a full set of running ones and then running, a monitor run
 * that re-checks ownership and scans, a webhook attempt), plus 10 s to close the store. A container's grace period
 * (docker stop -t, terminationGracePeriodSeconds) should be at least this; the "listening" line states it.
 */
export function shutdownBoundMs(config: Config): number {
  const scanRounds = Math.ceil((config.SCAN_CONCURRENCY + config.SCAN_QUEUE) / config.SCAN_CONCURRENCY);
  const work = Math.max(scanRounds * config.SCAN_TIMEOUT_MS, 2 * config.SCAN_TIMEOUT_MS, config.WEBHOOK_TIMEOUT_MS);
  return config.SHUTDOWN_DRAIN_MS + work + 10_000;
}

export async function serve(config: Config): Promise<Running> {
  const log = createLogger(config.LOG_LEVEL);
  if (config.TRUST_PROXY === 'true') {
    log.warn('TRUST_PROXY=true trusts X-Forwarded-For from any sender: a client can forge its address and pass the per-IP scan limit; set the proxy hop count (e.g. 1) or the proxy addresses instead');
  }
  const box = secretBoxFor(config); // a missing SECRETS_KEY stops start-up before the store is opened
  let db: Repository;
  try {
    db = await createRepo(config);
  } catch (err) {
    if (err instanceof StoreFileError || err instanceof SchemaVersionError) throw new StartupError(`DATA_DIR: ${err.message}`, 1);
    throw err;
  }
  if (db instanceof SqliteRepo && db.migration?.backup) {
    log.info({ schema: db.migration }, 'store schema upgraded');
  }
  const metrics = createMetrics();
  // A page-parser thread that fails to start is logged, and pages are then read in the main thread.
  reportPagePoolErrors((err) => log.warn({ err }, 'page parser thread failed; reading in the main thread meanwhile'));
  const mailer = createMailer(config, log); // one mailer for sign-in links and owner notifications
  const state = createAppState(config); // one scan bound and one set of running scans for the API and the worker
  // The scanner's signing key, made on first start (one for every instance of the store): its directory is ready
  // before the first signed request goes out.
  const keyring = config.SIGN_REQUESTS ? keyringOf({ config, db, log }, box) : null;
  await keyring?.signer();
  // The browser view when Chromium is installed (started on the first scan); without it scans say it did not run.
  // The monitoring worker's scheduled scans share it, as they share the scan bound.
  const renderer = createChromiumRenderer({ executablePath: config.CHROMIUM_PATH, concurrency: config.RENDER_CONCURRENCY, log, metrics }) ?? undefined;
  const monitoring = createMonitoring({ config, db, log, state, box, mailer, metrics, renderer, requestSigner: keyring?.signer });
  const crawl = createCrawl({ config, db, log, metrics, requestSigner: keyring?.signer }); // deep audits and the seeded index, in pools of their own
  const wakeMonitoring = config.MONITOR === 'on' ? () => monitoring.wake() : undefined;
  const app = createApp({ config, db, log, state, box, mailer, metrics, renderer, keyring, wakeMonitoring });
  // The scanner warms before listening: its patterns compile on this thread (seconds on a busy machine), which held
  // every request sent on the "listening" line until it was done. The parser threads keep loading after, off this
  // thread; /readyz says ready only then, and a scan arriving earlier waits for them before its deadline starts.
  app.locals.warming = true;
  const warmStarted = performance.now();
  const warmed = warmPagePool();
  const server = app.listen(config.PORT, config.HOST);
  Object.assign(server, { connectionsCheckingInterval: 1_000 }); // read on 'listening': enforce the timeouts below every 1 s, not Node's 30 s (R8)
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (err) {
    await db.close();
    await closePagePool();
    throw listenFailure(err as NodeJS.ErrnoException, config);
  }
  // Cut off slow or silent clients (slowloris) instead of holding sockets open for minutes.
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  server.keepAliveTimeout = 5_000;

  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  log.info(
    { url, store: config.MONGODB_URI ? 'mongodb' : 'sqlite', baseUrl: config.BASE_URL, shutdownBoundMs: shutdownBoundMs(config), browserView: renderer ? 'on' : 'off' },
    'store-readiness listening',
  );
  void warmed.then(() => {
    app.locals.warming = false;
    log.info({ ms: Math.round(performance.now() - warmStarted) }, 'scanner warm');
  });
  if (config.MONITOR === 'on') monitoring.start(); // scheduled scans and webhook deliveries (MONITOR=off: none here)
  if (config.CRAWL_WORKERS + config.SEED_CONCURRENCY > 0) crawl.start();

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      app.locals.shuttingDown = true; // /readyz answers 503 from now on
      // Keep serving while the load balancer notices, then stop accepting.
      if (config.SHUTDOWN_DRAIN_MS > 0) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DRAIN_MS));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await monitoring.stop();
      await crawl.stop();
      await db.close();
      await closePagePool();
      await renderer?.close();
      log.info('stopped');
    })());
  return { server, db, url, stop };
}

/** The one line a failed listen deserves: which setting to change. */
function listenFailure(err: NodeJS.ErrnoException, config: Config): Error {
  const where = `${config.HOST}:${config.PORT}`;
  if (err.code === 'EADDRINUSE') return new StartupError(`PORT: ${where} is already in use by another process; stop it or set another PORT`);
  if (err.code === 'EACCES') return new StartupError(`PORT: ${where} needs privileges this process does not have; use a port above 1023`);
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN' || err.code === 'EADDRNOTAVAIL') {
    return new StartupError(`HOST: ${config.HOST} is not an address of this machine (${err.code}); use 127.0.0.1, 0.0.0.0 or one of its addresses`);
  }
  return err;
}

async function main(): Promise<void> {
  // Until the configuration is read, failures are written at the default level, as JSON like every other line.
  const early = pino();
  exitOnUncaughtErrors(early); // from here on, an error nothing caught is one fatal line and exit 1
  let running: Running;
  let config: Config;
  try {
    config = loadConfig();
    running = await serve(config);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof StartupError) {
      early.fatal(err.message.replace(/\n\s*/g, ' '));
      early.flush();
      process.exit(err instanceof StartupError ? err.exitCode : 78);
    }
    throw err;
  }
  const log = createLogger(config.LOG_LEVEL);
  const shutdown = (signal: string) => {
    const boundMs = shutdownBoundMs(config);
    log.info({ signal, boundMs }, `${signal} received: finishing in-flight requests`);
    const force = setTimeout(() => {
      log.error({ boundMs }, 'work still in flight at the shutdown bound: exiting anyway');
      process.exit(1);
    }, boundMs);
    force.unref();
    running.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('server/main.ts')) {
  await main();
}
