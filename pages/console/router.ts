// The console under /console: one router that parses small form bodies, finds the signed-in account, mounts
// one router per page, and answers its own failures as console pages (never cached). A new console page is
// a file exporting a router or handler, mounted here behind requireAccount, using consolePage and csrfField.
import express, { Router, type ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../../lib/config.js';
import type { Repository } from '../../db/repo.js';
import type { Guards } from '../../http/guards.js';
import type { AppState } from '../../tools/app-state.js';
import { createMailer, type Mailer } from '../../accounts/mailer.js';
import { GENERIC_INTERNAL_MESSAGE } from '../../lib/errors.js';
import { answerableError } from '../../lib/http-errors.js';
import type { ServiceMetrics } from '../../lib/metrics.js';
import { html } from '../html.js';
import { CONSOLE_SCRIPT, CONSOLE_SCRIPT_PATH, publicConsolePage, sendConsolePage } from './layout.js';
import { loadSession, requireAccount } from './session.js';
import { signInRouter } from './sign-in.js';
import { overviewPage } from './overview.js';
import { keysRouter } from './keys.js';
import { scansCsvDownload, scansPage } from './scans.js';
import { accountRouter } from './account.js';
import { storesRouter } from './stores.js';
import { monitorsRouter } from './monitors.js';
import { webhooksRouter } from './webhooks.js';
import { auditsRouter } from './audits.js';
import { briefPage } from './brief.js';
import { attachScansRouter } from './attach-scans.js';
import type { SecretBox } from '../../monitoring/secrets.js';

export interface ConsoleDeps {
  config: Config;
  db: Repository;
  log: Logger;
  guards: Guards;
  /** The app's state: verification checks take their places within its scan bound. */
  state: AppState;
  mailer?: Mailer;
  /** Seals webhook secrets (SECRETS_KEY); made by the composition root. */
  box: SecretBox;
  /** Wakes this instance's monitoring worker, when it runs one (MONITOR=on). */
  wakeMonitoring?: () => void;
}

const PRUNE_EVERY_MS = 10 * 60_000;

export function consoleRouter(deps: ConsoleDeps): Router {
  const { config, db } = deps;
  const mailer = deps.mailer ?? createMailer(config, deps.log);
  const router = Router({ caseSensitive: true, strict: false });

  router.get(CONSOLE_SCRIPT_PATH, (_req, res) => {
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.send(CONSOLE_SCRIPT);
  });

  const pages = Router({ caseSensitive: true, strict: false });
  pages.use(express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 10 }));
  pages.use(loadSession(db, config.BASE_URL));
  pages.use(pruneNowAndThen(db));
  pages.use(signInRouter({ db, config, mailer }));
  pages.get('/console', requireAccount, overviewPage(deps));
  pages.get('/console/scans', requireAccount, scansPage(deps));
  pages.get('/console/scans.csv', requireAccount, scansCsvDownload(deps));
  pages.use(attachScansRouter(deps));
  pages.use(storesRouter(deps));
  pages.use(monitorsRouter(deps));
  pages.use(webhooksRouter(deps));
  pages.use(auditsRouter(deps));
  pages.use(keysRouter(deps));
  pages.use(accountRouter(deps));
  // The report page's "Agent brief" link: signed in, the brief as a page; signed out, the sign-in page first.
  pages.get('/console/brief/:scan_id', requireAccount, briefPage(deps));
  pages.use(consoleErrors);
  // Only console paths go through the form parser and the session lookup: a badge or a report page
  // neither parses a form nor slides a session (nor answers a publicly cached badge with a Set-Cookie).
  router.use((req, res, next) => (isConsolePath(req.path) ? pages(req, res, next) : next()));
  return router;
}

const isConsolePath = (path: string): boolean => path === '/console' || path.startsWith('/console/');

/** Expired tokens and sessions go now and then (MongoDB's TTL indexes do it too). */
function pruneNowAndThen(db: Repository): express.RequestHandler {
  let last = 0;
  return (_req, _res, next) => {
    const now = Date.now();
    if (now - last >= PRUNE_EVERY_MS) {
      last = now;
      db.accounts.pruneExpired(new Date(now)).catch(() => undefined); // housekeeping; reads filter expiry anyway
    }
    next();
  };
}

const consoleErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  const appError = answerableError(err, { log: req.log, metrics: req.app.locals.metrics as ServiceMetrics | undefined });
  const status = appError.status;
  const heading = status === 403 ? 'Request refused' : status >= 500 ? 'Something went wrong on our side' : 'That request did not work';
  const message = status >= 500 ? (status === 503 ? 'We are busy right now. Please try again in a few seconds.' : GENERIC_INTERNAL_MESSAGE) : appError.message;
  sendConsolePage(res, publicConsolePage(heading, html`<h1>${heading}</h1><p>${message}</p><p><a class="button" href="/console">Back to the console</a></p>`), {
    status,
    headers: appError.headers,
  });
};
