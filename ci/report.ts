// What the CI side reads of a report: a fresh scan (local or through a hosted instance) and a baseline (a JSON file
// or URL a previous run saved) share this shape. Parsed with a schema, since a baseline is a file anyone could hand
// us; fields the gates and formats do not read are kept as they are.
import { z } from 'zod';
import { CheckStatus, Grade } from '../schemas/scan-result.js';

const CiCheck = z.looseObject({
  id: z.string().max(100),
  label: z.string().max(500),
  status: CheckStatus,
  points: z.number(),
  max: z.number(),
  title: z.string().max(1000).optional(),
  evidence: z.string().optional(),
  hard_block: z.boolean().optional(),
});

export const CiReport = z.looseObject({
  host: z.string().max(300),
  url: z.string().max(4096).optional(),
  scanned_at: z.string().max(40).optional(),
  score: z.number().min(0).max(100),
  grade: Grade,
  capped: z.boolean().optional(),
  pillars: z.array(z.looseObject({ id: z.string(), label: z.string(), score: z.number(), max: z.number(), checks: z.array(CiCheck) })).max(20),
  top_fixes: z.array(z.looseObject({ check_id: z.string(), title: z.string(), points: z.number(), how: z.string() })).default([]),
  scan_id: z.number().optional(),
  report_url: z.string().optional(),
});
export type CiReport = z.infer<typeof CiReport>;
export type CiCheck = z.infer<typeof CiCheck>;

export const checksOf = (report: CiReport): (CiCheck & { pillar: string })[] =>
  report.pillars.flatMap((p) => p.checks.map((c) => ({ ...c, pillar: p.label })));
