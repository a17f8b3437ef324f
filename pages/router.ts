// The human-facing surfaces outside /api: badge and verify (JSON errors, per the spec), then the HTML pages
// (home, scan form, index, report, the stylesheet), whose failures are HTML pages too. The router has no
// catch-all, so whatever mounts after it still gets its paths; the app mounts pageNotFound last.
import { shareCardRoute } from './share-card.js';
import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { GENERIC_INTERNAL_MESSAGE } from '../lib/errors.js';
import { countIfDatabaseError, toAppError } from '../lib/http-errors.js';
import type { ServiceMetrics } from '../lib/metrics.js';
import { badgeRouter } from './badge.js';
import { verifyRouter } from './verify.js';
import { homePage, scanFromForm } from './home-page.js';
import { indexPage } from './index-page.js';
import { reportPage } from './report-page.js';
import { comparePage } from './compare-page.js';
import { csvRouter } from './csv-exports.js';
import { botPage } from './bot-page.js';
import { checkPage, checksCatalogue } from './checks-page.js';
import { FAVICON_SVG, SCAN_SCRIPT, SCAN_SCRIPT_PATH, STYLES_CSS, STYLES_PATH, html, messagePage, sendPage } from './html.js';
import { methodNotAllowed } from '../http/method-not-allowed.js';
import type { SurfaceDeps } from '../http/guards.js';
import type { ScansCookieDeps } from './console/scans-before-sign-in.js';

const YEAR = 'public, max-age=31536000, immutable';

export function pagesRouter(deps: SurfaceDeps & ScansCookieDeps): Router {
  const router = Router({ caseSensitive: true, strict: false });
  router.use(badgeRouter(deps));
  router.use(verifyRouter(deps));

  const pages = Router({ caseSensitive: true, strict: false });
  pages.get(STYLES_PATH, (_req, res) => {
    res.setHeader('Content-Type', 'text/css; charset=utf-8');
    res.setHeader('Cache-Control', YEAR);
    res.send(STYLES_CSS);
  });
  pages.get(SCAN_SCRIPT_PATH, (_req, res) => {
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
    res.setHeader('Cache-Control', YEAR);
    res.send(SCAN_SCRIPT);
  });
  pages.get('/assets/favicon.svg', (_req, res) => {
    res.setHeader('Content-Type', 'image/svg+xml; charset=utf-8');
    res.setHeader('Content-Security-Policy', "default-src 'none'");
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.send(FAVICON_SVG);
  });

  pages.get('/', homePage(deps));
  pages.post('/scan', express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 10 }), scanFromForm(deps));
  pages.all('/scan', methodNotAllowed(['POST']));
  const index = indexPage(deps);
  pages.get('/index', index);
  pages.get('/stores', index);
  pages.use(csvRouter(deps)); // before /r/:scan_id, which would take "12.csv" for an id
  pages.get('/r/:scan_id/card.png', shareCardRoute(deps));
  pages.get('/r/:scan_id', reportPage(deps));
  pages.get('/compare', comparePage(deps));
  pages.get('/bot', botPage(deps.config));
  pages.get('/checks', checksCatalogue);
  pages.get('/checks/:id', checkPage);
  pages.use(htmlErrors);

  router.use(pages);
  return router;
}

/** A failure inside a page is a page too (the JSON Error shape is for /api, badge and verify). */
const htmlErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  const appError = toAppError(err);
  countIfDatabaseError(req.app.locals.metrics as ServiceMetrics | undefined, err);
  if (appError?.code === 'METHOD_NOT_ALLOWED' || appError?.code === 'RATE_LIMITED') return next(err);
  if (!appError) req.log?.error({ err }, 'page failed unexpectedly');
  const status = appError?.status ?? 500;
  const busy = status === 503;
  sendPage(
    res,
    messagePage({
      title: busy ? 'Busy' : 'Error',
      heading: busy ? 'We are busy right now' : status >= 500 ? 'Something went wrong on our side' : 'That request did not work',
      body: html`<p>${busy ? 'Please try again in a few seconds.' : status >= 500 ? GENERIC_INTERNAL_MESSAGE : appError?.message ?? ''}</p>
<p><a class="button" href="/">Back to the home page</a></p>`,
    }),
    { status, headers: appError?.headers },
  );
};

/** Any other path a person might type: a page, not express's bare "Cannot GET". */
export const pageNotFound: RequestHandler = (_req, res) => {
  sendPage(
    res,
    messagePage({
      title: 'Page not found',
      heading: 'There is no page here',
      body: html`<p>The address may be mistyped.</p>
<p><a class="button" href="/">Scan a store</a> <a class="button button-quiet" href="/index">Browse the readiness index</a></p>`,
    }),
    { status: 404 },
  );
};
