// Invariants over the rubric table and the check set (docs/architecture.md "Add a check"): the table's points sum
// to each pillar's documented maximum and to 100, each row has exactly one check file and each file a row, ids =
// file names, texts present, a test per check; plus runChecks' error handling.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { CheckDef } from '../../../scan/checks/check.js';
import { PILLARS } from '../../../scan/checks/pillars.js';
import { pillarMax, RUBRIC } from '../../../scan/checks/rubric.js';
import { CHECKS, INTERNAL_ERROR_EVIDENCE, runChecks, runChecksInTurns, validateCheck } from '../../../scan/checks/registry.js';
import { ORIGIN, makeArtifacts, makePage, makePdp, okResource, robotsFrom } from '../../helpers/artifacts.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CATALOGUE = readFileSync(resolve(ROOT, 'docs/checks.md'), 'utf8');

/** The check ids of each pillar's table in docs/checks.md §4, in the order listed. */
function catalogueIds(): Map<string, string[]> {
  const section = CATALOGUE.slice(CATALOGUE.indexOf('\n## 4 '), CATALOGUE.indexOf('\n## 5 '));
  const ids = new Map<string, string[]>();
  let pillar = '';
  for (const line of section.split('\n')) {
    const heading = /^### Pillar `([a-z_]+)`/.exec(line);
    if (heading) ids.set((pillar = heading[1]), []);
    const row = /^\| `([a-z_]+)` \|/.exec(line);
    if (row && pillar) ids.get(pillar)!.push(row[1]);
  }
  return ids;
}

/** Each pillar's maximum as docs/checks.md §3 documents it, and the documented total. */
function documentedMaxima(): { pillars: Map<string, number>; total: number } {
  const section = CATALOGUE.slice(CATALOGUE.indexOf('\n## 3 '), CATALOGUE.indexOf('\n## 4 '));
  const pillars = new Map<string, number>();
  for (const [, id, max] of section.matchAll(/^\| `([a-z_]+)` \| [^|]+ \| (\d+) \|$/gm)) pillars.set(id, Number(max));
  const total = /^\| \| \*\*Total\*\* \| \*\*(\d+)\*\* \|$/m.exec(section);
  return { pillars, total: Number(total?.[1]) };
}

const pillarIndex = (id: string) => PILLARS.findIndex((p) => p.id === id);

describe('rubric table', () => {
  it('sums each pillar to its maximum in docs/checks.md §3, and all to 100', () => {
    const documented = documentedMaxima();
    assert.deepEqual([...documented.pillars.keys()], PILLARS.map((p) => p.id));
    for (const p of PILLARS) {
      const sum = RUBRIC.filter((row) => row.pillar === p.id).reduce((s, row) => s + row.points, 0);
      assert.equal(sum, documented.pillars.get(p.id), `${p.id} points`);
      assert.equal(pillarMax(p.id), sum, `${p.id} max`);
    }
    assert.equal(documented.total, 100);
    assert.equal(RUBRIC.reduce((s, row) => s + row.points, 0), 100);
  });

  it('lists each id once, pillar by pillar, numbered 1..n inside each pillar', () => {
    assert.equal(new Set(RUBRIC.map((row) => row.id)).size, RUBRIC.length);
    for (let i = 1; i < RUBRIC.length; i++) {
      const [a, b] = [RUBRIC[i - 1], RUBRIC[i]];
      assert.ok(pillarIndex(a.pillar) < pillarIndex(b.pillar) || (a.pillar === b.pillar && a.order < b.order), `${a.id} before ${b.id}`);
    }
    for (const p of PILLARS) {
      const mine = RUBRIC.filter((row) => row.pillar === p.id);
      assert.ok(mine.length > 0, `${p.id} has checks`);
      assert.deepEqual(mine.map((row) => row.order), mine.map((_, i) => i + 1), `${p.id} orders`);
    }
  });

  it('gives positive integer points and a partial grade below them', () => {
    for (const row of RUBRIC) {
      assert.ok(Number.isInteger(row.points) && row.points > 0, `${row.id} points`);
      assert.ok(Number.isInteger(row.partialPoints) && row.partialPoints >= 0 && row.partialPoints < row.points, `${row.id} partialPoints`);
    }
  });

  it('has exactly one check file per row, in its pillar folder, and a row per file', () => {
    const files = PILLARS.flatMap((p) =>
      readdirSync(resolve(ROOT, 'scan/checks', p.id)).filter((f) => f.endsWith('.ts')).map((f) => `${p.id}/${f.replace(/\.ts$/, '')}`),
    );
    assert.deepEqual(files.sort(), RUBRIC.map((row) => `${row.pillar}/${row.id}`).sort());
    assert.deepEqual(CHECKS.map((c) => c.id), RUBRIC.map((row) => row.id), 'the registry loads one check per row, in table order');
  });

  it('marks exactly the three hard blocks', () => {
    const blocks = RUBRIC.filter((row) => row.hardBlock).map((row) => [row.id, row.hardBlock]);
    assert.deepEqual(blocks, [
      ['access_storefront_reachable', 'H3'],
      ['access_live_agents_robots', 'H1'],
      ['access_no_bot_wall', 'H2'],
    ]);
  });
});

describe('check registry', () => {
  it('loads the checks of the catalogue (docs/checks.md §4), pillar by pillar, ordered by pillar then order', () => {
    // The expected counts come from the catalogue, not from numbers written here: a check added to both passes.
    const catalogue = catalogueIds();
    assert.deepEqual([...catalogue.keys()], PILLARS.map((p) => p.id));
    for (const p of PILLARS) {
      const mine = CHECKS.filter((c) => c.pillar === p.id);
      assert.ok(mine.length > 0, `${p.id} has checks`);
      assert.deepEqual(mine.map((c) => c.id), catalogue.get(p.id), `${p.id}: the catalogue's checks, in its order`);
    }
    assert.equal(CHECKS.length, [...catalogue.values()].flat().length);
    for (let i = 1; i < CHECKS.length; i++) {
      const [a, b] = [CHECKS[i - 1], CHECKS[i]];
      assert.ok(pillarIndex(a.pillar) < pillarIndex(b.pillar) || (a.pillar === b.pillar && a.order < b.order), `${a.id} before ${b.id}`);
    }
  });

  it('has every text, and a failing title that differs from the passing one', () => {
    for (const c of CHECKS) {
      for (const key of ['label', 'title', 'failureTitle', 'why', 'how'] as const) assert.ok(c[key].trim().length > 0, `${c.id}.${key}`);
      assert.notEqual(c.title, c.failureTitle, c.id);
    }
  });

  it('gives every check a fix a merchant can act on: one plain sentence, an effort, steps for a custom site', () => {
    // Protocol names belong under "For your developer" (`how`), not in the sentence a merchant reads first.
    const jargon = /`|\bRFC\b|HSTS|JSON-LD|JWK|schema\.org|\bMCP\b|\bUCP\b|\bACP\b|Content-Signal|X-Robots-Tag/;
    for (const c of CHECKS) {
      assert.ok(c.fix, `${c.id} has a fix`);
      const { plain, effort, steps, snippet } = c.fix;
      assert.match(plain, /^[A-Z][^\n]*\.$/, `${c.id}: the plain sentence starts with a capital and ends with a full stop`);
      assert.ok(!/[.!?] [A-Z]/.test(plain), `${c.id}: the plain text is one sentence: ${plain}`);
      assert.doesNotMatch(plain, jargon, `${c.id}: no protocol names in the plain sentence`);
      assert.ok(['a few minutes', 'about an hour', 'a day or more'].includes(effort), `${c.id} effort`);
      assert.ok(steps?.custom?.trim(), `${c.id}: steps for a custom site`);
      for (const [platform, text] of Object.entries(steps ?? {})) assert.ok(text && text.trim().length > 20, `${c.id}.${platform} step`);
      if (snippet !== undefined) assert.ok(snippet.trim().length > 0, `${c.id} snippet`);
    }
  });

  it('has a test file for every check', () => {
    for (const c of CHECKS) {
      assert.ok(existsSync(resolve(ROOT, 'test/scan/checks', c.pillar, `${c.id}.test.ts`)), `test/scan/checks/${c.pillar}/${c.id}.test.ts`);
    }
  });

  it('matches the labels, points and fix titles of the check catalogue, docs/checks.md §4 and §7', () => {
    const doc = CATALOGUE; // in the repository: this test always runs
    for (const c of CHECKS) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${c.id}\` |`));
      assert.ok(row, `${c.id} row in §4`);
      const cells = row.split('|').map((x) => x.trim());
      assert.equal(cells[2], c.label, `${c.id} label`);
      assert.equal(cells[3], `${c.points} / ${c.partialPoints}`, `${c.id} points`);
      const fix = doc.indexOf(`\`${c.id}\` — **`);
      assert.ok(fix >= 0, `${c.id} fix in §7`);
      const title = doc.slice(fix).split('**')[1];
      assert.equal(`${c.failureTitle}.`, title, `${c.id} failureTitle`);
      const para = doc.slice(fix).split('\n\n')[0].replace(/\s+/g, ' ');
      assert.equal(c.how.replace(/\s+/g, ' '), para.slice(para.indexOf('.**') + 3).trim(), `${c.id} how`);
    }
  });

  it('rejects invalid declarations', () => {
    const base = CHECKS.find((c) => c.id === 'access_indexable')!;
    const file = 'access/access_indexable.ts';
    assert.doesNotThrow(() => validateCheck(base, file, 'access', 'access_indexable'));
    assert.throws(() => validateCheck(base, 'access/y.ts', 'access', 'y'), /must equal the file name/);
    assert.throws(() => validateCheck(base, 'trust/access_indexable.ts', 'trust', 'access_indexable'), /must equal its folder/);
    assert.throws(() => validateCheck({ ...base, why: ' ' }, file, 'access', 'access_indexable'), /why/);
    assert.throws(() => validateCheck({ ...base, run: undefined }, file, 'access', 'access_indexable'), /run/);
    assert.throws(() => validateCheck(undefined, file, 'access', 'access_indexable'), /export default/);
  });
});

describe('runChecks', () => {
  it('turns a throwing check into a fail with the internal-error evidence and reports it', () => {
    const boom: CheckDef = {
      ...CHECKS[0],
      run() {
        throw new Error('kaput');
      },
    };
    const errors: [string, unknown][] = [];
    const [r] = runChecks(makeArtifacts(), (id, err) => errors.push([id, err]), [boom]);
    assert.deepEqual(r.outcome, { status: 'fail', evidence: INTERNAL_ERROR_EVIDENCE });
    assert.equal(errors.length, 1);
    assert.equal(errors[0][0], CHECKS[0].id);
    assert.match(String(errors[0][1]), /kaput/);
  });

  it('reports a partial as fail for a check without a partial grade', () => {
    const half: CheckDef = { ...CHECKS.find((c) => c.partialPoints === 0)!, run: () => ({ status: 'partial', evidence: 'e' }) };
    assert.equal(runChecks(makeArtifacts(), undefined, [half])[0].outcome.status, 'fail');
  });

  it('runs every real check without throwing on empty and on populated artifacts', () => {
    const errors: string[] = [];
    const empty = runChecks(makeArtifacts(), (id) => errors.push(id));
    assert.equal(empty.length, CHECKS.length);
    const populated = makeArtifacts({
      home: okResource(`${ORIGIN}/`, '<html><title>Shop</title></html>'),
      homePage: makePage({ title: 'Shop' }),
      homeAgent: okResource(`${ORIGIN}/`, '<html><title>Shop</title></html>'),
      robotsTxt: okResource(`${ORIGIN}/robots.txt`, 'User-agent: *\nDisallow:\n', { contentType: 'text/plain' }),
      robots: robotsFrom('User-agent: *\nDisallow:\n'),
      pdps: [makePdp()],
    });
    runChecks(populated, (id) => errors.push(id));
    assert.deepEqual(errors, []);
    for (const r of empty) assert.ok(['pass', 'partial', 'fail'].includes(r.outcome.status) && r.outcome.evidence.length > 0, r.def.id);
  });

  it('in turns: the same results as runChecks, with the event loop served between checks', async () => {
    const populated = makeArtifacts({ homePage: makePage({ title: 'Shop' }), pdps: [makePdp()] });
    const outcomes = (rs: { def: CheckDef; outcome: unknown }[]) => rs.map((r) => [r.def.id, r.outcome]);
    // Each check records how many timers had fired when it ran; a timer is re-armed after each firing.
    let fired = 0;
    let timer = setImmediate(function tick() {
      fired++;
      timer = setImmediate(tick);
    });
    const seen: number[] = [];
    const watched = CHECKS.slice(0, 5).map((def) => ({ ...def, run: (a: Parameters<CheckDef['run']>[0]) => (seen.push(fired), def.run(a)) }));
    try {
      const turns = await runChecksInTurns(populated, undefined, watched);
      assert.deepEqual(outcomes(turns), outcomes(runChecks(populated, undefined, CHECKS.slice(0, 5))));
    } finally {
      clearImmediate(timer);
    }
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i] > seen[i - 1], `other work ran before check ${i + 1}: ${seen.join(', ')}`);
    assert.deepEqual(outcomes(await runChecksInTurns(populated)), outcomes(runChecks(populated)));
  });
});
