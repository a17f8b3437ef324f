// Translates every error into the API's JSON error body: AppError as is, body-parser failures as
// INVALID_BODY / PAYLOAD_TOO_LARGE, anything else as a generic 500 whose stack stays in the log.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, GENERIC_INTERNAL_MESSAGE, toErrorBody } from './errors.js';
import { isStoreUnavailable } from './store-failure.js';
import { countStoreError, storeErrorCode, type ServiceMetrics } from './metrics.js';

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
  if (isStoreUnavailable(err))
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
export function countIfStoreError(metrics: ServiceMetrics | undefined, err: unknown): void {
  if (isStoreUnavailable(err) || storeErrorCode(err)?.startsWith('SQLITE_')) countStoreError(metrics, err);
}

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const appError = toAppError(err);
  const metrics = req.app?.locals.metrics as ServiceMetrics | undefined;
  res.locals.errorCode = appError?.code ?? 'INTERNAL_ERROR'; // named on the request's log line
  if (appError) {
    // An expected outcome (the store is down, the scanner full): a warning with the codes, no stack.
    countIfStoreError(metrics, err);
    if (isStoreUnavailable(err)) {
      req.log?.warn({ code: appError.code, storeCode: storeErrorCode(err), storeError: (err as Error).message }, appError.message);
    } else if (appError.status >= 500) req.log?.warn({ code: appError.code }, appError.message);
    sendError(res, appError);
    return;
  }
  countIfStoreError(metrics, err);
  req.log?.error({ err, storeCode: storeErrorCode(err) }, 'unexpected error');
  sendError(res, new AppError('INTERNAL_ERROR', GENERIC_INTERNAL_MESSAGE));
};

/** Unknown paths under /api answer JSON 404, never an HTML page. */
export const apiNotFound: RequestHandler = (req, _res, next) => {
  next(new AppError('NOT_FOUND', `No endpoint at ${req.method} ${req.originalUrl.split('?')[0].slice(0, 200)}. See GET /api/v1 for the list.`, {
    method: 'GET',
    endpoint: '/api/v1',
    description: 'The discovery document lists every endpoint.',
  }));
};
