// A benchmark target in its own process (so the load generator does not share its event loop):
// `app <dataDir>` runs the service on that store; `floor <bodyFile>` a bare node:http server answering the
// same bytes for every request; `express-floor <routesFile>` bare express routes, each answering fixed bytes
// (routes file: [{ method, path, type, file }]) — the ratio denominators; `store-routes <dataDir>` bare express
// routes doing only the store's part of a stored read and of a badge, with none of the service's per-request duties
// (log line, request id, caller, limits), and the MCP router alone: the most those answers can reach, beside the
// service's figures; `complete-store` the complete loopback store of the tests (test/fixtures/stores.ts), so a scan
// of it is timed without the store's work on the scanner's thread.
// Prints {"url"} on stdout once listening.
import { createAppState } from '../../tools/app-state.js';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import express from 'express';
import { createApp } from '../../server/app.js';
import { loadConfig } from '../../lib/config.js';
import { createRepo } from '../../db/index.js';
import { badgeFor } from '../../pages/badge.js';
import { mcpRouter } from '../../mcp/server.js';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';

const [mode, arg] = process.argv.slice(2);

if (mode === 'floor') {
  const body = readFileSync(arg);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => announce((server.address() as AddressInfo).port));
} else if (mode === 'express-floor') {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const routes = JSON.parse(readFileSync(arg, 'utf8')) as { method: 'get' | 'post'; path: string; type: string; file: string }[];
  for (const route of routes) {
    const body = readFileSync(route.file);
    app[route.method](route.path, (_req, res) => void res.type(route.type).send(body));
  }
  const server = app.listen(0, '127.0.0.1', () => announce((server.address() as AddressInfo).port));
} else if (mode === 'complete-store') {
  const store = await startStoreFrom(completeStore);
  announce(store.port);
} else if (mode === 'store-routes') {
  const config = loadConfig({ ...process.env, DATA_DIR: arg, PORT: '0', LOG_LEVEL: 'silent' });
  const db = await createRepo(config);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/scan/:id', async (req, res) => {
    const scan = await db.getScan(Number(req.params.id), 'json');
    res.type('application/json; charset=utf-8').send(scan?.reportJson);
  });
  app.get('/badge/:host', async (req, res) => void res.type('image/svg+xml').send(badgeFor(await db.latestByHost(req.params.host)).svg));
  // POST /mcp as the service mounts it (its guards, the SDK, the tools), without the service's other layers.
  const documents = { llmsTxt: () => '', reportMarkdown: () => '', indexMarkdown: () => '' };
  app.use(mcpRouter({ config, db, log: pino({ level: 'silent' }), documents, state: createAppState(config) }));
  const server = app.listen(0, '127.0.0.1', () => announce((server.address() as AddressInfo).port));
} else {
  const config = loadConfig({ ...process.env, DATA_DIR: arg, PORT: '0', LOG_LEVEL: 'silent' });
  const db = await createRepo(config);
  const app = createApp({ config, db, log: pino({ level: 'silent' }) });
  const server = app.listen(0, '127.0.0.1', () => announce((server.address() as AddressInfo).port));
}

// Exit normally on a signal so --cpu-prof can write its profile when profiling a target.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(0));

function announce(port: number): void {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
}
