// The only entry that reads the environment, opens the store, listens and shuts down: SIGTERM/SIGINT stop
// accepting, let in-flight requests (scans included) finish, then close the store.
import type { Server } from 'node:http';
import { ConfigError, loadConfig, type Config } from '../lib/config.js';
import { createLogger } from '../lib/log.js';
import { createApp } from './app.js';
import { createRepo } from '../store/index.js';
import type { StoreRepo } from '../store/repo.js';
import { createMonitoring, secretBoxFor } from './monitoring.js';
import { createMailer } from '../accounts/mailer.js';
import { closePagePool, reportPagePoolErrors, warmPagePool } from '../scan/page-pool.js';
import { createChromiumRenderer } from '../render/chromium.js';

export interface Running {
  server: Server;
  store: StoreRepo;
  url: string;
  stop(): Promise<void>;
}

export async function serve(config: Config): Promise<Running> {
  const log = createLogger(config.LOG_LEVEL);
  const box = secretBoxFor(config); // a missing SECRETS_KEY stops start-up before the store is opened
  const store = await createRepo(config);
  // The page parsers load on a worker thread before the server listens, so the first scans do not wait for them
  // (a thread that fails to start is logged, and pages are then read in the main thread).
  reportPagePoolErrors((err) => log.warn({ err }, 'page parser thread failed; reading in the main thread meanwhile'));
  await warmPagePool();
  const mailer = createMailer(config, log); // one mailer for sign-in links and owner notifications
  const monitoring = createMonitoring({ config, store, log, box, mailer });
  // The browser view when Chromium is installed (started on the first scan); without it scans say it did not run.
  const renderer = createChromiumRenderer({ executablePath: config.CHROMIUM_PATH, concurrency: config.RENDER_CONCURRENCY, log }) ?? undefined;
  const app = createApp({ config, store, log, box, mailer, renderer });
  const server = app.listen(config.PORT, config.HOST);
  Object.assign(server, { connectionsCheckingInterval: 1_000 }); // read on 'listening': enforce the timeouts below every 1 s, not Node's 30 s (R8)
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  // Cut off slow or silent clients (slowloris) instead of holding sockets open for minutes.
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  server.keepAliveTimeout = 5_000;

  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  log.info({ url, store: config.MONGODB_URI ? 'mongodb' : 'sqlite', baseUrl: config.BASE_URL, browserView: renderer ? 'on' : 'off' }, 'store-readiness listening');
  if (config.MONITOR === 'on') monitoring.start(); // scheduled scans and webhook deliveries (MONITOR=off: none here)

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      app.locals.shuttingDown = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await monitoring.stop();
      await store.close();
      await closePagePool();
      await renderer?.close();
      log.info('stopped');
    })());
  return { server, store, url, stop };
}

async function main(): Promise<void> {
  let running: Running;
  try {
    running = await serve(loadConfig());
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
  const shutdown = (signal: string) => {
    process.stderr.write(`${signal} received: finishing in-flight requests\n`);
    const force = setTimeout(() => process.exit(1), 40_000);
    force.unref();
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('server/main.ts')) {
  await main();
}
