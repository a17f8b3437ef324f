// What a store's answer asks of a polite crawler: 429 Too Many Requests and 503 Service Unavailable mean "come back
// later", at the time Retry-After says (seconds or an HTTP date), else in a minute; never longer than an hour. And
// how a page that could not be read is reported.
import type { Resource } from '../outbound/resource.js';

const DEFAULT_WAIT_MS = 60_000;
const MAX_WAIT_MS = 3_600_000;

export function retryAfterMs(r: Resource, now: Date): number | null {
  const status = r.res?.status;
  if (status !== 429 && status !== 503) return null;
  const header = (r.res?.headers['retry-after'] ?? '').trim();
  let ms = DEFAULT_WAIT_MS;
  if (/^\d{1,9}$/.test(header)) ms = Number(header) * 1000;
  else if (header !== '' && Number.isFinite(Date.parse(header))) ms = Date.parse(header) - now.getTime();
  return Math.min(MAX_WAIT_MS, Math.max(0, ms));
}

export function describeFailure(r: Resource): string {
  if (r.ok) return '';
  const status = r.res?.status;
  if (status !== undefined && status >= 300 && status < 400) return `redirects (HTTP ${status}) to ${(r.res?.headers.location ?? '?').slice(0, 200)}: list the final URL in the sitemap`;
  return r.detail.slice(0, 200);
}
