// Reading a deep audit back: its pages as stored by the worker, and the answer the API, MCP and the console show
// (status, progress while it runs, the result once done).
import type { Repository } from '../../db/repo.js';
import type { AuditRecord } from '../../db/audit-repo.js';
import type { PageAudit } from '../../scan/page-audit.js';
import { AuditResult, type DeepAudit } from '../../schemas/deep-audit.js';
import type { AuditedPage } from './result.js';

const PAGE_BATCH = 1000;
/** Progress is measured over this last stretch of time. */
const PACE_WINDOW_MS = 5 * 60_000;

/** The audit's planned pages in plan order, each with its stored audit (null while not read or when it failed to be). */
export async function readPages(db: Repository, auditId: string): Promise<AuditedPage[]> {
  const pages: AuditedPage[] = [];
  for (let after = 0; ; ) {
    const batch = await db.queue.results(auditId, after, PAGE_BATCH);
    for (const r of batch) pages.push({ url: r.url, audit: r.result ? (JSON.parse(r.result) as PageAudit) : null });
    if (batch.length < PAGE_BATCH) return pages;
    after = batch[batch.length - 1].seq;
  }
}

export const auditApiPath = (id: string): string => `/api/v1/audits/${id}`;

export async function auditView(db: Repository, audit: AuditRecord, baseUrl: string, now: Date): Promise<DeepAudit> {
  const since = new Date(Math.max(audit.createdAt.getTime(), now.getTime() - PACE_WINDOW_MS));
  const counts = await db.queue.counts(audit.id, since);
  const minutes = Math.max(1 / 60, (now.getTime() - since.getTime()) / 60_000);
  const perMinute = audit.status === 'running' ? Math.round((counts.finishedSince / minutes) * 10) / 10 : 0;
  const left = counts.queued;
  return {
    audit_id: audit.id,
    host: audit.host,
    url: audit.url,
    status: audit.status,
    max_pages: audit.maxPages,
    created_at: audit.createdAt.toISOString(),
    finished_at: audit.finishedAt?.toISOString() ?? null,
    error: audit.error,
    progress: {
      pages_found: audit.discovered,
      planned: audit.planned,
      done: counts.done,
      failed: counts.failed,
      pages_per_minute: perMinute,
      seconds_left: audit.status === 'running' && perMinute > 0 ? Math.round((left / perMinute) * 60) : null,
    },
    result: audit.result ? AuditResult.parse(JSON.parse(audit.result)) : null,
    csv_url: audit.status === 'done' ? `${baseUrl}${auditApiPath(audit.id)}/pages.csv` : null,
  };
}
