// Turns the route table into an express router: auth → read the arguments → tools/invoke.ts (validate, preflight,
// count the call against the route's limiter, handler) → send. A call refused before it
// is counted costs no quota but still carries the limiter's RateLimit headers. Known paths with another
// method answer 405 with Allow. No try/catch: express 5 sends async throws to the error middleware.
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { crossSiteRefusal } from '../lib/cross-site.js';
import { invoke } from '../tools/invoke.js';
import type { SurfaceDeps } from '../http/guards.js';
import { requestContext, runGuard } from '../http/request-context.js';
import { methodNotAllowed } from '../http/method-not-allowed.js';
import { ROUTES, expressPath, type RouteDef } from './routes.js';
import { deprecationMiddleware } from './deprecation.js';

export interface RouterDeps extends SurfaceDeps {
  /** The route table; tests add rows (a deprecated one), production uses ROUTES. */
  routes?: RouteDef[];
}

function handle(route: RouteDef, deps: RouterDeps) {
  const countCall = deps.guards.limit(route.limit);
  return async (req: Request, res: Response) => {
    const answer = await invoke(route.tool, route.args(req), {
      context: () => requestContext(req, res, deps, route.tool.annotations.openWorldHint),
      count: () => runGuard(countCall, req, res),
      invalid: route.onInvalid,
      stored: !route.send, // a stored answer goes out as its bytes, with the headers res.json would set
    });
    if (res.headersSent || res.destroyed) return;
    if (answer.json) res.setHeader('Content-Type', 'application/json; charset=utf-8').send(answer.json);
    else if (route.send) route.send(res, answer.value);
    else res.json(answer.value);
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
