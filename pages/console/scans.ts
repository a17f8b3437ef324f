// The scans page: every scan run with one of the account's keys or from this site while signed in, newest
// first, 50 a page (keyset pages: one indexed read whatever the number of scans), with the change against the
// host's previous scan, filterable by host.
import type { RequestHandler } from 'express';
import type { Repository } from '../../db/repo.js';
import type { OwnedScan } from '../../db/accounts-repo.js';
import { formatTime, gradePill, html, type SafeHtml } from '../html.js';
import { consolePage, sendConsolePage } from './layout.js';
import { signedIn } from './session.js';
import { indexHost } from '../../lib/hosts.js';
import { scansCsv, sendCsv } from '../csv.js';

export const SCANS_PER_PAGE = 50;
/** The most scans one CSV download holds, newest first; read in keyset pages of EXPORT_BATCH. */
export const MAX_EXPORTED_SCANS = 10_000;
const EXPORT_BATCH = 500;

function delta(scan: OwnedScan): SafeHtml {
  if (scan.previousScore === null) return html`<span class="muted">first scan</span>`;
  const d = Math.round((scan.score - scan.previousScore) * 10) / 10;
  if (d === 0) return html`<span class="muted">±0</span>`;
  return d > 0 ? html`<span class="delta-up">+${d}</span>` : html`<span class="delta-down">${d}</span>`;
}

export function scansTable(scans: OwnedScan[]): SafeHtml {
  if (scans.length === 0) {
    return html`<p class="empty">No scans yet. Scan a store from <a href="/">the home page</a> while signed in, or call <code>GET /api/v1/scan</code> with one of your API keys.</p>`;
  }
  return html`<div class="table-wrap"><table class="ranking console-scans">
<thead><tr><th scope="col">Scanned</th><th scope="col">Store</th><th scope="col" class="num">Score</th><th scope="col">Grade</th><th scope="col" class="num">Change</th><th scope="col">Report</th></tr></thead>
<tbody>
${scans.map(
  (s) => html`<tr data-scan-id="${s.id}">
  <td>${formatTime(s.createdAt)}</td>
  <td class="store-host"><a href="/console/scans?host=${encodeURIComponent(s.host)}">${s.host}</a></td>
  <td class="num score">${s.score}</td>
  <td>${gradePill(s.grade)}</td>
  <td class="num">${delta(s)}</td>
  <td><a href="/r/${s.id}">Report ID ${s.id}</a></td>
</tr>`,
)}
</tbody></table></div>`;
}

/** The host filter as typed ("https://www.Shop.test/x" finds shop.test), or undefined when empty or not a host. */
function hostFilter(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '' || value.length > 300) return undefined;
  try {
    return indexHost(value.trim());
  } catch {
    return undefined;
  }
}

export function scansPage(deps: { db: Repository }): RequestHandler {
  return async (req, res) => {
    const who = signedIn(res)!;
    const host = hostFilter(req.query.host);
    const before = typeof req.query.before === 'string' && /^\d{1,15}$/.test(req.query.before) ? Number(req.query.before) : undefined;
    const rows = await deps.db.accounts.scansOfAccount(who.account.id, { host, beforeId: before, limit: SCANS_PER_PAGE + 1 });
    const page = rows.slice(0, SCANS_PER_PAGE);
    const more = rows.length > SCANS_PER_PAGE;
    const q = (extra: Record<string, string>) => new URLSearchParams({ ...(host ? { host } : {}), ...extra }).toString();
    sendConsolePage(
      res,
      consolePage('Scans', who, 'scans', html`<h1>Scans</h1>
<form class="filter" method="get" action="/console/scans">
  <label for="host">Store</label> <input id="host" name="host" value="${host ?? ''}" placeholder="your-store.example">
  <button class="button" type="submit">Filter</button>${host ? html` <a href="/console/scans">Show all stores</a>` : ''}
</form>
<p class="small"><a href="/console/scans.csv${host ? `?${q({})}` : ''}" download>Download ${host ? html`the scans of ${host}` : 'every scan'} as CSV</a> (newest first, at most ${MAX_EXPORTED_SCANS.toLocaleString('en')}).</p>
${scansTable(page)}
<nav class="pager" aria-label="Pages">
  ${before !== undefined ? html`<a href="/console/scans${host ? `?${q({})}` : ''}">Newest</a>` : ''}
  ${more ? html`<a rel="next" href="/console/scans?${q({ before: String(page[page.length - 1].id) })}">Older scans</a>` : ''}
</nav>`),
    );
  };
}

/** GET /console/scans.csv: the account's scans (the page's host filter applies), newest first, as CSV. */
export function scansCsvDownload(deps: { db: Repository; config: { BASE_URL: string } }): RequestHandler {
  return async (req, res) => {
    const who = signedIn(res)!;
    const host = hostFilter(req.query.host);
    const scans: OwnedScan[] = [];
    let beforeId: number | undefined;
    while (scans.length < MAX_EXPORTED_SCANS) {
      const batch = await deps.db.accounts.scansOfAccount(who.account.id, { host, beforeId, limit: Math.min(EXPORT_BATCH, MAX_EXPORTED_SCANS - scans.length) });
      scans.push(...batch);
      if (batch.length === 0 || batch.length < EXPORT_BATCH) break;
      beforeId = batch[batch.length - 1].id;
    }
    sendCsv(res, `scans${host ? `-${host}` : ''}.csv`, scansCsv(scans, deps.config.BASE_URL), 'private, no-store');
  };
}
