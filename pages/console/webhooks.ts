// The webhooks page: the account's endpoints, a form to add one (its secret shown once), and per endpoint a page
// with its events, secret rotation, "Send test event", turning it back on, removal, and its last 100 deliveries
// (event, attempt, status, duration) each with "Resend". The format is documented at /webhooks.md.
import { Router, type Response } from 'express';
import type { Repository } from '../../db/repo.js';
import type { Config } from '../../lib/config.js';
import { AppError } from '../../lib/errors.js';
import { ATTEMPTS_KEPT_PER_ENDPOINT, type WebhookEndpoint } from '../../db/monitoring-repo.js';
import { addEndpoint, enableEndpoint, MAX_ENDPOINTS_PER_ACCOUNT, ownEndpoint, resend, rotateSecret, sendTestEvent, setEvents } from '../../monitoring/endpoints.js';
import type { SecretBox } from '../../monitoring/secrets.js';
import { EVENT_DESCRIPTIONS, EVENT_TYPES } from '../../schemas/webhook-event.js';
import { formatDate, formatTime, html, type SafeHtml } from '../html.js';
import { consolePage, sendConsolePage } from './layout.js';
import { csrfField, requireAccount, sameSiteForm, signedIn, type ConsoleLocals, formFields } from './session.js';

const ENDPOINT_ID = /^ep_[0-9a-f]{32}$/;

interface Notice {
  error?: string;
  ok?: string;
  secret?: { value: string; note: string };
}

function notice(n: Notice): SafeHtml {
  return html`${n.error ? html`<p class="alert alert-error" role="alert">${n.error}</p>` : ''}
${n.ok ? html`<p class="alert alert-ok" role="status">${n.ok}</p>` : ''}
${n.secret
  ? html`<div class="card" id="new-secret" role="status">
  <h2>Signing secret</h2>
  <p>${n.secret.note} Copy it now: it is shown only this once.</p>
  <p><input class="key-once" id="new-secret-value" data-testid="webhook-secret" readonly value="${n.secret.value}" aria-label="Signing secret"> <button class="button" type="button" data-copy="new-secret-value">Copy</button></p>
</div>`
  : ''}`;
}

function eventBoxes(checked: readonly string[]): SafeHtml {
  return html`<fieldset class="field"><legend>Events</legend>
${EVENT_TYPES.map((t) => html`<label class="check-option"><input type="checkbox" name="events" value="${t}"${checked.includes(t) ? html` checked` : ''}> <code>${t}</code> <span class="muted">${EVENT_DESCRIPTIONS[t]}</span></label><br>`)}
</fieldset>`;
}

const state = (e: WebhookEndpoint): SafeHtml =>
  e.disabledAt ? html`<span class="status status-fail">disabled ${formatDate(e.disabledAt)}: ${e.disabledReason ?? ''}</span>` : html`<span class="status status-pass">active</span>`;

async function renderList(db: Repository, who: ConsoleLocals, n: Notice = {}): Promise<SafeHtml> {
  const endpoints = await db.monitoring.listEndpoints(who.account.id);
  return consolePage('Webhooks', who, 'webhooks', html`<h1>Webhooks</h1>
<p>Every scan of a store you have <a href="/console/stores">verified</a>, by anyone, can send events to your endpoints, signed per Standard Webhooks. See <a href="/webhooks.md">the webhook format</a>.</p>
${notice(n)}
${endpoints.length === 0
  ? html`<p class="empty">No endpoints yet.</p>`
  : html`<div class="table-wrap"><table class="ranking console-webhooks">
<thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${endpoints.map((e) => html`<tr data-endpoint-id="${e.id}"><td><code>${e.url}</code></td><td>${e.events.join(', ')}</td><td>${state(e)}</td><td><a class="button button-quiet" href="/console/webhooks/${e.id}">Deliveries and settings</a></td></tr>`)}</tbody>
</table></div>`}
<h2>Add an endpoint</h2>
<p class="muted">${endpoints.length} of ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints in use. An https:// URL on a public address; redirects are not followed.</p>
<form method="post" action="/console/webhooks">
  ${csrfField(who.csrf)}
  <div class="field"><label for="url">Endpoint URL</label> <input id="url" name="url" type="url" maxlength="2048" placeholder="https://example.com/hooks/store-readiness" required></div>
  ${eventBoxes(EVENT_TYPES)}
  <p><button class="button button-primary" type="submit">Add endpoint</button></p>
</form>`);
}

async function renderEndpoint(db: Repository, who: ConsoleLocals, endpoint: WebhookEndpoint, n: Notice = {}): Promise<SafeHtml> {
  const attempts = await db.monitoring.listAttempts(endpoint.id, ATTEMPTS_KEPT_PER_ENDPOINT);
  const post = (action: string, label: string, extra: SafeHtml | string = '', cls = 'button button-quiet') =>
    html`<form method="post" action="/console/webhooks/${endpoint.id}/${action}" class="inline-form">${csrfField(who.csrf)}${extra}<button class="${cls}" type="submit">${label}</button></form>`;
  return consolePage('Webhook endpoint', who, 'webhooks', html`<h1>Endpoint <code>${endpoint.url}</code></h1>
<p>${state(endpoint)} · created ${formatDate(endpoint.createdAt)}${endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date() ? html` · the previous secret also signs until ${formatTime(endpoint.previousSecretUntil)}` : ''}</p>
${notice(n)}
<p class="actions">
  ${post('test', 'Send test event', '', 'button')}
  ${post('rotate', 'Rotate secret')}
  ${endpoint.disabledAt ? post('enable', 'Turn on again') : ''}
  <a class="button button-danger-quiet" href="/console/webhooks/${endpoint.id}/delete">Remove endpoint</a>
</p>
<h2>Events</h2>
<form method="post" action="/console/webhooks/${endpoint.id}/events">
  ${csrfField(who.csrf)}
  ${eventBoxes(endpoint.events)}
  <p><button class="button" type="submit">Save events</button></p>
</form>
<h2>Last ${ATTEMPTS_KEPT_PER_ENDPOINT} deliveries</h2>
${attempts.length === 0
  ? html`<p class="empty">Nothing sent yet. Press "Send test event" to try your receiver.</p>`
  : html`<div class="table-wrap"><table class="ranking console-deliveries">
<thead><tr><th scope="col">Sent</th><th scope="col">Event</th><th scope="col" class="num">Attempt</th><th scope="col">Status</th><th scope="col" class="num">Duration</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${attempts.map((a) => html`<tr data-message-id="${a.messageId}">
  <td>${formatTime(a.at)}</td>
  <td><code>${a.eventType}</code></td>
  <td class="num">${a.attempt}</td>
  <td>${a.status !== null ? html`<span class="status ${a.status >= 200 && a.status < 300 ? 'status-pass' : 'status-fail'}">${a.status}</span> ` : ''}${a.outcome}</td>
  <td class="num">${a.durationMs} ms</td>
  <td>${post('resend', 'Resend', html`<input type="hidden" name="delivery" value="${a.deliveryId}">`)}</td>
</tr>`)}</tbody>
</table></div>`}`);
}

export function webhooksRouter(deps: { db: Repository; config: Config; box: SecretBox; wakeMonitoring?: () => void }): Router {
  const { db, config, box } = deps;
  const ep = { db, config, box };
  const router = Router();
  const form = sameSiteForm(config.BASE_URL, { csrf: true });
  const events = (req: { body?: unknown }) => formFields(req).events ?? [];

  /** The endpoint of the path if it is this account's; otherwise the list with a 404 message (and undefined). */
  async function endpointOf(res: Response, who: ConsoleLocals, id: string): Promise<WebhookEndpoint | undefined> {
    try {
      if (!ENDPOINT_ID.test(id)) throw new AppError('NOT_FOUND', 'No such webhook endpoint in this account.');
      return await ownEndpoint(ep, who.account.id, id);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      sendConsolePage(res, await renderList(db, who, { error: err.message }), { status: 404 });
      return undefined;
    }
  }

  router.get('/console/webhooks', requireAccount, async (req, res) => {
    const removed = req.query.removed === '1' ? { ok: 'The endpoint was removed: it receives no more events, and its pending deliveries were cancelled.' } : {};
    sendConsolePage(res, await renderList(db, signedIn(res)!, removed));
  });

  // The confirmation step of a removal: what goes with the endpoint, and a button that sends it.
  router.get('/console/webhooks/:id/delete', requireAccount, async (req, res) => {
    const who = signedIn(res)!;
    const endpoint = await endpointOf(res, who, String(req.params.id));
    if (!endpoint) return;
    const attempts = (await db.monitoring.listAttempts(endpoint.id, ATTEMPTS_KEPT_PER_ENDPOINT)).length;
    sendConsolePage(res, consolePage('Remove endpoint', who, 'webhooks', html`<section class="card confirm-card">
<h1>Remove the endpoint <code>${endpoint.url}</code>?</h1>
<p>It stops receiving events at once. Deliveries still waiting to be sent are cancelled, and its signing secret and its log of ${attempts === 1 ? '1 delivery' : `${attempts} deliveries`} are deleted. Your stores, monitors and other endpoints stay as they are. This cannot be undone; you can add the URL again later with a new secret.</p>
<form method="post" action="/console/webhooks/${endpoint.id}/delete">${csrfField(who.csrf)}
  <button class="button button-danger" type="submit">Remove endpoint</button> <a class="button button-quiet" href="/console/webhooks/${endpoint.id}">Keep it</a>
</form>
</section>`));
  });

  router.post('/console/webhooks', requireAccount, form, async (req, res) => {
    const who = signedIn(res)!;
    try {
      const { endpoint, secret } = await addEndpoint(ep, who.account.id, { url: String(formFields(req).url ?? ''), events: events(req) });
      sendConsolePage(res, await renderEndpoint(db, who, endpoint, { secret: { value: secret, note: 'Your receiver checks each message with this secret.' } }), { status: 201 });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      sendConsolePage(res, await renderList(db, who, { error: err.message }), { status: 400 });
    }
  });

  // A send answers with a redirect here (POST, redirect, GET): reloading shows the page again, and sends nothing.
  const sentNotice = (sent: unknown): Notice => {
    if (sent !== 'test' && sent !== 'resend') return {};
    const what = sent === 'test' ? 'A webhook.test event' : 'The delivery, with the same webhook-id,';
    const when = deps.wakeMonitoring
      ? 'is being sent now; reload in a moment to see the attempt below'
      : `is queued and goes out at the next pass of a monitoring worker (every ${Math.round(config.MONITOR_POLL_MS / 1000)} seconds); reload then to see the attempt below`;
    return { ok: `${what} ${when}.` };
  };

  router.get('/console/webhooks/:id', requireAccount, async (req, res) => {
    const who = signedIn(res)!;
    const endpoint = await endpointOf(res, who, String(req.params.id));
    if (endpoint) sendConsolePage(res, await renderEndpoint(db, who, endpoint, sentNotice(req.query.sent)));
  });

  const action = (name: string, run: (who: ConsoleLocals, endpoint: WebhookEndpoint, req: { body?: unknown }) => Promise<Notice | 'gone' | 'sent-test' | 'sent-resend'>) =>
    router.post(`/console/webhooks/:id/${name}`, requireAccount, form, async (req, res) => {
      const who = signedIn(res)!;
      const endpoint = await endpointOf(res, who, String(req.params.id));
      if (!endpoint) return;
      let outcome: Notice | 'gone' | 'sent-test' | 'sent-resend';
      try {
        outcome = await run(who, endpoint, req);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const status = err.code === 'NOT_FOUND' ? 404 : err.code === 'RATE_LIMITED' ? 429 : 400;
        return sendConsolePage(res, await renderEndpoint(db, who, endpoint, { error: err.message }), { status, headers: err.headers });
      }
      if (outcome === 'gone') return void res.redirect(303, '/console/webhooks?removed=1');
      if (outcome === 'sent-test' || outcome === 'sent-resend') {
        deps.wakeMonitoring?.();
        return void res.redirect(303, `/console/webhooks/${endpoint.id}?sent=${outcome.slice(5)}`);
      }
      sendConsolePage(res, await renderEndpoint(db, who, (await db.monitoring.getEndpoint(endpoint.id))!, outcome));
    });

  action('test', async (who, endpoint) => {
    await sendTestEvent(ep, who.account.id, endpoint.id);
    return 'sent-test';
  });
  action('rotate', async (who, endpoint) => {
    const { secret, previousValidUntil } = await rotateSecret(ep, who.account.id, endpoint.id);
    return { secret: { value: secret, note: `The previous secret keeps signing too until ${previousValidUntil.toISOString().slice(0, 16).replace('T', ' ')} UTC.` } };
  });
  action('events', async (who, endpoint, req) => {
    await setEvents(ep, who.account.id, endpoint.id, events(req));
    return { ok: 'Events saved.' };
  });
  action('enable', async (who, endpoint) => {
    await enableEndpoint(ep, who.account.id, endpoint.id);
    return { ok: 'The endpoint is on again: the next events will be sent.' };
  });
  action('resend', async (who, _endpoint, req) => {
    await resend(ep, who.account.id, String(formFields(req).delivery ?? ''));
    return 'sent-resend';
  });
  action('delete', async (who, endpoint) => {
    await db.monitoring.removeEndpoint(who.account.id, endpoint.id);
    return 'gone';
  });
  return router;
}
