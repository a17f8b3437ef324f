// The express side of a tool call, shared by the surfaces that serve HTTP (REST, pages, MCP). It sits in its own
// room below them because tools/ knows no express and rest/, pages/ and mcp/ must not import each other.
import type { Request, RequestHandler, Response } from 'express';
import { toolContext, type AppParts } from '../tools/context.js';
import type { Caller, ToolContext } from '../tools/tool.js';

/**
 * The tool context of one request. When cancellable, its signal aborts when the client goes away mid-request;
 * only work that reaches out (the scan) needs that, a read of stored data ends on its own. Its logger is the
 * request's, bound to `toolName` when one is given.
 */
export function requestContext(req: Request, res: Response, app: Omit<AppParts, 'metrics'>, cancellable = true, toolName?: string): ToolContext {
  let signal: AbortSignal | undefined;
  if (cancellable) {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client disconnected'));
    });
    signal = controller.signal;
  }
  const caller: Caller = res.locals.caller ?? { kind: 'anonymous', keyId: null, ip: req.ip ?? '' };
  const log = () => {
    const base = req.log ?? app.log;
    return toolName === undefined ? base : base.child({ tool: toolName });
  };
  return toolContext({ ...app, metrics: req.app.locals.metrics }, { caller, signal, log });
}

/** Runs a middleware inside a handler, so that its refusal (next(err)) becomes a throw. */
export function runGuard(guard: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    Promise.resolve(guard(req, res, (err?: unknown) => (err ? reject(err) : resolve()))).catch(reject);
  });
}
