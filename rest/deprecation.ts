// Deprecation as data (docs/decisions.md "API"): a route-table row carrying `deprecated` answers with Deprecation (RFC
// 9745) and Sunset (RFC 8594) headers and a successor-version link; the same row marks OpenAPI, the discovery document
// and llms.txt. A row whose sunset comes less than 6 months after its deprecation stops the app at start-up.
import type { Request, RequestHandler } from 'express';
import type { Deprecation, RouteDef } from './routes.js';
import { CHANGELOG_PATH } from '../lib/links.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function day(value: string, what: string): Date {
  const d = new Date(`${value}T00:00:00Z`);
  if (!DATE.test(value) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) {
    throw new Error(`${what} must be a calendar date (YYYY-MM-DD), got "${value}".`);
  }
  return d;
}

/** Throws when a row's deprecation could not keep the spec's promise of at least 6 months of service. */
export function checkDeprecation(route: Pick<RouteDef, 'method' | 'path' | 'deprecated'>): void {
  const dep = route.deprecated;
  if (!dep) return;
  const name = `${route.method.toUpperCase()} ${route.path}`;
  const since = day(dep.since, `${name}: deprecated.since`);
  const sunset = day(dep.sunset, `${name}: deprecated.sunset`);
  const earliest = new Date(since);
  earliest.setUTCMonth(earliest.getUTCMonth() + 6);
  if (sunset < earliest) throw new Error(`${name}: the sunset (${dep.sunset}) must be at least 6 months after ${dep.since}.`);
  if (!dep.successor.startsWith('/')) throw new Error(`${name}: deprecated.successor must be a path of this service.`);
}

/** "/api/v2/scan/{scan_id}.json" with the request's own parameters filled in. */
function successorUrl(dep: Deprecation, baseUrl: string, params: Request['params'] = {}): string {
  const path = dep.successor.replace(/\{([a-z_]+)\}/g, (m, name: string) => {
    const value = (params as Record<string, unknown>)[name];
    return typeof value === 'string' ? encodeURIComponent(value) : m;
  });
  return `${baseUrl}${path}`;
}

/** The three response headers of a deprecated endpoint. */
export function deprecationHeaders(dep: Deprecation, baseUrl: string, params?: Request['params']): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(day(dep.since, 'since').getTime() / 1000)}`, // RFC 9745: a Structured Field Date
    Sunset: day(dep.sunset, 'sunset').toUTCString(), // RFC 8594: an HTTP-date
    Link: `<${successorUrl(dep, baseUrl, params)}>; rel="successor-version", <${baseUrl}${CHANGELOG_PATH}>; rel="deprecation"; type="text/markdown"`,
  };
}

/** Runs first on a deprecated row, so every answer (401 and 429 included) carries the headers. */
export function deprecationMiddleware(route: RouteDef, baseUrl: string): RequestHandler[] {
  const dep = route.deprecated;
  if (!dep) return [];
  checkDeprecation(route);
  return [
    (req, res, next) => {
      for (const [name, value] of Object.entries(deprecationHeaders(dep, baseUrl, req.params))) res.append(name, value);
      next();
    },
  ];
}

/** One sentence for people and agents: llms.txt and the OpenAPI description. */
export function deprecationNote(dep: Deprecation): string {
  return `Deprecated since ${dep.since}; it keeps working until ${dep.sunset}, then it is removed. Use ${dep.successor} instead.`;
}
