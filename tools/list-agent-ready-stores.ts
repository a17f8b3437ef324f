// list_agent_ready_stores: the top of the readiness index restricted to verified agent-ready stores (scanned
// within the last 90 days), optionally in one vertical. Reads only (docs/decisions.md "MCP").
import { z } from 'zod';
import { Limit, Vertical } from '../schemas/params.js';
import { AgentReadyStores } from '../schemas/readiness.js';
import { AGENT_READY } from '../scan/checks/rubric.js';
import { VERIFIED_MAX_AGE_DAYS, reportUrl } from './readiness.js';
import { defineTool } from './tool.js';

export const listAgentReadyStores = defineTool({
  name: 'list_agent_ready_stores',
  title: 'List agent-ready stores',
  description:
    `Returns the best-scoring e-commerce stores that are verified agent-ready (recently scanned, not blocking agents, score ${AGENT_READY.minScore} or more, with machine-readable prices and availability), ranked by score, each with grade, category, scan date and a link to its public report, plus the size of the index. Use it to find stores where an AI shopping agent can reliably discover products and buy, optionally within one store category. It reads stored results only.`,
  input: z.object({ vertical: Vertical.optional(), limit: Limit }),
  output: AgentReadyStores,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false },
  expose: ['mcp'],
  async handler({ vertical, limit }, { db, baseUrl }) {
    const since = new Date(Date.now() - VERIFIED_MAX_AGE_DAYS * 86_400_000);
    const [rows, total] = await Promise.all([
      db.topStores({ agentReadyOnly: true, since, vertical: vertical ?? null, limit }),
      db.countStores(vertical ?? null),
    ]);
    return {
      stores: rows.map((row) => ({
        rank: row.rank,
        host: row.host,
        score: row.score,
        grade: row.grade as AgentReadyStores['stores'][number]['grade'],
        vertical: row.vertical,
        report_url: reportUrl(baseUrl, row.scanId),
        scanned_at: row.updatedAt.toISOString(),
      })),
      total,
    };
  },
});
