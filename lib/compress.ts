// Gzip/deflate/brotli for what people and agents read: HTML pages, JSON answers and Markdown, by the client's
// Accept-Encoding (the `compression` middleware, which also sends Vary: Accept-Encoding). Event streams are never
// compressed: a gzip stream would hold MCP's server-sent events back until a buffer fills.
import compression from 'compression';
import type { RequestHandler } from 'express';

const COMPRESSED_TYPES = /^(text\/html|text\/markdown|text\/plain|text\/css|text\/javascript|application\/([a-z0-9.-]+\+)?json)\s*(;|$)/i;

export function compressText(): RequestHandler {
  const compress = compression({
    filter: (_req, res) => COMPRESSED_TYPES.test(String(res.getHeader('Content-Type') ?? '')),
  });
  return (req, res, next) => {
    // A client that names no encoding gets identity whatever the answer is: the middleware's wrapping of every
    // write would be pure cost (about 80 µs of an MCP call). The answer still says it varies by Accept-Encoding,
    // so a shared cache keeps the plain and the compressed copies apart.
    if (req.headers['accept-encoding'] === undefined) {
      res.vary('Accept-Encoding');
      return next();
    }
    return compress(req, res, next);
  };
}
