// Check outcomes → points, pillar scores, total, cap, grade and ordered fixes (docs/checks.md §3, §5, §6).
// The points, the cap and the grade bands are the rubric's (scan/checks/rubric.ts); this file only adds them up and
// applies the hard-block cap.
import type { z } from 'zod';
import type { CheckDef, CheckOutcome, CheckStatus } from './check.js';
import { INTERNAL_ERROR_EVIDENCE } from './evidence.js';
import { PILLARS } from './pillars.js';
import { CAP_SCORE, GRADE_BANDS, pillarMax, type HardBlock } from './rubric.js';
import type { Check, Fix, Grade, Pillar } from '../../schemas/scan-result.js';

export const CAP_NOTE = 'This takes effect once agents can reach your store: fix the blocking issue first.';

type GradeLetter = z.infer<typeof Grade>;

export interface ScoredInput {
  def: CheckDef;
  outcome: CheckOutcome;
}

export interface ScoreResult {
  score: number;
  grade: GradeLetter;
  capped: boolean;
  cap_reason: HardBlock | null;
  pillars: z.infer<typeof Pillar>[];
  top_fixes: z.infer<typeof Fix>[];
}

/** docs/checks.md §6: the best band the score reaches, else E. */
export function gradeFor(score: number): GradeLetter {
  return GRADE_BANDS.find((band) => score >= band.min)?.grade ?? 'E';
}

export function earnedPoints(def: CheckDef, status: CheckStatus): number {
  return status === 'pass' ? def.points : status === 'partial' ? def.partialPoints : 0;
}

/**
 * The cap a result imposes: a failing check's own capReason (null: none), else its hardBlock for H1/H2. H3 (storefront
 * closed) caps only when the check says so, because a bare 5xx or timeout is an ordinary failure (docs/checks.md §5);
 * H2 does not when only some of the agents are walled.
 */
export function capReasonOf({ def, outcome }: ScoredInput): HardBlock | null {
  if (outcome.status !== 'fail' || outcome.evidence === INTERNAL_ERROR_EVIDENCE) return null;
  if (outcome.capReason !== undefined) return outcome.capReason;
  return def.hardBlock === 'H1' || def.hardBlock === 'H2' ? def.hardBlock : null;
}

const PILLAR_ORDER = new Map<string, number>(PILLARS.map((p, i) => [p.id, i]));

function byPillarThenOrder(x: CheckDef, y: CheckDef): number {
  return (PILLAR_ORDER.get(x.pillar) ?? 99) - (PILLAR_ORDER.get(y.pillar) ?? 99) || x.order - y.order;
}

export function score(results: readonly ScoredInput[]): ScoreResult {
  const rows = results.map((r) => ({ ...r, earned: earnedPoints(r.def, r.outcome.status), cap: capReasonOf(r) }));
  const raw = rows.reduce((sum, r) => sum + r.earned, 0);
  const caps = [...new Set(rows.flatMap((r) => (r.cap ? [r.cap] : [])))].sort();
  const capped = caps.length > 0;
  const total = capped ? Math.min(raw, CAP_SCORE) : raw;

  const pillars = PILLARS.map((p) => {
    const mine = rows.filter((r) => r.def.pillar === p.id).sort((x, y) => x.def.order - y.def.order);
    const checks: z.infer<typeof Check>[] = mine.map((r) => ({
      id: r.def.id,
      label: r.def.label,
      status: r.outcome.status,
      points: r.earned,
      max: r.def.points,
      evidence: r.outcome.evidence,
      title: r.outcome.status === 'pass' ? r.def.title : r.def.failureTitle,
      why: r.def.why,
      hard_block: r.def.hardBlock !== undefined,
    }));
    return { id: p.id, label: p.label, score: mine.reduce((s, r) => s + r.earned, 0), max: pillarMax(p.id), checks };
  });

  const fixes = rows
    .map((r) => {
      const gap = r.def.points - r.earned;
      // docs/checks.md §3 and §5: the unblock fix reports the uncapped score with this check passing minus the current
      // score, so it sorts first; every other fix keeps its nominal points and waits for the store to be reachable.
      const how = r.outcome.how ?? r.def.how;
      if (capped && r.cap) return { r, points: raw + gap - total, how };
      return { r, points: gap, how: capped ? `${how} ${CAP_NOTE}` : how };
    })
    .filter((f) => f.points > 0)
    .sort((x, y) => y.points - x.points || byPillarThenOrder(x.r.def, y.r.def));

  return {
    score: total,
    grade: gradeFor(total),
    capped,
    cap_reason: caps[0] ?? null,
    pillars,
    top_fixes: fixes.map((f) => ({ check_id: f.r.def.id, title: f.r.def.failureTitle, points: f.points, how: f.how })),
  };
}
