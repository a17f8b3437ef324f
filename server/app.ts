// Builds the express app from explicit dependencies (config, store, logger) without listening, so tests
// start the real thing on port 0. Order: logging → guards → API (v1 + alias) → MCP → documents and pages
// → JSON 404 under /api → one error handler.
import type { Config } from '../lib/config.js';
import express, { type Express } from 'express';
import type { AppParts } from '../tools/context.js';
import { createAppState, type AppState } from '../tools/app-state.js';
import { requestLogger } from '../lib/log.js';
import { compressText } from '../lib/compress.js';
import { apiNotFound, errorHandler } from '../lib/http-errors.js';
import { createGuards, type Guards } from '../rest/limits.js';
import { apiRouter } from '../rest/router.js';
import { methodNotAllowed } from '../http/method-not-allowed.js';
import { discoveryDocument } from '../rest/discovery.js';
import { ROUTES, type RouteDef } from '../rest/routes.js';
import { pageNotFound, pagesRouter } from '../pages/router.js';
import { consoleRouter } from '../pages/console/router.js';
import { mcpRouter } from '../mcp/server.js';
import { MCP_PATH } from '../lib/links.js';
import { apiPageForBrowsers } from '../pages/api-page.js';
import { mcpPageForBrowsers } from '../pages/mcp-page.js';
import { functionDefsRouter, wellKnownRouter } from '../well-known/index.js';
import { sitemapRouter } from '../well-known/sitemap.js';
import { linkHeader } from '../lib/links.js';
import type { PublicDocuments } from '../tools/resources/resource.js';
import { llmsTxt } from '../well-known/llms-txt.js';
import { renderReportMarkdown } from '../pages/report-page.js';
import { PAGE_SIZE as INDEX_PAGE_SIZE, renderIndexMarkdown } from '../pages/index-page.js';
import type { Mailer } from '../accounts/mailer.js';
import type { SecretBox } from '../monitoring/secrets.js';
import { secretBoxFor } from './monitoring.js';
import { createMetrics, storeErrorCode } from '../lib/metrics.js';
import { metricsRouter } from './metrics.js';
import { createKeyring, type Keyring } from '../bot-auth/keyring.js';
import { directoryResponder } from '../bot-auth/directory.js';
import { signatureDirectoryRouter } from '../well-known/signature-directory.js';

/** The app's parts (tools/context.ts AppParts, its state made here when not given) and what only the app needs. */
export interface AppDeps extends Omit<AppParts, 'state'> {
  guards?: Guards;
  /** The route table (default ROUTES); tests add rows, e.g. a deprecated one. Never set in production. */
  routes?: RouteDef[];
  /** Console mail (default: from SMTP_URL, or the log); main.ts shares one with the monitoring worker. */
  mailer?: Mailer;
  /** Seals webhook secrets (default: from SECRETS_KEY, or the local key file in DATA_DIR). */
  box?: SecretBox;
  /** What the app keeps between calls: scan bound, running scans, caches (default: new); shared with the monitoring worker. */
  state?: AppState;
  /** The scanner's signing keys (default: on the app's store when SIGN_REQUESTS is on; null: requests go unsigned). */
  keyring?: Keyring | null;
  /** Wakes this instance's monitoring worker (main.ts), so a test event a merchant sends goes out at once. */
  wakeMonitoring?: () => void;
}

export function createApp(given: AppDeps): Express {
  const { config } = given;
  const box = given.box ?? secretBoxFor(config); // webhook secrets, the home form's cookie, the signing keys
  const keyring = given.keyring !== undefined ? given.keyring : config.SIGN_REQUESTS ? keyringOf(given, box) : null;
  const deps: AppDeps = { ...given, box, requestSigner: given.requestSigner ?? keyring?.signer };
  const routes = deps.routes ?? ROUTES;
  const guards = deps.guards ?? createGuards({ config, db: deps.db });
  const state = deps.state ?? createAppState(config);
  const app = express();
  const metrics = deps.metrics ?? createMetrics();
  app.locals.metrics = metrics; // read by the tool contexts and the error handler
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxy(config.TRUST_PROXY));
  app.set('etag', false);
  app.set('json spaces', 0);

  app.use(requestLogger(deps.log));
  app.use(compressText());
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.use(guards.everyRequest);

  // Health answers never count against the read limit. Liveness touches no store (a hung database must not get
  // the process restarted); readiness needs a warm scanner, a store that reads and takes a write, and no drain.
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (req, res) => {
    const ready =
      !app.locals.shuttingDown &&
      !app.locals.warming &&
      (await deps.db.ping().then(
        () => true,
        (err: unknown) => {
          req.log.warn({ storeCode: storeErrorCode(err), storeError: (err as Error).message }, 'not ready: the store cannot read or write');
          return false;
        },
      ));
    res.status(ready ? 200 : 503).json(ready ? { status: 'ready' } : { status: 'unavailable', code: 'SERVICE_UNAVAILABLE' });
  });
  app.use(metricsRouter({ config, db: deps.db, metrics, state }));

  const discovery = discoveryDocument(config.BASE_URL, routes);
  const discoveryLinks = linkHeader(config.BASE_URL);
  const api = apiRouter({ ...deps, guards, routes, state });
  for (const prefix of ['/api/v1', '/api']) {
    app.get(prefix, apiPageForBrowsers(config.BASE_URL, routes), (_req, res) => void res.setHeader('Link', discoveryLinks).vary('Accept').json(discovery));
    app.all(prefix, methodNotAllowed(['GET']));
    app.use(prefix, api);
  }
  // API extras that are not tool routes mount here, before the JSON 404.
  app.use(functionDefsRouter()); // GET /api/v1/tools.json and /api/tools.json
  app.use('/api', apiNotFound);

  // Other surfaces mount here, one line each: MCP, well-known documents, badge, verify, pages.
  app.get(MCP_PATH, mcpPageForBrowsers(config.BASE_URL));
  app.use(mcpRouter({ ...deps, documents: publicDocuments(config, routes), state, metrics }));
  app.use(wellKnownRouter({ config, routes }));
  if (keyring) app.use(signatureDirectoryRouter(directoryResponder(keyring, config.BASE_URL)));
  app.use(sitemapRouter(deps));
  app.use(consoleRouter({ ...deps, guards, state, box }));
  app.use(pagesRouter({ ...deps, guards, state, box }));
  app.use(pageNotFound);

  app.use(errorHandler);
  return app;
}

/** The instance's keyring on the app's store, its private keys sealed by the app's secret box. */
export function keyringOf(deps: Pick<AppDeps, 'config' | 'db' | 'log'>, box: SecretBox): Keyring {
  return createKeyring({ keys: deps.db.signingKeys, box, signatureAgent: deps.config.BASE_URL, warn: (obj, msg) => deps.log.warn(obj, msg) });
}

/** The documents MCP resources serve, rendered as the web serves them. */
function publicDocuments(config: Config, routes: RouteDef[]): PublicDocuments {
  const baseUrl = config.BASE_URL;
  const llms = llmsTxt(baseUrl, routes, config.SCAN_MAX_REQUESTS);
  return {
    llmsTxt: () => llms,
    reportMarkdown: (report) => renderReportMarkdown(report, baseUrl),
    indexMarkdown: ({ rows, total, vertical }) =>
      renderIndexMarkdown({ rows, total, vertical, page: 1, pages: Math.max(1, Math.ceil(total / INDEX_PAGE_SIZE)) }, baseUrl, new Date()),
  };
}

/** TRUST_PROXY as express understands it: a hop count, true/false, or a list of addresses. */
function trustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined) return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true' || value === 'false') return value === 'true';
  return value;
}
