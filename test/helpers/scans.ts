// Builds and stores complete, schema-valid scan results without running a scan, for read-side tests.
import type { Repository } from '../../db/repo.js';
import type { ScanResult } from '../../schemas/scan-result.js';
import type { CheckId } from '../../scan/checks/rubric.js';

export interface FakeScanOptions {
  host: string;
  score: number;
  vertical?: string | null;
  capped?: boolean;
  agentReady?: boolean;
  createdAt?: Date;
  grade?: ScanResult['grade'];
}

export const gradeFor = (score: number): ScanResult['grade'] =>
  score >= 85 ? 'A' : score >= 70 ? 'B' : score >= 55 ? 'C' : score >= 40 ? 'D' : 'E';

export function fakeReport(id: number, o: FakeScanOptions): ScanResult {
  const createdAt = o.createdAt ?? new Date();
  return {
    scan_id: id,
    report_url: `http://localhost:3000/r/${id}`,
    host: o.host,
    url: `https://${o.host}/`,
    vertical: o.vertical ?? null,
    scanned_at: createdAt.toISOString(),
    rubric_version: '2026-11.2',
    score: o.score,
    grade: o.grade ?? gradeFor(o.score),
    capped: o.capped ?? false,
    cap_reason: o.capped ? 'H1' : null,
    pillars: [
      {
        id: 'access',
        label: 'Agent access',
        score: 20,
        max: 20,
        checks: [
          {
            id: 'access_live_agents_robots' satisfies CheckId,
            label: 'Live shopping agents allowed in robots.txt',
            status: o.capped ? 'fail' : 'pass',
            points: o.capped ? 0 : 6,
            max: 6,
            evidence: 'robots.txt allows every live agent',
            title: 'Live shopping agents are allowed',
            why: 'Agents obey robots.txt.',
            hard_block: true,
          },
        ],
      },
    ],
    top_fixes: [{ check_id: 'trust_https' satisfies CheckId, title: 'Serve HTTPS with HSTS.', points: 2, how: 'Redirect to https.' }],
    neighbors: [{ rank: 1, host: o.host, score: o.score, grade: o.grade ?? gradeFor(o.score), is_self: true }],
    protocols: {
      ucp: false, ucp_version: null, ucp_capabilities: [], acp: false, acp_version: null, mcp: false, mcp_endpoint: null,
      mcp_tool_count: null, mcp_server_card: false, a2a: null, ap2: false, x402: null, llms_txt: true,
      markdown_negotiation: false, api_catalog: false, content_signals: false, structured_data: 'json-ld',
      platform: 'other', agents_blocked: [], waf_blocks_agents: false,
    },
    products: [],
    fetched: [],
    duration_ms: 120,
  };
}

export async function saveFakeScan(db: Repository, o: FakeScanOptions): Promise<ScanResult> {
  const id = await db.allocateScanId();
  const report = fakeReport(id, o);
  await db.saveScan({
    id,
    host: o.host,
    vertical: o.vertical ?? null,
    score: o.score,
    grade: report.grade,
    capped: report.capped,
    agentReady: o.agentReady ?? (!report.capped && o.score >= 70),
    createdAt: o.createdAt ?? new Date(),
    ownerKeyId: null,
    report,
  });
  return report;
}

/** Stores a whole report as it is, under its own scan id (not agent-ready, no owner). */
export async function saveReport(db: Repository, report: ScanResult): Promise<void> {
  await db.saveScan({
    id: report.scan_id,
    host: report.host,
    vertical: report.vertical,
    score: report.score,
    grade: report.grade,
    capped: report.capped,
    agentReady: false,
    createdAt: new Date(report.scanned_at),
    ownerKeyId: null,
    report,
  });
}
