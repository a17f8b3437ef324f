// Turns the route table into an express router: auth → parse arguments → validate with the tool's zod input
// and its preflight → count the call against its limiter → call the handler → send. A call refused before it
// is counted costs no quota but still carries the limiter's RateLimit headers. Known paths with another
// method answer 405 with Allow. No try/catch: express 5 sends async throws to the error middleware.
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { AppError } from '../lib/errors.js';
import { crossSiteRefusal } from '../lib/cross-site.js';
import type { Config } from '../lib/config.js';
import type { StoreRepo } from '../store/repo.js';
import type { AnyTool, Caller, ToolContext } from '../tools/tool.js';
import { getScan, getScanJson } from '../tools/get-scan.js';
import { ROUTES, describeIssues, expressPath, type RouteDef } from './routes.js';
import type { Guards } from './limits.js';
import { deprecationMiddleware } from './deprecation.js';

export interface RouterDeps {
  config: Config;
  store: StoreRepo;
  log: Logger;
  guards: Guards;
  scanOverrides?: ToolContext['scanOverrides'];
  renderer?: ToolContext['renderer'];
  /** The route table; tests add rows (a deprecated one), production uses ROUTES. */
  routes?: RouteDef[];
}

/**
 * The per-request context handed to a tool. When cancellable, its signal aborts when the client goes away
 * mid-request; only work that reaches out (the scan) needs that, a read of stored data ends on its own. Its logger
 * is made on first use (in practice, on an error), bound to `toolName` when one is given.
 */
export function toolContext(
  req: Request,
  res: Response,
  deps: Pick<RouterDeps, 'config' | 'store' | 'log' | 'scanOverrides' | 'renderer'>,
  cancellable = true,
  toolName?: string,
): ToolContext {
  let signal: AbortSignal | undefined;
  if (cancellable) {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client disconnected'));
    });
    signal = controller.signal;
  }
  const caller: Caller = res.locals.caller ?? { kind: 'anonymous', keyId: null, ip: req.ip ?? '' };
  let log: Logger | undefined;
  return {
    store: deps.store,
    config: deps.config,
    get log() {
      const base = req.log ?? deps.log;
      return (log ??= toolName === undefined ? base : base.child({ tool: toolName }));
    },
    caller,
    baseUrl: deps.config.BASE_URL,
    signal,
    metrics: req.app.locals.metrics,
    scanOverrides: deps.scanOverrides,
    renderer: deps.renderer,
  };
}

/**
 * Tools whose answer is stored JSON: REST sends the stored bytes as they are, with the headers res.json would
 * set. res.json of the handler's value gives the same bytes, after a parse and a re-serialisation per request.
 */
const STORED_JSON = new Map<AnyTool, (args: never, ctx: ToolContext) => Promise<Buffer>>([[getScan, getScanJson]]);

/** Runs a middleware inside a handler, so that its refusal (next(err)) becomes a throw. */
export function runGuard(guard: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    Promise.resolve(guard(req, res, (err?: unknown) => (err ? reject(err) : resolve()))).catch(reject);
  });
}

function handle(route: RouteDef, deps: RouterDeps) {
  const countCall = deps.guards.limit(route.limit);
  return async (req: Request, res: Response) => {
    const parsed = route.tool.input.safeParse(route.args(req));
    if (!parsed.success) {
      throw route.onInvalid?.(parsed.error.issues) ?? new AppError('INVALID_PARAMS', describeIssues(parsed.error.issues));
    }
    const ctx = toolContext(req, res, deps, route.tool.annotations.openWorldHint);
    const hold = route.tool.preflight?.(parsed.data, ctx);
    try {
      // Counted only now that the call is known to be good: refused calls never spend quota.
      await runGuard(countCall, req, res);
      const stored = route.send ? undefined : STORED_JSON.get(route.tool);
      if (stored) {
        const json = await stored(parsed.data as never, ctx);
        if (res.headersSent || res.destroyed) return;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.send(json);
        return;
      }
      const data = await route.tool.handler(parsed.data, ctx);
      if (res.headersSent || res.destroyed) return;
      if (route.send) route.send(res, data);
      else res.json(data);
    } finally {
      hold?.release();
    }
  };
}

export function apiRouter(deps: RouterDeps): Router {
  const router = Router({ strict: false, caseSensitive: true });
  const methodsByPath = new Map<string, string[]>();
  const scanPaths = new Set<string>();
  const sameSiteOnly: RequestHandler = (req, _res, next) => next(crossSiteRefusal(req, deps.config.BASE_URL) ?? undefined);
  for (const route of deps.routes ?? ROUTES) {
    const path = expressPath(route.path);
    const body = route.method === 'post' ? [express.json({ limit: route.bodyLimit ?? '1mb', strict: true })] : [];
    // A browser on another site must not start scans (before auth, work or quota); reads stay open to all.
    const guard = route.limit === 'scan' ? [sameSiteOnly] : [];
    const deprecated = deprecationMiddleware(route, deps.config.BASE_URL);
    if (route.limit === 'scan') {
      // Express answers HEAD with the GET handler: a link checker's HEAD would run a whole scan. Refused first.
      scanPaths.add(path);
      router.head(path, methodNotAllowed(['GET'], false));
    }
    router[route.method](path, ...guard, ...deprecated, deps.guards.auth(route.auth), ...body, handle(route, deps), refusedUncounted(deps, route));
    methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), route.method.toUpperCase()]);
  }
  for (const [path, methods] of methodsByPath) router.all(path, methodNotAllowed(methods, !scanPaths.has(path)));
  return router;
}

/** A refusal that came before the call was counted still tells the caller where its quota stands. */
function refusedUncounted(deps: RouterDeps, route: RouteDef) {
  const peek = deps.guards.peek(route.limit);
  return (err: unknown, req: Request, res: Response, next: NextFunction) => {
    void peek(req, res, () => next(err));
  };
}

/** 405 with Allow. GET paths also allow HEAD, unless a HEAD would start work the way a GET does (`head` false). */
export function methodNotAllowed(methods: string[], head = true) {
  const allow = head && methods.includes('GET') ? [...methods, 'HEAD'] : methods;
  return (req: Request, _res: Response, next: (err: unknown) => void) => {
    next(
      new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed here; use ${allow.join(' or ')}.`, undefined, {
        Allow: allow.join(', '),
      }),
    );
  };
}
