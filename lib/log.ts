// Logging: one pino logger for the process and pino-http for requests (request id echoed as X-Request-Id,
// Authorization and API keys redacted so they never reach a log line).
import { randomUUID } from 'node:crypto';
import { pino, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { RequestHandler } from 'express';

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'], censor: '[redacted]' },
  });
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function requestLogger(log: Logger): RequestHandler {
  return pinoHttp({
    logger: log,
    genReqId: (req, res) => {
      const given = req.headers['x-request-id'];
      // Echo a caller's id only when it is short and plain, so it cannot inject into headers or logs.
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    serializers: {
      req: (req) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
  });
}

/** The sign-in link's token sits in its query: it is cut out of the URL before the URL reaches a log line. */
export const redactUrl = (url: string | undefined): string | undefined => url?.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
