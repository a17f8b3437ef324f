// The CI gates of `scan` and the GitHub Action: a minimum score, the largest drop from a baseline, checks that
// passed in the baseline and now fail, and checks that must not fail. Each failed gate names what failed, so a
// red build says why without opening the report.
import { diffReports } from '../monitoring/history.js';
import { checksOf, type CiReport } from './report.js';

export interface GateOptions {
  minScore?: number;
  /** Most points the score may fall below the baseline's. */
  maxDrop?: number;
  /** "hard-block": no check that caps the score may fail; otherwise these check ids must not fail. */
  failOn?: 'hard-block' | string[];
}

export type GateName = 'min-score' | 'max-drop' | 'regressions' | 'fail-on';

export interface GateFailure {
  gate: GateName;
  message: string;
  /** The checks it names, when it is about checks. */
  checks?: { id: string; label: string }[];
}

export interface GateResult {
  passed: boolean;
  /** The gates that were asked for (the regression gate runs whenever there is a baseline). */
  evaluated: GateName[];
  failures: GateFailure[];
}

/** Checks that passed in the baseline and fail now (partial is not a failure), in report order. */
export function newlyFailing(current: CiReport, baseline: CiReport): { id: string; label: string }[] {
  return diffReports(baseline, current)
    .changed_checks.filter((c) => c.from === 'pass' && c.to === 'fail')
    .map((c) => ({ id: c.id, label: c.label }));
}

export function evaluateGates(current: CiReport, baseline: CiReport | null, options: GateOptions): GateResult {
  const failures: GateFailure[] = [];
  const evaluated: GateName[] = [];
  if (options.minScore !== undefined) {
    evaluated.push('min-score');
    if (current.score < options.minScore) {
      failures.push({ gate: 'min-score', message: `Score ${current.score} is below the minimum of ${options.minScore}.` });
    }
  }
  if (baseline) {
    if (options.maxDrop !== undefined) {
      evaluated.push('max-drop');
      const drop = baseline.score - current.score;
      if (drop > options.maxDrop) {
        failures.push({
          gate: 'max-drop',
          message: `Score fell ${drop} points, from ${baseline.score} to ${current.score}: more than the ${options.maxDrop} allowed.`,
        });
      }
    }
    evaluated.push('regressions');
    const regressed = newlyFailing(current, baseline);
    if (regressed.length > 0) {
      failures.push({
        gate: 'regressions',
        message: `${regressed.length === 1 ? 'A check' : `${regressed.length} checks`} that passed in the baseline now ${regressed.length === 1 ? 'fails' : 'fail'}: ${regressed.map((c) => c.id).join(', ')}.`,
        checks: regressed,
      });
    }
  }
  if (options.failOn !== undefined) {
    evaluated.push('fail-on');
    const watched = options.failOn;
    const failing = checksOf(current).filter((c) => c.status === 'fail' && (watched === 'hard-block' ? c.hard_block === true : watched.includes(c.id)));
    if (failing.length > 0) {
      const what = watched === 'hard-block' ? 'A check that blocks agents outright fails' : 'A check named in --fail-on fails';
      failures.push({
        gate: 'fail-on',
        message: `${what}: ${failing.map((c) => c.id).join(', ')}.`,
        checks: failing.map((c) => ({ id: c.id, label: c.label })),
      });
    }
  }
  return { passed: failures.length === 0, evaluated, failures };
}
