// The audits page: deep audits of the account's verified stores. The list (status, progress, link), a form to start
// one (through the start_deep_audit tool, on the account's scan limits), and a page per audit: progress while it runs
// (the page refreshes itself every 10 s), then coverage per fact, findings per template, the worst pages and the CSV.
import { Router } from 'express';
import type { Repository } from '../../db/repo.js';
import type { AuditRecord } from '../../db/audit-repo.js';
import { AppError } from '../../lib/errors.js';
import type { DeepAudit } from '../../schemas/deep-audit.js';
import { MAX_AUDIT_PAGES, DEFAULT_AUDIT_PAGES } from '../../schemas/deep-audit.js';
import { invoke } from '../../tools/invoke.js';
import { startDeepAudit } from '../../tools/start-deep-audit.js';
import { getDeepAudit } from '../../tools/get-deep-audit.js';
import { requestContext, runGuard } from '../../http/request-context.js';
import type { SurfaceDeps } from '../../http/guards.js';
import { formatTime, html, type SafeHtml } from '../html.js';
import { consolePage, sendConsolePage } from './layout.js';
import { csrfField, formFields, requireAccount, sameSiteForm, signedIn, type ConsoleLocals } from './session.js';

const REFRESH_SECONDS = 10;

function auditRows(audits: AuditRecord[]): SafeHtml {
  if (audits.length === 0) return html`<p class="empty">No deep audits yet.</p>`;
  return html`<div class="table-wrap"><table class="ranking console-audits">
<thead><tr><th scope="col">Store</th><th scope="col">Started</th><th scope="col">Pages</th><th scope="col">Status</th></tr></thead>
<tbody>${audits.map(
  (a) => html`<tr data-audit-id="${a.id}"><td>${a.host}</td><td>${formatTime(a.createdAt)}</td><td>${a.planned ?? '…'} of ${a.discovered ?? '…'} found</td><td><a href="/console/audits/${a.id}">${a.status}</a></td></tr>`,
)}</tbody></table></div>`;
}

async function renderList(db: Repository, who: ConsoleLocals, error?: string): Promise<SafeHtml> {
  const [audits, claims] = await Promise.all([db.audits.listAudits(who.account.id, 50), db.monitoring.listClaims(who.account.id)]);
  const verified = claims.filter((c) => c.verifiedAt);
  return consolePage('Audits', who, 'audits', html`<h1>Deep audits</h1>
<p>A deep audit reads your product pages one by one (those your sitemaps list, an even sample when there are more than you ask for) and tells you which facts agents can read on how many of them, grouped by page template. It visits your store politely: one page at a time, at least a second apart.</p>
${error ? html`<p class="alert alert-error" role="alert">${error}</p>` : ''}
${auditRows(audits)}
<h2>Audit a store</h2>
${verified.length === 0
  ? html`<p class="empty">Only stores you have <a href="/console/stores">verified</a> can be audited here.</p>`
  : html`<form method="post" action="/console/audits">
  ${csrfField(who.csrf)}
  <div class="field"><label for="host">Store</label> <select id="host" name="host">${verified.map((c) => html`<option value="${c.host}">${c.host}</option>`)}</select></div>
  <div class="field"><label for="max_pages">Product pages (at most ${MAX_AUDIT_PAGES})</label> <input id="max_pages" name="max_pages" type="number" min="1" max="${MAX_AUDIT_PAGES}" value="${DEFAULT_AUDIT_PAGES}"></div>
  <p><button class="button button-primary" type="submit">Start the audit</button></p>
</form>`}`);
}

function renderAudit(who: ConsoleLocals, a: DeepAudit): SafeHtml {
  const p = a.progress;
  const r = a.result;
  return consolePage('Audit', who, 'audits', html`<h1>Deep audit of ${a.host}</h1>
<p><span class="status" data-testid="audit-status">${a.status}</span> · started ${formatTime(new Date(a.created_at))}${a.error ? html` · ${a.error}` : ''}</p>
${a.status === 'queued' || a.status === 'running'
  ? html`<p data-testid="audit-progress">${p.done + p.failed} of ${p.planned ?? '…'} pages done (${p.pages_found ?? '…'} found) · ${p.pages_per_minute} pages a minute${p.seconds_left !== null ? html` · about ${Math.ceil(p.seconds_left / 60)} min left` : ''}</p><p class="muted">This page refreshes every ${REFRESH_SECONDS} seconds.</p>`
  : ''}
${r
  ? html`<h2>What agents can read</h2>
<p>${r.pages_audited} product pages audited of ${r.pages_found} found${r.sampled ? ' (a sample: the range is where the share over all of them lies, 95 % sure)' : ''}; ${r.pages_not_read} could not be read, ${r.not_product_pages} were not product pages. <a href="/api/v1/audits/${a.audit_id}/pages.csv">Every page as CSV</a>.</p>
<div class="table-wrap"><table class="ranking"><thead><tr><th scope="col">Fact</th><th scope="col">Pages</th><th scope="col">Share</th></tr></thead><tbody>
${r.coverage.map((c) => html`<tr><td>${c.label}</td><td>${c.pages} of ${c.of}</td><td>${c.percent} %${c.interval ? html` <span class="muted">(${c.interval.low}–${c.interval.high} %)</span>` : ''}</td></tr>`)}
</tbody></table></div>
<h2>Findings by page template</h2>
${r.findings.length === 0
  ? html`<p class="empty">Every template gives agents every fact.</p>`
  : r.findings.map((f) => html`<section class="card"><h3>${f.template} · ${f.url_pattern} · ${f.pages_failing} of ${f.of} pages</h3><ul>${f.missing.map((m) => html`<li>${m.label}: missing on ${m.pages_failing} pages (${m.reason})</li>`)}</ul><p class="muted">For example: ${f.example_urls.map((u) => html`<a href="${u}" rel="nofollow noopener">${u}</a> `)}</p></section>`)}
<h2>Worst pages</h2>
${r.worst_pages.length === 0 ? html`<p class="empty">None.</p>` : html`<ul>${r.worst_pages.map((w) => html`<li><a href="${w.url}" rel="nofollow noopener">${w.name ?? w.url}</a>: ${w.reasons.join('; ')}</li>`)}</ul>`}
${r.changes ? html`<h2>Since the previous audit</h2><ul>${r.changes.coverage.filter((c) => c.change !== 0).map((c) => html`<li>${c.fact}: ${c.before} % → ${c.after} %</li>`)}</ul><p>${r.changes.newly_failing.length} pages lost a fact, ${r.changes.fixed} got every fact they lacked.</p>` : ''}`
  : ''}
<p><a href="/console/audits">All audits</a></p>`);
}

export function auditsRouter(deps: SurfaceDeps): Router {
  const { db, config } = deps;
  const router = Router();
  const form = sameSiteForm(config.BASE_URL, { csrf: true });
  const guards = [deps.guards.auth('optional'), deps.guards.limit('scan')];

  router.get('/console/audits', requireAccount, async (_req, res) => {
    sendConsolePage(res, await renderList(db, signedIn(res)!));
  });

  // Only a verified store of the account; then the same tool as the API, counted on the account's scan limits.
  router.post('/console/audits', requireAccount, form, async (req, res) => {
    const who = signedIn(res)!;
    const fields = formFields(req);
    const claim = (await db.monitoring.listClaims(who.account.id)).find((c) => c.verifiedAt && c.host === String(fields.host ?? ''));
    try {
      if (!claim) throw new AppError('INVALID_PARAMS', 'Choose one of your verified stores.');
      const { value } = await invoke(startDeepAudit, { url: claim.origin, max_pages: Number(fields.max_pages ?? DEFAULT_AUDIT_PAGES) }, {
        context: () => requestContext(req, res, deps, false),
        count: async () => {
          for (const guard of guards) await runGuard(guard, req, res);
        },
        invalid: () => new AppError('INVALID_PARAMS', `Product pages: a whole number from 1 to ${MAX_AUDIT_PAGES}.`),
      });
      res.redirect(303, `/console/audits/${(value as DeepAudit).audit_id}`);
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      sendConsolePage(res, await renderList(db, who, err.message), { status: err.status });
    }
  });

  router.get('/console/audits/:id', requireAccount, async (req, res) => {
    const who = signedIn(res)!;
    const { value } = await invoke(getDeepAudit, { audit_id: req.params.id }, { context: () => requestContext(req, res, deps, false) });
    const audit = value as DeepAudit;
    const running = audit.status === 'queued' || audit.status === 'running';
    sendConsolePage(res, renderAudit(who, audit), running ? { headers: { Refresh: String(REFRESH_SECONDS) } } : {});
  });
  return router;
}
