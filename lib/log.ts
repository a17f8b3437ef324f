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

const BASE = Symbol('request logger base');
const CHILD = Symbol('request logger');

type Logged = Request & { [BASE]: Logger; [CHILD]?: Logger };

/** The request as its log line names it, made only when something is logged. */
const lineOf = (req: Request): RequestLine => ({ id: req.id, method: req.method, url: redactUrl(req.originalUrl ?? req.url) });

/** req.log, made on first use: most requests never log anything but their one line. */
function installLazyLog(proto: object): void {
  if (Object.prototype.hasOwnProperty.call(proto, 'log')) return;
  Object.defineProperty(proto, 'log', {
    configurable: true,
    get(this: Logged) {
      return (this[CHILD] ??= this[BASE].child({ req: lineOf(this) }));
    },
    set(this: Logged, value: Logger) {
      this[CHILD] = value;
    },
  });
}

export function requestLogger(log: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    // Echo a caller's id only when it is short and plain, so it cannot inject into headers or logs.
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    installLazyLog(Object.getPrototypeOf(req) as object);
    const logged = req as Logged;
    logged[BASE] = log;
    const start = Date.now();
    let done = false;
    const finish = (err?: unknown) => {
      if (done) return;
      done = true;
      logLine(logged, res, Date.now() - start, err instanceof Error ? err : undefined);
    };
    // 'close' follows every response, finished or cut off; 'error' comes first when writing failed.
    res.on('close', finish);
    res.on('error', finish);
    next();
  };
}

/** One line per request, pino-http's shape: req { id, method, url }, res { statusCode }, responseTime. */
function logLine(req: Logged, res: Response, responseTime: number, err: Error | undefined): void {
  // 502, 503 and 504 are answers the service gives on purpose (STORE_UNREACHABLE, the store down, SCANNER_BUSY,
  // SCAN_TIMEOUT): a warning naming its code where the API set one. Only a failed write of the response or an
  // unexpected 500 is an error with a stack.
  const code = res.locals.errorCode as string | undefined;
  const failed = err !== undefined || (res.statusCode >= 500 && !EXPECTED_5XX.has(res.statusCode));
  const base = req[CHILD] ?? req[BASE];
  const level = failed ? 'error' : res.statusCode >= 500 ? 'warn' : 'info';
  if (!base.isLevelEnabled(level)) return;
  const fields = { ...(req[CHILD] ? {} : { req: lineOf(req) }), res: { statusCode: res.statusCode }, responseTime, ...(code ? { code } : {}) };
  if (failed) base.error({ ...fields, err: err ?? new Error(`failed with status code ${res.statusCode}`) }, 'request errored');
  else base[level](fields, 'request completed');
}

/** The sign-in link's token sits in its query: it is cut out of the URL before the URL reaches a log line. */
export const redactUrl = (url: string | undefined): string | undefined => url?.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
