// Every tool, in the order models see them (tools/list order). One line per tool.
import type { AnyTool } from './tool.js';
import { checkMerchantReadiness } from './check-merchant-readiness.js';
import { getReadinessReport } from './get-readiness-report.js';
import { listAgentReadyStores } from './list-agent-ready-stores.js';
import { scanStore } from './scan-store.js';
import { getScan } from './get-scan.js';
import { readReports } from './read-reports.js';
import { getAgentBrief } from './get-agent-brief.js';
import { getScoreHistory } from './get-score-history.js';
import { startDeepAudit } from './start-deep-audit.js';
import { getDeepAudit } from './get-deep-audit.js';
import { exportDeepAudit } from './export-deep-audit.js';
import { compareStores } from './compare-stores.js';

export const TOOLS: AnyTool[] = [
  checkMerchantReadiness,
  getReadinessReport,
  listAgentReadyStores,
  scanStore,
  getScan,
  readReports,
  getAgentBrief,
  getScoreHistory,
  compareStores,
  startDeepAudit,
  getDeepAudit,
  exportDeepAudit,
];
