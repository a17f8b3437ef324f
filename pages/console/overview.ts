// The console's overview: scans used this hour and in the last 30 days against the Pro limits, read from the
// limiters' own counters (so the figures are what the RateLimit headers of the next scan say), the latest
// scans, and the scans this browser ran before signing in, offered to the account (attach-scans.ts).
import type { RequestHandler } from 'express';
import type { Repository } from '../../db/repo.js';
import type { Guards } from '../../http/guards.js';
import { bar, html, plural, type SafeHtml } from '../html.js';
import { consolePage, sendConsolePage } from './layout.js';
import { signedIn } from './session.js';
import { scansTable } from './scans.js';
import { attachedNotice, scansBeforeSignInSection } from './attach-scans.js';
import type { ScansCookieDeps } from './scans-before-sign-in.js';

export function overviewPage(deps: { db: Repository; guards: Guards } & ScansCookieDeps): RequestHandler {
  return async (req, res) => {
    const who = signedIn(res)!;
    const [usage, recent, claims, monitors, endpoints, scansBefore] = await Promise.all([
      deps.guards.proUsage({ accountId: who.account.id, keyId: null }),
      deps.db.accounts.scansOfAccount(who.account.id, { limit: 5 }),
      deps.db.monitoring.listClaims(who.account.id),
      deps.db.monitoring.listMonitors(who.account.id),
      deps.db.monitoring.listEndpoints(who.account.id),
      scansBeforeSignInSection(req, deps, who),
    ]);
    const steps = gettingStarted({ verified: claims.some((c) => c.verifiedAt), monitored: monitors.length > 0, hooked: endpoints.length > 0 });
    const meter = (id: string, label: string, u: { used: number; limit: number; resetSeconds: number }, resets: string) =>
      html`<div class="card" id="${id}">
  <h2>${label}</h2>
  <p><strong class="usage-used">${u.used}</strong> of <span class="usage-limit">${u.limit}</span> scans used · <span class="usage-remaining">${Math.max(u.limit - u.used, 0)}</span> left</p>
  ${bar(u.used, u.limit, 'ratio-mid', `${u.used} of ${u.limit}`)}
  <p class="muted small">${resets}</p>
</div>`;
    sendConsolePage(
      res,
      consolePage('Overview', who, 'overview', html`<h1>Overview</h1>
${attachedNotice(req.query.attached)}
${scansBefore}
${steps}
<p>Scans made with any of your API keys and scans you start on this site while signed in share these Pro limits.</p>
<div class="usage-grid">
  ${meter('usage-hour', 'This hour', usage.hour, `The hourly count starts again in ${plural(Math.max(1, Math.ceil(usage.hour.resetSeconds / 60)), 'minute')}.`)}
  ${meter('usage-30d', 'Last 30 days', usage.days30, 'A rolling 30 days: each day’s scans stop counting 30 days later.')}
</div>
<h2>Latest scans</h2>
${scansTable(recent)}
<p><a href="/console/scans">All scans</a> · <a href="/console/keys">API keys</a> · <a href="/">Scan a store</a></p>`),
    );
  };
}

/** Until all three are done, the overview leads a new merchant: claim and verify a store, monitor it, get webhooks. */
function gettingStarted(done: { verified: boolean; monitored: boolean; hooked: boolean }): SafeHtml {
  if (done.verified && done.monitored && done.hooked) return html``;
  const step = (isDone: boolean, href: string, title: string, text: string) =>
    html`<li class="${isDone ? 'step-done' : ''}"><div><strong>${isDone ? html`<span class="visually-hidden">Done: </span>` : ''}<a href="${href}">${title}</a></strong><span>${text}</span></div></li>`;
  return html`<section class="card getting-started" aria-labelledby="start-h" data-testid="getting-started">
  <h2 id="start-h">Get started</h2>
  <ol class="steps">
    ${step(done.verified, '/console/stores', 'Claim your store', 'Prove you own it with a token on your home page: your report then shows “Owner verified”.')}
    ${step(done.monitored, '/console/monitors', 'Monitor it', 'We re-scan it every day or week, so you see when a change costs you points.')}
    ${step(done.hooked, '/console/webhooks', 'Get told by webhook', 'Each scan can call your endpoint: alert your team or your tools when the score drops.')}
  </ol>
</section>`;
}
