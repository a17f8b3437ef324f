// Reading fetched resources: the final URL, the response (also of a failed fetch that got one), status, headers
// and a JSON body.
import type { HttpResponse, Resource } from '../artifacts.js';

export function resourceUrl(r: Resource): string {
  return r.ok ? r.res.url : (r.res?.url ?? r.url);
}

export function responseOf(r: Resource | null | undefined): HttpResponse | null {
  if (!r) return null;
  return r.ok ? r.res : (r.res ?? null);
}

export function statusOf(r: Resource | null | undefined): number | null {
  return responseOf(r)?.status ?? null;
}

export function is2xx(status: number | null | undefined): boolean {
  return typeof status === 'number' && status >= 200 && status < 300;
}

/** A header value for evidence, or "" when absent. */
export function header(res: HttpResponse | null, name: string): string {
  return res?.headers[name.toLowerCase()] ?? '';
}

/** The parsed JSON of a resource: gather's parse, else a parse of the body when it looks like JSON. */
export function jsonOf(r: Resource, parsed: unknown): unknown {
  if (parsed !== null && parsed !== undefined) return parsed;
  const res = responseOf(r);
  if (!res || !is2xx(res.status)) return null;
  const body = res.body.trim();
  if (!body.startsWith('{') && !body.startsWith('[')) return null;
  if (body.length > 1_000_000) return null;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return null;
  }
}

export function isJsonType(contentType: string): boolean {
  return contentType === 'application/json' || contentType.endsWith('+json');
}
