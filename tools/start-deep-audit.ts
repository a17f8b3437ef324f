// start_deep_audit (POST /api/v1/audits, a Pro key; the console for verified owners): queues a deep audit of a store's
// product pages. Background work: the answer comes at once with the audit's id; get_deep_audit follows it.
import { AppError } from '../lib/errors.js';
import { normaliseScanTarget } from '../outbound/url.js';
import { DeepAudit, StartAuditInput } from '../schemas/deep-audit.js';
import { startAudit } from '../crawl/audits/start.js';
import { auditView, auditApiPath } from '../crawl/audits/read.js';
import { defineTool, type Hold } from './tool.js';

/** The store's root, normalised under the scanner's address rules before anything is counted. */
interface AuditTarget extends Hold {
  root: URL;
}

export const startDeepAudit = defineTool({
  name: 'start_deep_audit',
  title: 'Start a deep audit of a store\'s product pages',
  description:
    'Queues a deep audit of a store: its product pages, found in its sitemaps, up to max_pages (sampled evenly when there are more), each read the way a scan reads its sampled product pages, politely (one request at a time, at least a second apart, robots.txt obeyed). Answers at once with the audit id; read progress and the result (coverage per fact with intervals, failures grouped by page template, the worst pages) with get_deep_audit. Needs a Pro key; at most two audits of an account in progress.',
  input: StartAuditInput,
  output: DeepAudit,
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true, destructiveHint: false },
  expose: [],
  preflight({ url }, ctx): AuditTarget {
    if (!ctx.caller.accountId) throw new AppError('UNAUTHORIZED', 'Deep audits need a Pro key of a console account (create one in the console).');
    const target = normaliseScanTarget(url, { allowPrivate: ctx.config.SCAN_ALLOW_PRIVATE, allowIPAddressList: ctx.scanOverrides?.allowIPAddressList });
    return { root: new URL('/', target), release: () => undefined };
  },
  async handler({ max_pages }, ctx, planned?: AuditTarget) {
    const now = new Date();
    const outcome = await startAudit(ctx.db, { accountId: ctx.caller.accountId!, root: planned!.root, maxPages: max_pages, delayMs: ctx.config.CRAWL_DELAY_MS, now });
    if ('running' in outcome) {
      throw new AppError('AUDIT_RUNNING', `An audit of this store by your account is in progress: ${outcome.running}. Follow it, or start another once it ends.`, {
        method: 'GET',
        endpoint: auditApiPath(outcome.running),
        description: 'Read the audit in progress.',
      });
    }
    if ('limit' in outcome) throw new AppError('AUDITS_AT_LIMIT', `Your account has ${outcome.limit} audits in progress, the most at once. Start this one when one of them ends.`);
    return auditView(ctx.db, outcome.started, ctx.baseUrl, now);
  },
});
