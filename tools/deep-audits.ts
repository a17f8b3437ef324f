// What the deep-audit tools share: reading an audit by its id, or the error that says there is none.
import { AppError } from '../lib/errors.js';
import type { AuditRecord } from '../db/audit-repo.js';
import type { ToolContext } from './tool.js';

export async function auditById(id: string, ctx: ToolContext): Promise<AuditRecord> {
  const audit = await ctx.db.audits.getAudit(id);
  if (!audit) {
    throw new AppError('AUDIT_NOT_FOUND', `No deep audit ${id}. Audit ids come from the answer that started the audit.`, {
      method: 'POST',
      endpoint: '/api/v1/audits',
      params: { url: 'https://your-store.example', max_pages: 200 },
      description: 'Start a deep audit of a store with a Pro key; its answer carries the audit id.',
    });
  }
  return audit;
}
