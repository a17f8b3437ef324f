// get_agent_brief: the agent brief of one stored scan (GET /api/v1/scan/{scan_id}/brief.md, Pro): the fixes in
// order as steps, paste-ready artifacts and the re-scan call, as one markdown file. Reads the stored scan only;
// the rendering is tools/render-brief.ts. Story: read → render.
import { z } from 'zod';
import { renderBrief } from './render-brief.js';
import { ScanId } from '../schemas/params.js';
import { defineTool } from './tool.js';
import { scanNotFound } from './readiness.js';
import { readableReport } from './stored-report.js';

export const getAgentBrief = defineTool({
  name: 'get_agent_brief',
  title: 'Get the agent brief of a scan',
  description:
    'Returns the agent brief of a stored scan: one markdown file a coding agent can act on, with the failing checks in the order to fix them as numbered steps, paste-ready artifacts built from what the scan saw (Product JSON-LD with the missing properties marked TODO, an llms.txt draft, robots.txt lines for the live AI agents, an attribute map) and the re-scan call that verifies the fixes. Reads stored data only.',
  input: z.object({ scan_id: ScanId }),
  output: z.object({
    scan_id: ScanId,
    host: z.string(),
    markdown: z.string().describe('The brief, as served with Content-Type text/markdown.'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false },
  expose: [],
  async handler({ scan_id }, { db, baseUrl }) {
    const scan = await db.getScan(scan_id);
    if (!scan) throw scanNotFound(scan_id, true);
    return { scan_id, host: scan.host, markdown: renderBrief(readableReport(scan.report), { baseUrl }) };
  },
});
