// The report page's monitoring sections: the store's certification status (attested facts with their validity:
// agent-ready verified and until when, owner verified and since when, the latest report), what changed since the
// scan before this one, and the store's other scans. Read from the store; nothing here contacts the store.
import type { Repository } from '../db/repo.js';
import type { ScanSummary } from '../db/monitoring-repo.js';
import { diffWithPrevious, MAX_PAGE_HISTORY, scoreHistory, type ScanDiff } from '../monitoring/history.js';
import { AGENT_READY_RULE, agentReadyVerified, VERIFIED_MAX_AGE_DAYS } from '../tools/readiness.js';
import { formatDate, formatTime, gradePill, html, type SafeHtml } from './html.js';

export interface ReportExtras {
  history: ScanSummary[]; // newest first, this scan included when it is among them
  changes: { previousId: number; diff: ScanDiff } | null;
  status: {
    latest: { scanId: number; at: Date; score: number; grade: string } | null;
    agentReadyUntil: Date | null; // null: not agent-ready verified now
    ownerVerifiedSince: Date | null; // the first owner verification still on record
  };
}

export async function loadReportExtras(db: Repository, scan: { id: number; host: string; report: unknown }, now = new Date()): Promise<ReportExtras> {
  const [history, changes, latest, owners] = await Promise.all([
    scoreHistory(db, scan.host, MAX_PAGE_HISTORY + 1),
    diffWithPrevious(db, scan),
    db.latestByHost(scan.host),
    db.monitoring.verifiedClaims(scan.host),
  ]);
  return {
    history,
    changes,
    status: {
      latest: latest ? { scanId: latest.scanId, at: latest.updatedAt, score: latest.score, grade: latest.grade } : null,
      agentReadyUntil: latest && agentReadyVerified(latest, now) ? new Date(latest.updatedAt.getTime() + VERIFIED_MAX_AGE_DAYS * 86_400_000) : null,
      ownerVerifiedSince: owners[0]?.verifiedAt ?? null,
    },
  };
}

const STATUS_TEXT: Record<string, string> = { pass: 'pass', partial: 'partial', fail: 'fail' };
const signed = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0');

export function statusSection(extras: ReportExtras, scanId: number): SafeHtml {
  const { latest, agentReadyUntil, ownerVerifiedSince } = extras.status;
  return html`<section class="card" aria-labelledby="status-h">
  <h2 id="status-h">Certification status</h2>
  <dl class="facts">
    <dt>Agent-ready</dt>
    <dd data-testid="agent-ready-verified">${agentReadyUntil
      ? html`Yes, valid until ${formatDate(agentReadyUntil)} (${VERIFIED_MAX_AGE_DAYS} days after the latest scan)`
      : html`No: the latest scan does not meet the agent-ready rule, or is older than ${VERIFIED_MAX_AGE_DAYS} days`}
      <details class="rule"><summary>The agent-ready rule</summary><p>Agent-ready means the store's latest scan has a ${AGENT_READY_RULE}.</p></details></dd>
    <dt>Owner verified</dt>
    <dd data-testid="owner-verified">${ownerVerifiedSince
      ? html`Owner verified since ${formatDate(ownerVerifiedSince)}`
      : html`No: the store's owner has not proved ownership here yet`}</dd>
    <dt>Latest report</dt>
    <dd>${latest
      ? latest.scanId === scanId
        ? html`This report (${formatTime(latest.at)})`
        : html`<a href="/r/${latest.scanId}">The report of ${formatTime(latest.at)}</a>`
      : html`None in the public index`}</dd>
  </dl>
</section>`;
}

export function changesSection(extras: ReportExtras): SafeHtml {
  const { changes } = extras;
  if (!changes) {
    return html`<section class="card" aria-labelledby="changes-h">
  <h2 id="changes-h">What changed since the previous scan</h2>
  <p class="muted">This is the first scan of this store.</p>
</section>`;
  }
  const { diff, previousId } = changes;
  const moved = diff.score_to - diff.score_from;
  return html`<section class="card" aria-labelledby="changes-h">
  <h2 id="changes-h">What changed since the previous scan</h2>
  <p data-testid="score-change">Score ${diff.score_from} → ${diff.score_to} (<strong>${signed(moved)}</strong>), grade ${diff.grade_from} → ${diff.grade_to}, compared with <a href="/r/${previousId}">the previous report</a>.</p>
  ${diff.changed_checks.length === 0
    ? html`<p class="muted">No check changed its status.</p>`
    : html`<table class="changes">
    <thead><tr><th scope="col">Check</th><th scope="col">Before</th><th scope="col">Now</th><th scope="col" class="num">Points</th></tr></thead>
    <tbody>${diff.changed_checks.map(
      (c) => html`<tr data-check="${c.id}">
        <td>${c.label}</td>
        <td><span class="status status-${c.from ?? 'unknown'}">${c.from ? STATUS_TEXT[c.from] : 'new'}</span></td>
        <td><span class="status status-${c.to ?? 'unknown'}">${c.to ? STATUS_TEXT[c.to] : 'removed'}</span></td>
        <td class="num">${c.points_from ?? 0} → ${c.points_to ?? 0} of ${c.max}</td>
      </tr>`,
    )}</tbody>
  </table>`}
</section>`;
}

export function historySection(extras: ReportExtras, scanId: number): SafeHtml {
  const rows = extras.history.slice(0, MAX_PAGE_HISTORY);
  return html`<section class="card" aria-labelledby="history-h">
  <h2 id="history-h">Scan history</h2>
  ${rows.length <= 1
    ? html`<p class="muted">No other scans of this store yet.</p>`
    : html`<table class="history">
    <thead><tr><th scope="col">Scanned</th><th scope="col" class="num">Score</th><th scope="col">Report</th></tr></thead>
    <tbody>${rows.map(
      (s) => html`<tr${s.id === scanId ? html` class="self"` : ''}>
        <td>${formatTime(s.createdAt)}</td>
        <td class="num">${s.score} ${gradePill(s.grade)}</td>
        <td>${s.id === scanId ? html`<span class="tag">this report</span>` : html`<a href="/r/${s.id}">Report ID ${s.id}</a>`}</td>
      </tr>`,
    )}</tbody>
  </table>`}
</section>`;
}

/** On a report that is not the store's latest: say so at the top, with the newer scan's numbers and a link. */
export function newerScanNotice(extras: ReportExtras, scanId: number, scannedAt: unknown): SafeHtml {
  const latest = extras.status.latest;
  const at = new Date(String(scannedAt ?? '')).getTime();
  if (!latest || latest.scanId === scanId || !(latest.at.getTime() > at)) return html``;
  return html`<section class="banner banner-newer" role="note" aria-labelledby="newer-h" data-testid="newer-scan">
  <span class="banner-icon" aria-hidden="true">i</span>
  <div>
    <h2 id="newer-h">A newer scan of this store exists</h2>
    <p>This report shows an earlier scan. The latest, from ${formatTime(latest.at)}, scored <strong>${latest.score}</strong> (grade ${latest.grade}); the index and the badge follow it.</p>
    <p><a class="button" href="/r/${latest.scanId}">See the latest report</a></p>
  </div>
</section>`;
}
