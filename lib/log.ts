// Logging: one pino logger for the process and one line per request (request id echoed as X-Request-Id,
// Authorization and cookies redacted so they never reach a log line). The request line is written here rather
// than by pino-http, whose per-request child logger and listeners cost a quarter of a badge's CPU time
// (docs/decisions.md "Request logging"); the line keeps pino-http's shape.
import { randomUUID } from 'node:crypto';
import { pino, type Logger } from 'pino';
import type { Request, RequestHandler, Response } from 'express';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id, echoed as X-Request-Id. */
    id: string;
    /** The request's logger: the process logger bound to { req: { id, method, url } }, made on first use. */
    log: Logger;
  }
}

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'], censor: '[redacted]' },
  });
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

interface RequestLine {
  id: string;
  method: string | undefined;
  url: string | undefined;
}

const EXPECTED_5XX = new Set([502, 503, 504]);

/**
 * What the request logger keeps of one request, in one property: each property added to an express request costs
 * about a microsecond and a half (express has re-prototyped it, so V8 makes it a new shape every time).
 */
interface RequestRecord {
  id: string;
  base: Logger;
  child?: Logger;
  start: number;
  logged: boolean;
}

const RECORD = Symbol('request log record');

type Logged = Request & { [RECORD]: RequestRecord };

/** The request as its log line names it, made only when something is logged. */
const lineOf = (req: Request): RequestLine => ({ id: req.id, method: req.method, url: redactUrl(req.originalUrl ?? req.url) });

/** req.id and req.log (made on first use: most requests never log anything but their one line), read from the record. */
function installAccessors(proto: object): void {
  if (Object.prototype.hasOwnProperty.call(proto, 'log')) return;
  Object.defineProperty(proto, 'id', {
    configurable: true,
    get(this: Logged) {
      return this[RECORD]?.id;
    },
  });
  Object.defineProperty(proto, 'log', {
    configurable: true,
    get(this: Logged) {
      const record = this[RECORD];
      return (record.child ??= record.base.child({ req: lineOf(this) }));
    },
    set(this: Logged, value: Logger) {
      this[RECORD].child = value;
    },
  });
}

export function requestLogger(log: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    // Echo a caller's id only when it is short and plain, so it cannot inject into headers or logs.
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    installAccessors(Object.getPrototypeOf(req) as object);
    (req as Logged)[RECORD] = { id, base: log, start: Date.now(), logged: false };
    // 'close' follows every response, finished or cut off; 'error' comes first when writing failed.
    res.on('close', finishLine);
    res.on('error', finishLine);
    next();
  };
}

/** The response's listener (one function for every request, so a request costs no closure): its line, once. */
function finishLine(this: Response, err?: unknown): void {
  const req = this.req as Logged;
  const record = req[RECORD];
  if (record.logged) return;
  record.logged = true;
  logLine(req, this, Date.now() - record.start, err instanceof Error ? err : undefined);
}

/** One line per request, pino-http's shape: req { id, method, url }, res { statusCode }, responseTime. */
function logLine(req: Logged, res: Response, responseTime: number, err: Error | undefined): void {
  // 502, 503 and 504 are answers the service gives on purpose (STORE_UNREACHABLE, the store down, SCANNER_BUSY,
  // SCAN_TIMEOUT): a warning naming its code where the API set one. Only a failed write of the response or an
  // unexpected 500 is an error with a stack.
  const code = res.locals.errorCode as string | undefined;
  const failed = err !== undefined || (res.statusCode >= 500 && !EXPECTED_5XX.has(res.statusCode));
  const { child, base: processLog } = req[RECORD];
  const base = child ?? processLog;
  const level = failed ? 'error' : res.statusCode >= 500 ? 'warn' : 'info';
  if (!base.isLevelEnabled(level)) return;
  const fields = { ...(child ? {} : { req: lineOf(req) }), res: { statusCode: res.statusCode }, responseTime, ...(code ? { code } : {}) };
  if (failed) base.error({ ...fields, err: err ?? new Error(`failed with status code ${res.statusCode}`) }, 'request errored');
  else base[level](fields, 'request completed');
}

/** The sign-in link's token sits in its query: it is cut out of the URL before the URL reaches a log line. */
export const redactUrl = (url: string | undefined): string | undefined => url?.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
