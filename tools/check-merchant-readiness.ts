// check_merchant_readiness: the latest stored readiness summary of one store. Reads the index only; it never
// scans (docs/decisions.md "MCP"), so an unknown store gets an error whose next_action points its owner at the scan
// endpoint.
import { z } from 'zod';
import { Protocols } from '../schemas/scan-result.js';
import { ReadHost, ReadinessSummary } from '../schemas/readiness.js';
import { agentReadyVerified, hostNotScanned, reportUrl } from './readiness.js';
import { indexHost } from '../lib/hosts.js';
import { defineTool } from './tool.js';

export const checkMerchantReadiness = defineTool({
  name: 'check_merchant_readiness',
  title: 'Check a store\'s agent-readiness',
  description:
    'Returns the latest stored agent-readiness summary of an e-commerce store: score out of 100, letter grade, whether an access block caps the score, which agent protocols it supports (UCP, ACP, MCP, llms.txt, …), whether it is verified agent-ready, when it was scanned and a link to the full public report. Use it before shopping on, recommending or comparing a store with an AI agent. It reads stored results only and never contacts the store; a store that was never scanned returns an error.',
  input: z.object({ host: ReadHost }),
  output: ReadinessSummary,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false },
  expose: ['mcp', 'functions'],
  async handler(args, { store, baseUrl }) {
    const host = indexHost(args.host);
    const entry = await store.latestByHost(host);
    if (!entry) throw hostNotScanned(host);
    const scan = await store.getScan(entry.scanId);
    const protocols = Protocols.safeParse((scan?.report as { protocols?: unknown } | undefined)?.protocols);
    return {
      host: entry.host,
      score: entry.score,
      grade: entry.grade as ReadinessSummary['grade'],
      capped: entry.capped,
      protocols: protocols.success ? protocols.data : null,
      report_url: reportUrl(baseUrl, entry.scanId),
      scanned_at: entry.updatedAt.toISOString(),
      agent_ready_verified: agentReadyVerified(entry),
    };
  },
});
