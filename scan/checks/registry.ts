// Loads every check from scan/checks/<pillar>/<id>.ts once at start (sorted, top-level await), validates each
// declaration so a bad file stops the service at boot, makes sure each row of the rubric (scan/checks/rubric.ts) has
// exactly one file and each file a row, and runs the checks with one try/catch per check.
import { readdirSync, statSync } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Artifacts } from '../artifacts.js';
import type { CheckDef, CheckOutcome } from './check.js';
import { INTERNAL_ERROR_EVIDENCE } from './evidence.js';
import { PILLARS } from './pillars.js';
import { RUBRIC } from './rubric.js';

export { INTERNAL_ERROR_EVIDENCE };

const CHECKS_DIR = new URL('./', import.meta.url);
// Run from sources (.ts through tsx) or from compiled output (.js): prefer the extension this file has.
const OWN_EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const PILLAR_ORDER = new Map<string, number>(PILLARS.map((p, i) => [p.id, i]));

function checkFiles(folder: URL): string[] {
  const names = readdirSync(folder).filter((n) => /^[a-z0-9_]+\.(ts|js)$/.test(n) && !n.endsWith('.d.ts'));
  const byId = new Map<string, string>();
  for (const n of names.sort()) {
    const id = n.replace(/\.(ts|js)$/, '');
    if (!byId.has(id) || n.endsWith(OWN_EXT)) byId.set(id, n);
  }
  return [...byId.values()].sort();
}

function fail(file: string, message: string): never {
  throw new Error(`scan/checks/${file}: ${message}`);
}

export function validateCheck(def: unknown, file: string, pillar: string, id: string): CheckDef {
  if (typeof def !== 'object' || def === null) fail(file, 'must `export default defineCheck({...})`');
  const d = def as CheckDef;
  if (d.id !== id) fail(file, `id "${String(d.id)}" must equal the file name "${id}"`);
  if (d.pillar !== pillar) fail(file, `its rubric pillar "${d.pillar}" must equal its folder "${pillar}"`);
  for (const key of ['label', 'title', 'failureTitle', 'why', 'how'] as const) {
    if (typeof d[key] !== 'string' || d[key].trim() === '') fail(file, `${key} must be a non-empty string`);
  }
  if (typeof d.run !== 'function') fail(file, 'run(artifacts) is missing');
  return d;
}

async function loadChecks(): Promise<CheckDef[]> {
  const root = fileURLToPath(CHECKS_DIR);
  const folders = readdirSync(root)
    .filter((n) => statSync(`${root}/${n}`).isDirectory())
    .sort();
  const defs: CheckDef[] = [];
  for (const folder of folders) {
    const dir = new URL(`${folder}/`, CHECKS_DIR);
    for (const file of checkFiles(dir)) {
      const mod = (await import(new URL(file, dir).href)) as { default?: unknown };
      defs.push(validateCheck(mod.default, `${folder}/${file}`, folder, file.replace(/\.(ts|js)$/, '')));
    }
  }
  const ids = new Set<string>();
  for (const d of defs) {
    if (ids.has(d.id)) throw new Error(`scan/checks: duplicate check id "${d.id}"`);
    ids.add(d.id);
  }
  const missing = RUBRIC.filter((row) => !ids.has(row.id)).map((row) => row.id);
  if (missing.length > 0) throw new Error(`scan/checks/rubric.ts: no check file for ${missing.join(', ')}`);
  return defs.sort((x, y) => PILLAR_ORDER.get(x.pillar)! - PILLAR_ORDER.get(y.pillar)! || x.order - y.order);
}

export const CHECKS: readonly CheckDef[] = Object.freeze(await loadChecks());

export interface CheckResult {
  def: CheckDef;
  outcome: CheckOutcome;
}

/** Runs every check; a throw becomes a failed check (style rule 4) and is reported through onError. */
export function runChecks(
  artifacts: Artifacts,
  onError?: (id: string, err: unknown) => void,
  checks: readonly CheckDef[] = CHECKS,
): CheckResult[] {
  return checks.map((def) => runCheck(def, artifacts, onError));
}

/**
 * runChecks for a scan served while the service answers other requests: the event loop gets a turn between checks,
 * so a store with huge pages holds a read up for one check's work at most, not for all of them.
 */
export async function runChecksInTurns(
  artifacts: Artifacts,
  onError?: (id: string, err: unknown) => void,
  checks: readonly CheckDef[] = CHECKS,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const def of checks) {
    results.push(runCheck(def, artifacts, onError));
    await setImmediate();
  }
  return results;
}

function runCheck(def: CheckDef, artifacts: Artifacts, onError?: (id: string, err: unknown) => void): CheckResult {
  try {
    const outcome = def.run(artifacts);
    if (!outcome || !['pass', 'partial', 'fail'].includes(outcome.status) || typeof outcome.evidence !== 'string') {
      throw new Error(`check ${def.id} returned an invalid outcome`);
    }
    // No partial grade (a "—" in docs/checks.md §4) makes a partial impossible: it earns 0, so report a fail.
    if (outcome.status === 'partial' && def.partialPoints === 0) return { def, outcome: { ...outcome, status: 'fail' } };
    return { def, outcome };
  } catch (err) {
    onError?.(def.id, err);
    return { def, outcome: { status: 'fail', evidence: INTERNAL_ERROR_EVIDENCE } };
  }
}
