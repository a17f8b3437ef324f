// The monitors page: the account's monitored hosts (daily or weekly re-scans, at most 10), each with its last run
// and next due time, a form to add one for a verified store, and a remove button.
import { Router } from 'express';
import type { Repository } from '../../db/repo.js';
import type { Config } from '../../lib/config.js';
import { AppError } from '../../lib/errors.js';
import { addMonitor, MAX_MONITORS_PER_ACCOUNT } from '../../monitoring/monitors.js';
import type { Monitor } from '../../db/monitoring-repo.js';
import { formatTime, html, type SafeHtml } from '../html.js';
import { consolePage, sendConsolePage } from './layout.js';
import { csrfField, requireAccount, sameSiteForm, signedIn, type ConsoleLocals, formFields } from './session.js';

function monitorsTable(monitors: Monitor[], csrf: string): SafeHtml {
  if (monitors.length === 0) return html`<p class="empty">No monitored stores yet.</p>`;
  return html`<div class="table-wrap"><table class="ranking console-monitors">
<thead><tr><th scope="col">Store</th><th scope="col">Every</th><th scope="col">Last run</th><th scope="col">Next run</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>
${monitors.map(
  (m) => html`<tr data-monitor-id="${m.id}">
  <td>${m.host}</td>
  <td>${m.cadence === 'daily' ? 'day' : 'week'}</td>
  <td>${m.lastRunAt
    ? html`${formatTime(m.lastRunAt)}: ${m.lastScanId && m.lastOutcome === 'scanned' ? html`<a href="/r/${m.lastScanId}">scanned</a>` : m.lastOutcome}`
    : html`<span class="muted">not yet</span>`}</td>
  <td>${formatTime(m.nextRunAt)}</td>
  <td><form method="post" action="/console/monitors/remove">${csrfField(csrf)}<input type="hidden" name="id" value="${m.id}"><button class="button button-quiet" type="submit">Remove</button></form></td>
</tr>`,
)}
</tbody></table></div>`;
}

async function renderMonitors(db: Repository, who: ConsoleLocals, error?: string): Promise<SafeHtml> {
  const [monitors, claims] = await Promise.all([db.monitoring.listMonitors(who.account.id), db.monitoring.listClaims(who.account.id)]);
  const monitored = new Set(monitors.map((m) => m.host));
  const candidates = claims.filter((c) => c.verifiedAt && !monitored.has(c.host));
  return consolePage('Monitors', who, 'monitors', html`<h1>Monitors</h1>
<p>A monitored store is re-scanned on schedule with your Pro quota (a run is skipped, and says so, when the quota is used up). Each scan appears in your history and sends your webhooks.</p>
${error ? html`<p class="alert alert-error" role="alert">${error}</p>` : ''}
${monitorsTable(monitors, who.csrf)}
<h2>Monitor a store</h2>
<p class="muted">${monitors.length} of ${MAX_MONITORS_PER_ACCOUNT} monitors in use. Only stores you have <a href="/console/stores">verified</a> can be monitored.</p>
${candidates.length === 0
  ? html`<p class="empty">No verified store left to monitor.</p>`
  : html`<form method="post" action="/console/monitors">
  ${csrfField(who.csrf)}
  <div class="field"><label for="host">Store</label> <select id="host" name="host">${candidates.map((c) => html`<option value="${c.host}">${c.host}</option>`)}</select></div>
  <div class="field"><label for="cadence">Re-scan every</label> <select id="cadence" name="cadence"><option value="daily">day</option><option value="weekly" selected>week</option></select></div>
  <p><button class="button button-primary" type="submit">Start monitoring</button></p>
</form>`}`);
}

export function monitorsRouter(deps: { db: Repository; config: Config }): Router {
  const { db, config } = deps;
  const router = Router();
  const form = sameSiteForm(config.BASE_URL, { csrf: true });

  router.get('/console/monitors', requireAccount, async (_req, res) => {
    sendConsolePage(res, await renderMonitors(db, signedIn(res)!));
  });

  router.post('/console/monitors', requireAccount, form, async (req, res) => {
    const who = signedIn(res)!;
    try {
      await addMonitor({ db }, who.account.id, { host: String(formFields(req).host ?? ''), cadence: formFields(req).cadence });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return sendConsolePage(res, await renderMonitors(db, who, err.message), { status: 400 });
    }
    res.redirect(303, '/console/monitors');
  });

  router.post('/console/monitors/remove', requireAccount, form, async (req, res) => {
    const who = signedIn(res)!;
    const removed = await db.monitoring.removeMonitor(who.account.id, String(formFields(req).id ?? ''));
    if (!removed) return sendConsolePage(res, await renderMonitors(db, who, 'There is no such monitor in this account.'), { status: 404 });
    res.redirect(303, '/console/monitors');
  });
  return router;
}
