// The console's overview: scans used this hour and in the last 30 days against the Pro limits, read from the
// limiters' own counters (so the figures are what the RateLimit headers of the next scan say), and the
// latest scans.
import type { RequestHandler } from 'express';
import type { StoreRepo } from '../../store/repo.js';
import type { Guards } from '../../rest/limits.js';
import { bar, html } from '../html.js';
import { consolePage, sendConsolePage } from './layout.js';
import { signedIn } from './session.js';
import { scansTable } from './scans.js';

export function overviewPage(deps: { store: StoreRepo; guards: Guards }): RequestHandler {
  return async (_req, res) => {
    const who = signedIn(res)!;
    const [usage, recent] = await Promise.all([
      deps.guards.proUsage({ accountId: who.account.id, keyId: null }),
      deps.store.accounts.scansOfAccount(who.account.id, { limit: 5 }),
    ]);
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
<p>Scans made with any of your API keys and scans you start on this site while signed in share these Pro limits.</p>
<div class="usage-grid">
  ${meter('usage-hour', 'This hour', usage.hour, `The hourly count starts again in ${Math.ceil(usage.hour.resetSeconds / 60)} minutes.`)}
  ${meter('usage-30d', 'Last 30 days', usage.days30, 'A rolling 30 days: each day’s scans stop counting 30 days later.')}
</div>
<h2>Latest scans</h2>
${scansTable(recent)}
<p><a href="/console/scans">All scans</a> · <a href="/console/keys">API keys</a> · <a href="/">Scan a store</a></p>`),
    );
  };
}
