// The public CSV routes: a report's checks and a store's score history, read through the same tools as the JSON
// API (get_scan, get_score_history) by tools/invoke.ts. What the report page hides (unknown, malformed or delisted
// ids; hosts with no public history) is a 404 page here too.
import { Router, type Request, type Response } from 'express';
import { AppError } from '../lib/errors.js';
import { invoke } from '../tools/invoke.js';
import { getScan } from '../tools/get-scan.js';
import { getScoreHistory } from '../tools/get-score-history.js';
import { requestContext } from '../http/request-context.js';
import type { SurfaceDeps } from '../http/guards.js';
import { methodNotAllowed } from '../http/method-not-allowed.js';
import type { ScanResult } from '../schemas/scan-result.js';
import type { ScoreHistory } from '../schemas/score-history.js';
import { checksCsv, historyCsv, sendCsv } from './csv.js';
import { notFoundPage } from './report-page.js';
import { sendPage } from './html.js';
import { HISTORY_MAX } from '../schemas/score-history.js';

const NOT_FOUND = new Set(['SCAN_NOT_FOUND', 'HOST_NOT_FOUND', 'INVALID_PARAMS']);

export function csvRouter(deps: SurfaceDeps): Router {
  const router = Router({ caseSensitive: true, strict: false });
  const context = (req: Request, res: Response, tool: string) => () => requestContext(req, res, deps, false, tool);
  const notFound = (res: Response) => sendPage(res, notFoundPage(), { status: 404 });

  router.get('/r/:scan_id.csv', async (req, res) => {
    const rawId = req.params.scan_id;
    if (!/^[1-9][0-9]{0,15}$/.test(rawId)) return notFound(res);
    try {
      const { value } = await invoke(getScan, { scan_id: Number(rawId) }, { context: context(req, res, getScan.name) });
      const report = value as ScanResult;
      if (await deps.db.isDelisted(report.host)) return notFound(res);
      sendCsv(res, `report-${rawId}.csv`, checksCsv(report), 'public, max-age=300');
    } catch (err) {
      if (err instanceof AppError && NOT_FOUND.has(err.code)) return notFound(res);
      throw err;
    }
  });
  router.all('/r/:scan_id.csv', methodNotAllowed(['GET']));

  router.get('/history/:host.csv', async (req, res) => {
    try {
      const { value } = await invoke(getScoreHistory, { host: req.params.host, limit: HISTORY_MAX }, { context: context(req, res, getScoreHistory.name) });
      const history = value as ScoreHistory;
      sendCsv(res, `history-${history.host}.csv`, historyCsv(history), 'public, max-age=300');
    } catch (err) {
      if (err instanceof AppError && NOT_FOUND.has(err.code)) return notFound(res);
      throw err;
    }
  });
  router.all('/history/:host.csv', methodNotAllowed(['GET']));
  return router;
}
