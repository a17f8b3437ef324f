// get_score_history: a store's earlier scans with their scores, newest first. Reads stored data only; a store that
// was never scanned, or that its owner had removed from the public index, has no public history.
import { z } from 'zod';
import { ReadHost } from '../schemas/readiness.js';
import { HistoryLimit, ScoreHistory } from '../schemas/score-history.js';
import { indexHost } from '../lib/hosts.js';
import { scoreHistory } from '../monitoring/history.js';
import { hostNotScanned, reportUrl } from './readiness.js';
import { defineTool } from './tool.js';

export const getScoreHistory = defineTool({
  name: 'get_score_history',
  title: 'Read a store\'s score history',
  description:
    'Returns the stored scans of an e-commerce store, newest first: when each ran, its score out of 100, grade, whether it was capped or agent-ready, the points gained or lost since the scan before, and a link to each public report. Use it to see whether a store is improving or regressing for AI shopping agents over time. It reads stored results only and never contacts the store; a store that was never scanned returns an error.',
  input: z.object({ host: ReadHost, limit: HistoryLimit }),
  output: ScoreHistory,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false },
  expose: ['mcp', 'functions'],
  async handler(args, { db, baseUrl }) {
    const host = indexHost(args.host);
    // One more than asked: the oldest row shown needs the scan before it for its change.
    const rows = await scoreHistory(db, host, args.limit + 1);
    if (rows.length === 0) throw hostNotScanned(host);
    return {
      host,
      scans: rows.slice(0, args.limit).map((row, i) => ({
        scan_id: row.id,
        scanned_at: row.createdAt.toISOString(),
        score: row.score,
        grade: row.grade as ScoreHistory['scans'][number]['grade'],
        capped: row.capped,
        agent_ready: row.agentReady,
        score_change: rows[i + 1] ? row.score - rows[i + 1].score : null,
        report_url: reportUrl(baseUrl, row.id),
      })),
    };
  },
});
