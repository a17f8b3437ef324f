// Webhook endpoints of an account: added with a URL the scanner's address rules accept (https only unless
// SCAN_ALLOW_PRIVATE), a whsec_ secret shown once, events to send, rotation that keeps the old secret signing for
// 24 hours, test events and resends (rate-limited per account). A refused request changes nothing stored.
import { randomUUID } from 'node:crypto';
import { AppError } from '../lib/errors.js';
import type { Config } from '../lib/config.js';
import { targetRefusal } from '../outbound/url.js';
import { periodOf, type Repository } from '../db/repo.js';
import type { Delivery, WebhookEndpoint } from '../db/monitoring-repo.js';
import { EVENT_TYPES, TEST_EVENT_TYPE, bodyOf, type EventType } from './events.js';
import { newWebhookSecret, type SecretBox } from './secrets.js';

export const MAX_ENDPOINTS_PER_ACCOUNT = 10;
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
const MAX_URL_LENGTH = 2048;
/** Test events and resends together, per account and window: plenty to debug a receiver, too few to flood the queue. */
export const MANUAL_SENDS_PER_WINDOW = 10;
export const MANUAL_SEND_WINDOW_MS = 10 * 60_000;

export interface EndpointDeps {
  db: Repository;
  config: Pick<Config, 'SCAN_ALLOW_PRIVATE'>;
  box: SecretBox;
  now?: () => Date;
  /** Test seam: addresses allowed while everything else is judged as in production (as for scans). */
  allowIPAddressList?: string[];
}

const invalid = (message: string) => new AppError('INVALID_PARAMS', message);

/** The endpoint URL, or a refusal that says why. The delivery re-checks every resolved address at connect time. */
export function endpointUrl(raw: string, deps: Pick<EndpointDeps, 'config' | 'allowIPAddressList'>): URL {
  const input = typeof raw === 'string' ? raw.trim() : '';
  if (input === '') throw invalid('Give the URL that should receive the webhooks, e.g. https://example.com/hooks/store-readiness.');
  if (input.length > MAX_URL_LENGTH) throw invalid(`The URL is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw invalid('This is not a valid URL; give a full address starting with https://.');
  }
  const allowPrivate = deps.config.SCAN_ALLOW_PRIVATE;
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw invalid('Webhook URLs must use https:// so that events travel encrypted.');
  }
  if (url.hash !== '') throw invalid('A webhook URL cannot have a #fragment.');
  const why = targetRefusal(url, {
    allowPrivate,
    allowedPorts: allowPrivate || deps.allowIPAddressList?.length ? 'any' : [443],
    allowIPAddressList: deps.allowIPAddressList,
  });
  if (why) throw invalid(`This webhook URL is refused: ${why}.`);
  return url;
}

export function eventList(raw: unknown): EventType[] {
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  const unknown = list.filter((e) => !(EVENT_TYPES as readonly unknown[]).includes(e));
  if (unknown.length > 0) throw invalid(`Unknown event type ${String(unknown[0]).slice(0, 40)}; choose from ${EVENT_TYPES.join(', ')}.`);
  if (list.length === 0) throw invalid(`Pick at least one event: ${EVENT_TYPES.join(', ')}.`);
  return EVENT_TYPES.filter((e) => list.includes(e));
}

/** Adds an endpoint; the secret is returned here once and stored only encrypted. */
export async function addEndpoint(
  deps: EndpointDeps,
  accountId: string,
  input: { url: string; events: unknown },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = endpointUrl(input.url, deps);
  const events = eventList(input.events);
  const existing = await deps.db.monitoring.listEndpoints(accountId);
  if (existing.length >= MAX_ENDPOINTS_PER_ACCOUNT) throw invalid(`An account can have at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints.`);
  const id = `ep_${randomUUID().replace(/-/g, '')}`;
  const secret = newWebhookSecret();
  const endpoint: WebhookEndpoint = {
    id,
    accountId,
    url: url.href,
    events,
    secretEnc: deps.box.seal(secret, id),
    previousSecretEnc: null,
    previousSecretUntil: null,
    createdAt: (deps.now ?? (() => new Date()))(),
    disabledAt: null,
    disabledReason: null,
    failingSince: null,
  };
  await deps.db.monitoring.addEndpoint(endpoint);
  return { endpoint, secret };
}

export async function ownEndpoint(deps: Pick<EndpointDeps, 'db'>, accountId: string, id: string): Promise<WebhookEndpoint> {
  const endpoint = typeof id === 'string' ? await deps.db.monitoring.getEndpoint(id) : null;
  if (!endpoint || endpoint.accountId !== accountId) throw new AppError('NOT_FOUND', 'No such webhook endpoint in this account.');
  return endpoint;
}

/** A new secret; the old one keeps signing (a second signature) for 24 hours. Returned once. */
export async function rotateSecret(deps: EndpointDeps, accountId: string, id: string): Promise<{ secret: string; previousValidUntil: Date }> {
  const endpoint = await ownEndpoint(deps, accountId, id);
  const now = (deps.now ?? (() => new Date()))();
  const secret = newWebhookSecret();
  const previousValidUntil = new Date(now.getTime() + ROTATION_OVERLAP_MS);
  await deps.db.monitoring.updateEndpoint({
    ...endpoint,
    secretEnc: deps.box.seal(secret, id),
    previousSecretEnc: endpoint.secretEnc,
    previousSecretUntil: previousValidUntil,
  });
  return { secret, previousValidUntil };
}

export async function setEvents(deps: EndpointDeps, accountId: string, id: string, events: unknown): Promise<WebhookEndpoint> {
  const endpoint = await ownEndpoint(deps, accountId, id);
  const updated = { ...endpoint, events: eventList(events) };
  await deps.db.monitoring.updateEndpoint(updated);
  return updated;
}

/** Turns a disabled endpoint back on: deliveries start again with the next event. */
export async function enableEndpoint(deps: EndpointDeps, accountId: string, id: string): Promise<void> {
  const endpoint = await ownEndpoint(deps, accountId, id);
  await deps.db.monitoring.updateEndpoint({ ...endpoint, disabledAt: null, disabledReason: null, failingSince: null });
}

/** The secrets that sign now: the current one, and the previous one during a rotation. */
export function signingSecrets(endpoint: WebhookEndpoint, box: SecretBox, now: Date): string[] {
  const secrets = [box.open(endpoint.secretEnc, endpoint.id)];
  if (endpoint.previousSecretEnc && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now) {
    secrets.push(box.open(endpoint.previousSecretEnc, endpoint.id));
  }
  return secrets;
}

/**
 * Spends one of the account's manual sends of this window, or refuses with RATE_LIMITED and Retry-After (the
 * window's end). The counter is taken back on refusal, so a refused press changes nothing stored.
 */
async function spendManualSend(db: Repository, accountId: string, now: Date): Promise<void> {
  const end = (Math.floor(now.getTime() / MANUAL_SEND_WINDOW_MS) + 1) * MANUAL_SEND_WINDOW_MS;
  const key = `webhook-manual-send:${accountId}`;
  if ((await db.incrementUsage(key, periodOf(end))) <= MANUAL_SENDS_PER_WINDOW) return;
  await db.incrementUsage(key, periodOf(end), -1);
  const retryAfter = Math.max(1, Math.ceil((end - now.getTime()) / 1000));
  throw new AppError(
    'RATE_LIMITED',
    `An account sends at most ${MANUAL_SENDS_PER_WINDOW} test events and resends per ${MANUAL_SEND_WINDOW_MS / 60_000} minutes. Try again in ${Math.ceil(retryAfter / 60)} minutes.`,
    undefined,
    { 'Retry-After': String(retryAfter) },
  );
}

/** Queues a `webhook.test` event to the endpoint now, whatever events it picked. */
export async function sendTestEvent(deps: EndpointDeps, accountId: string, id: string): Promise<Delivery['id']> {
  const endpoint = await ownEndpoint(deps, accountId, id);
  const now = (deps.now ?? (() => new Date()))();
  await spendManualSend(deps.db, accountId, now);
  const messageId = `msg_test_${randomUUID().replace(/-/g, '')}`;
  const deliveryId = randomUUID();
  await deps.db.monitoring.addDelivery({
    id: deliveryId,
    dedupeKey: `${endpoint.id}:${messageId}`,
    endpointId: endpoint.id,
    messageId,
    eventType: TEST_EVENT_TYPE,
    payload: bodyOf(TEST_EVENT_TYPE, now, { endpoint_id: endpoint.id, message: 'A test event from store-readiness.' }),
    nextAttemptAt: now,
    createdAt: now,
  });
  return deliveryId;
}

/** Sends a delivered or failed message again, with the same webhook-id and body (receivers dedupe on the id). */
export async function resend(deps: EndpointDeps, accountId: string, deliveryId: string): Promise<Delivery['id']> {
  const original = typeof deliveryId === 'string' ? await deps.db.monitoring.getDelivery(deliveryId) : null;
  if (!original) throw new AppError('NOT_FOUND', 'No such delivery (deliveries are kept 30 days).');
  await ownEndpoint(deps, accountId, original.endpointId);
  const now = (deps.now ?? (() => new Date()))();
  await spendManualSend(deps.db, accountId, now);
  const id = randomUUID();
  await deps.db.monitoring.addDelivery({
    id,
    endpointId: original.endpointId,
    messageId: original.messageId,
    eventType: original.eventType,
    payload: original.payload,
    dedupeKey: `${original.endpointId}:${original.messageId}:resend:${id}`,
    nextAttemptAt: now,
    createdAt: now,
  });
  return id;
}
