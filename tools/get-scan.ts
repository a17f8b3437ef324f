// get_scan: one stored scan, exactly as it was answered when it ran (spec §4 GET /scan/{scan_id}.json).
import { z } from 'zod';
import { AppError, scanNextAction } from '../server/errors.js';
import { ScanId } from '../schemas/params.js';
import { ScanResult } from '../schemas/scan-result.js';
import { defineTool } from './tool.js';

export const getScan = defineTool({
  name: 'get_scan',
  title: 'Read a stored scan',
  description:
    'Returns a stored scan result by its numeric scan_id: score, grade, every pillar and check, the prioritised fixes and the neighbors in the readiness index at scan time. Reads stored data only.',
  input: z.object({ scan_id: ScanId }),
  output: ScanResult,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false },
  expose: [],
  async handler({ scan_id }, { store }) {
    const scan = await store.getScan(scan_id);
    if (!scan) {
      throw new AppError(
        'SCAN_NOT_FOUND',
        `No scan with id ${scan_id}. Run a scan to get a new id.`,
        scanNextAction('Scan a store to create a report; the response carries its scan_id.'),
      );
    }
    return scan.report as ScanResult;
  },
});
