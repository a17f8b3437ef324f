// One request of background crawling, under the scanner's address rules and caps: a fetcher of its own (budget of one
// request and its redirect hops, a deadline, the byte caps), never a second request in flight for the same turn.
import type { Config } from '../lib/config.js';
import { createFetcher, type FetchOptions, type LookupFunction } from '../outbound/fetch.js';
import type { Resource } from '../outbound/resource.js';

/** Test seams, as for scans (injected DNS, an address allow-list); never set in production. */
export interface CrawlOverrides {
  lookup?: LookupFunction;
  allowIPAddressList?: string[];
}

/** Wall time one crawl request may take, redirects included. */
export const CRAWL_REQUEST_MS = 15_000;

export function fetchOne(
  url: string,
  opts: FetchOptions,
  deps: { config: Pick<Config, 'SCAN_ALLOW_PRIVATE' | 'BASE_URL'>; overrides?: CrawlOverrides; redirects?: number },
): Promise<Resource> {
  const redirects = deps.redirects ?? 0;
  const fetcher = createFetcher({
    allowPrivate: deps.config.SCAN_ALLOW_PRIVATE,
    allowIPAddressList: deps.overrides?.allowIPAddressList,
    allowedPorts: deps.config.SCAN_ALLOW_PRIVATE || deps.overrides?.allowIPAddressList?.length ? 'any' : undefined,
    lookup: deps.overrides?.lookup,
    maxRequests: 1 + redirects,
    maxRedirects: redirects,
    deadlineMs: CRAWL_REQUEST_MS,
    requestTimeoutMs: CRAWL_REQUEST_MS,
    concurrency: 1,
    baseUrl: deps.config.BASE_URL,
  });
  return fetcher.fetch(url, redirects === 0 ? { ...opts, followRedirect: false } : opts);
}
