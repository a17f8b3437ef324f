// Check outcomes → points, pillar scores, total, cap, grade and ordered fixes (docs/checks.md §3, §5, §6).
// The points, the cap and the grade bands are the rubric's (scan/checks/rubric.ts); this file only adds them up and
// applies the hard-block cap.
import type { z } from 'zod';
import type { CheckDef, CheckOutcome, CheckStatus } from './check.js';
import { INTERNAL_ERROR_EVIDENCE } from './evidence.js';
import { PILLARS } from './pillars.js';
import { CAP_SCORE, GRADE_BANDS, pillarMax, type HardBlock } from './rubric.js';
import type { Check, Fix, Grade, Pillar, RootCauseFinding } from '../../schemas/scan-result.js';
import type { RootCause } from './root-causes.js';

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
  root_causes: z.infer<typeof RootCauseFinding>[];
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

/**
 * `causes` (scan/checks/root-causes.ts): a check a root cause makes moot is no fix of its own; its points go to the
 * root cause's fix, which unlocks them, so the fixes still add up to what the store can gain.
 */
export function score(results: readonly ScoredInput[], causes: readonly RootCause[] = []): ScoreResult {
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
      ...(r.outcome.blockedBy ? { blocked_by: r.outcome.blockedBy } : {}),
    }));
    return { id: p.id, label: p.label, score: mine.reduce((s, r) => s + r.earned, 0), max: pillarMax(p.id), checks };
  });

  const fixes = rows
    .filter((r) => !r.outcome.blockedBy)
    .map((r) => {
      const cause = causes.find((c) => c.checkId === r.def.id);
      const unlocks = cause ? rows.filter((d) => d.outcome.blockedBy === cause.id) : [];
      const gap = r.def.points - r.earned + unlocks.reduce((sum, d) => sum + d.def.points - d.earned, 0);
      // docs/checks.md §3 and §5: the unblock fix reports the uncapped score with this check passing minus the current
      // score, so it sorts first; every other fix keeps its nominal points and waits for the store to be reachable.
      const base = r.outcome.how ?? r.def.how;
      const how = unlocks.length > 0 ? `${base} ${unlockNote(unlocks.length)}` : base;
      const extra = unlocks.length > 0 ? { unlocks: unlocks.map((d) => d.def.id) } : {};
      if (capped && r.cap) return { r, points: raw + gap - total, how, extra };
      return { r, points: gap, how: capped ? `${how} ${CAP_NOTE}` : how, extra };
    })
    .filter((f) => f.points > 0)
    .sort((x, y) => y.points - x.points || byPillarThenOrder(x.r.def, y.r.def));

  return {
    score: total,
    grade: gradeFor(total),
    capped,
    cap_reason: caps[0] ?? null,
    pillars,
    top_fixes: fixes.map((f) => ({ check_id: f.r.def.id, title: f.r.def.failureTitle, points: f.points, how: f.how, ...(f.r.def.fix ? { effort: f.r.def.fix.effort } : {}), ...f.extra })),
    root_causes: causes.map((c) => ({
      id: c.id,
      check_id: c.checkId,
      title: c.title,
      detail: c.detail,
      blocks: c.blocks,
      points: fixes.find((f) => f.r.def.id === c.checkId)?.points ?? 0,
    })),
  };
}

const unlockNote = (n: number) => `Until this is fixed, ${n} check${n === 1 ? '' : 's'} that depend${n === 1 ? 's' : ''} on it cannot be assessed; the points shown include theirs.`;
