// The circuit breaker of a webhook endpoint: one whose last BREAKER_TIMEOUTS attempts all timed out is paused for
// BREAKER_PAUSE_MS after the newest of them. Its deliveries wait (no attempt is spent, their retries are kept);
// when the pause ends, one delivery goes out as a probe (an endpoint has one in flight at most): an answer of any
// kind closes the breaker, another timeout pauses it again. A receiver that hangs thus costs one delivery slot
// for WEBHOOK_TIMEOUT_MS once per pause instead of once per message.
import type { DeliveryAttempt } from '../db/monitoring-repo.js';
import { isTimeoutOutcome } from './delivery.js';

export const BREAKER_TIMEOUTS = 3;
export const BREAKER_PAUSE_MS = 5 * 60_000;

/** When the endpoint may be tried again, from its newest attempts (newest first); null when it may be tried now. */
export function circuitOpenUntil(newestAttempts: readonly DeliveryAttempt[], now: Date): Date | null {
  const recent = newestAttempts.slice(0, BREAKER_TIMEOUTS);
  if (recent.length < BREAKER_TIMEOUTS || !recent.every((a) => isTimeoutOutcome(a.outcome))) return null;
  const until = new Date(recent[0].at.getTime() + BREAKER_PAUSE_MS);
  return until > now ? until : null;
}
