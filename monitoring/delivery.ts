// One delivery attempt: POST the fixed body with fresh Standard Webhooks headers through the scanner's fetcher
// (its address rules checked at connect time, no redirect followed, a time limit, the answer read only up to a
// small cap). Any 2xx is success; a 410 asks us to stop; anything else is a failure to retry.
import { performance } from 'node:perf_hooks';
import type { Config } from '../lib/config.js';
import { createFetcher, type LookupFunction } from '../outbound/fetch.js';
import { webhookHeaders } from './signing.js';

/** Bytes of a receiver's answer read at most: enough for an error line, never a download. */
export const ANSWER_CAP_BYTES = 4 * 1024;
export const WEBHOOK_USER_AGENT = 'store-readiness-webhooks/1.0 (+https://www.standardwebhooks.com/)';

/** The outcome recorded for a receiver that did not answer in time (the circuit breaker counts these). */
const TIMEOUT_OUTCOME = 'timeout after';
export const isTimeoutOutcome = (outcome: string): boolean => outcome.startsWith(`${TIMEOUT_OUTCOME} `);

export interface AttemptResult {
  ok: boolean;
  gone: boolean; // 410: the receiver asks us to stop
  status: number | null;
  outcome: string;
  durationMs: number;
}

export interface SendOptions {
  config: Pick<Config, 'SCAN_ALLOW_PRIVATE' | 'WEBHOOK_TIMEOUT_MS' | 'BASE_URL'>;
  /** Test seams, as for scans: injected DNS and an address allow-list. */
  lookup?: LookupFunction;
  allowIPAddressList?: string[];
}

export async function sendWebhook(
  url: string,
  message: { id: string; body: string },
  secrets: string[],
  at: Date,
  opts: SendOptions,
): Promise<AttemptResult> {
  const { config } = opts;
  const fetcher = createFetcher({
    allowPrivate: config.SCAN_ALLOW_PRIVATE,
    allowIPAddressList: opts.allowIPAddressList,
    allowedPorts: config.SCAN_ALLOW_PRIVATE || opts.allowIPAddressList?.length ? 'any' : [443],
    maxRequests: 1,
    maxRedirects: 0,
    deadlineMs: config.WEBHOOK_TIMEOUT_MS,
    requestTimeoutMs: config.WEBHOOK_TIMEOUT_MS,
    concurrency: 1,
    lookup: opts.lookup,
    baseUrl: config.BASE_URL,
  });
  const timestamp = Math.floor(at.getTime() / 1000);
  const started = performance.now();
  const resource = await fetcher.fetch(url, {
    method: 'POST',
    kind: 'text',
    accept: '*/*',
    body: message.body,
    maxBodyBytes: ANSWER_CAP_BYTES,
    headers: {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      ...webhookHeaders(secrets, message.id, timestamp, message.body),
    },
  });
  const durationMs = Math.round(performance.now() - started);
  const status = resource.res?.status ?? null;
  if (status !== null && status >= 200 && status < 300) return { ok: true, gone: false, status, outcome: 'delivered', durationMs };
  if (status === 410) return { ok: false, gone: true, status, outcome: 'HTTP 410 Gone: endpoint disabled', durationMs };
  if (status !== null && status >= 300 && status < 400) return { ok: false, gone: false, status, outcome: `HTTP ${status}: redirects are not followed`, durationMs };
  if (status !== null) return { ok: false, gone: false, status, outcome: `HTTP ${status}`, durationMs };
  const failure = resource.ok ? 'no answer' : resource.detail;
  const outcome = /redirect/i.test(failure) ? `redirect not followed (${failure})` : !resource.ok && resource.reason === 'timeout' ? `${TIMEOUT_OUTCOME} ${config.WEBHOOK_TIMEOUT_MS} ms` : !resource.ok && resource.reason === 'blocked' ? `refused: ${failure}` : failure;
  return { ok: false, gone: false, status: null, outcome: outcome.slice(0, 300), durationMs };
}
