// Output of compare_stores (GET /api/v1/compare, the MCP tool, the /compare page): 2 to 5 stores of the index
// side by side: their latest stored score, grade, pillars and every check, with the checks on which they differ
// marked. The root carries no `.meta({id})` (MCP needs an object at the root).
import { z } from 'zod';
import { CheckStatus, Grade } from './scan-result.js';

export const MIN_COMPARED = 2;
export const MAX_COMPARED = 5;

const PillarScore = z.object({ id: z.string(), label: z.string(), score: z.int().min(0), max: z.int().min(0) });

export const ComparedStore = z
  .object({
    host: z.string().describe('The store as the readiness index names it.'),
    scanned: z.boolean().describe('Whether the index holds a public report of the store; false leaves every other field out.'),
    score: z.int().min(0).max(100).optional(),
    grade: Grade.optional(),
    capped: z.boolean().optional().describe('True when agents are blocked outright, which caps the score at 35.'),
    scanned_at: z.iso.datetime().optional(),
    report_url: z.url().optional(),
    pillars: z.array(PillarScore).optional(),
  })
  .meta({ id: 'ComparedStore' });

export const ComparedCheck = z
  .object({
    id: z.string().describe('Stable check id.'),
    label: z.string(),
    pillar: z.string().describe('Label of the pillar the check belongs to.'),
    differs: z.boolean().describe('True when the compared stores do not all have the same status on this check.'),
    results: z
      .array(
        z.object({
          host: z.string(),
          status: CheckStatus.nullable().describe('null: the store\'s report has no such check (an older rubric).'),
          points: z.int().min(0).nullable(),
          max: z.int().min(0).nullable(),
        }),
      )
      .describe('One entry per scanned store, in the order of `stores`.'),
  })
  .meta({ id: 'ComparedCheck' });

export const StoreComparison = z
  .object({
    stores: z.array(ComparedStore).describe('Every store asked for, in the order asked.'),
    checks: z.array(ComparedCheck).describe('Every check of the scanned stores\' reports, in report order; empty when fewer than two stores are scanned.'),
    differing: z.int().min(0).describe('How many checks differ between the scanned stores.'),
  })
  .describe('Stores of the readiness index side by side.');
export type StoreComparison = z.infer<typeof StoreComparison>;
