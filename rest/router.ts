// Turns the route table into an express router: parse arguments → validate with the tool's zod input →
// call the handler → send. Known paths with another method answer 405 with Allow. No try/catch: express 5
// sends async throws to the error middleware.
import express, { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { AppError } from '../server/errors.js';
import type { Config } from '../server/config.js';
import type { StoreRepo } from '../store/repo.js';
import type { Caller, ToolContext } from '../tools/tool.js';
import { ROUTES, describeIssues, expressPath, type RouteDef } from './routes.js';
import type { Guards } from '../server/limits.js';

export interface RouterDeps {
  config: Config;
  store: StoreRepo;
  log: Logger;
  guards: Guards;
  scanOverrides?: ToolContext['scanOverrides'];
}

/** The per-request context handed to a tool; the signal aborts when the client goes away mid-request. */
export function toolContext(req: Request, res: Response, deps: RouterDeps): ToolContext {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  const caller: Caller = res.locals.caller ?? { kind: 'anonymous', keyId: null, ip: req.ip ?? '' };
  return {
    store: deps.store,
    config: deps.config,
    log: req.log ?? deps.log,
    caller,
    baseUrl: deps.config.BASE_URL,
    signal: controller.signal,
    scanOverrides: deps.scanOverrides,
  };
}

function handle(route: RouteDef, deps: RouterDeps) {
  return async (req: Request, res: Response) => {
    const parsed = route.tool.input.safeParse(route.args(req));
    if (!parsed.success) {
      throw route.onInvalid?.(parsed.error.issues) ?? new AppError('INVALID_PARAMS', describeIssues(parsed.error.issues));
    }
    const data = await route.tool.handler(parsed.data, toolContext(req, res, deps));
    if (res.headersSent || res.destroyed) return;
    if (route.send) route.send(res, data);
    else res.json(data);
  };
}

export function apiRouter(deps: RouterDeps): Router {
  const router = Router({ strict: false, caseSensitive: true });
  const methodsByPath = new Map<string, string[]>();
  for (const route of ROUTES) {
    const path = expressPath(route.path);
    const body = route.method === 'post' ? [express.json({ limit: route.bodyLimit ?? '1mb', strict: true })] : [];
    router[route.method](path, deps.guards.auth(route.auth), deps.guards.limit(route.limit), ...body, handle(route, deps));
    methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), route.method.toUpperCase()]);
  }
  for (const [path, methods] of methodsByPath) router.all(path, methodNotAllowed(methods));
  return router;
}

export function methodNotAllowed(methods: string[]) {
  const allow = methods.includes('GET') ? [...methods, 'HEAD'] : methods;
  return (req: Request, _res: Response, next: (err: unknown) => void) => {
    next(
      new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed here; use ${allow.join(' or ')}.`, undefined, {
        Allow: allow.join(', '),
      }),
    );
  };
}
