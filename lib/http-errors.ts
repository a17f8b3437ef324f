// Translates every error into what a caller is shown (answerableError, the rule every surface follows) and the
// API's JSON error body: AppError as is, body-parser failures as INVALID_BODY / PAYLOAD_TOO_LARGE, anything else
// as a generic 500 whose stack stays in the log.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { AppError, GENERIC_INTERNAL_MESSAGE, toErrorBody } from './errors.js';
import { isDatabaseUnavailable } from './db-failure.js';
import { countDatabaseError, storeErrorCode, type ServiceMetrics } from './metrics.js';

export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; status?: number; name?: string; code?: string };
  if (e?.type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
  // A form with more fields than any of ours has (body-parser's parameterLimit): the client's mistake, not ours.
  if (e?.type === 'parameters.too.many') return new AppError('PAYLOAD_TOO_LARGE', 'The form has more fields than this service accepts.');
  if (e?.type === 'entity.parse.failed') return new AppError('INVALID_BODY', 'The request body is not valid JSON.');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
    return new AppError('INVALID_BODY', 'The request body uses an unsupported encoding.');
  if (e?.type === 'request.aborted') return new AppError('INVALID_BODY', 'The request body was not sent completely.');
  if (e?.name === 'URIError') return new AppError('INVALID_PARAMS', 'The path is not valid percent-encoded UTF-8.');
  if (/^(Z_[A-Z_]+|ERR__ERROR_[A-Z0-9_]+)$/.test(e?.code ?? '')) return new AppError('INVALID_BODY', 'The request body could not be decoded as its Content-Encoding says.');
  if (isDatabaseUnavailable(err))
    return new AppError('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable. Please retry shortly.', undefined, {
      'Retry-After': '5',
    });
  return null;
}

export function sendError(res: Parameters<RequestHandler>[1], err: AppError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const [name, value] of Object.entries(err.headers ?? {})) res.setHeader(name, value);
  res.status(err.status).type('application/json').send(JSON.stringify(toErrorBody(err)));
}

/**
 * Counts a failure of the store for the metrics, whichever surface met it (API, pages, console, MCP): the store
 * unavailable (a 503 the caller may retry), or SQLite's own error behind a 500.
 */
export function countIfDatabaseError(metrics: ServiceMetrics | undefined, err: unknown): void {
  if (isDatabaseUnavailable(err) || storeErrorCode(err)?.startsWith('SQLITE_')) countDatabaseError(metrics, err);
}

export interface ErrorWitness {
  log?: Pick<Logger, 'warn' | 'error'>;
  metrics?: ServiceMetrics;
}

/**
 * The one rule for what an error becomes in an answer, on every surface (the API's JSON body, an MCP tool result
 * or JSON-RPC error, a page): a known error (AppError, or one toAppError recognises) is the caller's to see; a
 * known one of 500 or more is an expected outcome (the store is down, the scanner full) and leaves a warning; any
 * other error is logged with its stack and answered with the generic message. A failure of the store is counted
 * for the metrics whichever surface met it.
 */
export function answerableError(err: unknown, { log, metrics }: ErrorWitness): AppError {
  countIfDatabaseError(metrics, err);
  const known = toAppError(err);
  if (known && known.status < 500) return known;
  if (known) {
    if (isDatabaseUnavailable(err)) log?.warn({ code: known.code, storeCode: storeErrorCode(err), storeError: (err as Error).message }, known.message);
    else log?.warn({ code: known.code }, known.message);
    return known;
  }
  log?.error({ err, storeCode: storeErrorCode(err) }, 'unexpected error');
  return new AppError('INTERNAL_ERROR', GENERIC_INTERNAL_MESSAGE);
}

/** The API's adapter of answerableError: the error as the JSON error body. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const shown = answerableError(err, { log: req.log, metrics: req.app?.locals.metrics as ServiceMetrics | undefined });
  res.locals.errorCode = shown.code; // named on the request's log line
  sendError(res, shown);
};

/** Unknown paths under /api answer JSON 404, never an HTML page. */
export const apiNotFound: RequestHandler = (req, _res, next) => {
  next(new AppError('NOT_FOUND', `No endpoint at ${req.method} ${req.originalUrl.split('?')[0].slice(0, 200)}. See GET /api/v1 for the list.`, {
    method: 'GET',
    endpoint: '/api/v1',
    description: 'The discovery document lists every endpoint.',
  }));
};
