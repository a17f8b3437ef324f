// Invariants over the whole check set (docs/architecture.md "Add a check"): ids = file names, known pillars,
// points summing to each pillar's max and to 100, texts present, a test per check; plus runChecks' error handling.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { defineCheck } from '../../scan/check.js';
import { PILLARS } from '../../scan/pillars.js';
import { CHECKS, INTERNAL_ERROR_EVIDENCE, runChecks, validateCheck } from '../../scan/registry.js';
import { ORIGIN, makeArtifacts, makePage, makePdp, okResource, robotsFrom } from '../helpers/artifacts.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
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
    const pillarIndex = (id: string) => PILLARS.findIndex((p) => p.id === id);
    for (let i = 1; i < CHECKS.length; i++) {
      const [a, b] = [CHECKS[i - 1], CHECKS[i]];
      assert.ok(pillarIndex(a.pillar) < pillarIndex(b.pillar) || (a.pillar === b.pillar && a.order < b.order), `${a.id} before ${b.id}`);
    }
  });

  it('has unique ids equal to their file names, in their pillar folder', () => {
    const ids = new Set(CHECKS.map((c) => c.id));
    assert.equal(ids.size, CHECKS.length);
    for (const c of CHECKS) assert.ok(existsSync(resolve(ROOT, 'scan/checks', c.pillar, `${c.id}.ts`)), c.id);
    for (const p of PILLARS) {
      const files = readdirSync(resolve(ROOT, 'scan/checks', p.id)).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, ''));
      assert.deepEqual(files.sort(), CHECKS.filter((c) => c.pillar === p.id).map((c) => c.id).sort(), p.id);
    }
  });

  it('numbers each pillar 1..n and sums points to the pillar max and to 100', () => {
    let total = 0;
    for (const p of PILLARS) {
      const mine = CHECKS.filter((c) => c.pillar === p.id);
      assert.deepEqual(mine.map((c) => c.order), mine.map((_, i) => i + 1), `${p.id} orders`);
      const sum = mine.reduce((s, c) => s + c.points, 0);
      assert.equal(sum, p.max, `${p.id} points`);
      total += sum;
    }
    assert.equal(total, 100);
    assert.equal(PILLARS.reduce((s, p) => s + p.max, 0), 100);
  });

  it('has every text, positive points and a partial grade below the max', () => {
    for (const c of CHECKS) {
      for (const key of ['label', 'title', 'failureTitle', 'why', 'how'] as const) assert.ok(c[key].trim().length > 0, `${c.id}.${key}`);
      assert.ok(c.points > 0 && Number.isInteger(c.points), c.id);
      assert.ok(c.partialPoints >= 0 && c.partialPoints < c.points, c.id);
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

  it('marks exactly the three hard blocks', () => {
    const blocks = CHECKS.filter((c) => c.hardBlock).map((c) => [c.id, c.hardBlock]);
    assert.deepEqual(blocks, [
      ['access_storefront_reachable', 'H3'],
      ['access_live_agents_robots', 'H1'],
      ['access_no_bot_wall', 'H2'],
    ]);
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
    const base = { id: 'x_check', pillar: 'access', order: 1, points: 2, partialPoints: 1, label: 'L', title: 'T', failureTitle: 'F', why: 'W', how: 'H', run: () => ({ status: 'pass', evidence: '' }) };
    assert.doesNotThrow(() => validateCheck(base, 'access/x_check.ts', 'access', 'x_check'));
    assert.throws(() => validateCheck(base, 'access/y.ts', 'access', 'y'), /must equal the file name/);
    assert.throws(() => validateCheck(base, 'trust/x_check.ts', 'trust', 'x_check'), /must equal its folder/);
    assert.throws(() => validateCheck({ ...base, pillar: 'nope' }, 'nope/x_check.ts', 'nope', 'x_check'), /unknown pillar/);
    assert.throws(() => validateCheck({ ...base, points: 0 }, 'access/x_check.ts', 'access', 'x_check'), /points/);
    assert.throws(() => validateCheck({ ...base, partialPoints: 2 }, 'access/x_check.ts', 'access', 'x_check'), /partialPoints/);
    assert.throws(() => validateCheck({ ...base, why: ' ' }, 'access/x_check.ts', 'access', 'x_check'), /why/);
    assert.throws(() => validateCheck(undefined, 'access/x_check.ts', 'access', 'x_check'), /export default/);
  });
});

describe('runChecks', () => {
  it('turns a throwing check into a fail with the internal-error evidence and reports it', () => {
    const boom = defineCheck({
      id: 'boom',
      pillar: 'access',
      order: 1,
      points: 2,
      partialPoints: 1,
      label: 'Boom',
      title: 'ok',
      failureTitle: 'not ok',
      why: 'w',
      how: 'h',
      run() {
        throw new Error('kaput');
      },
    });
    const errors: [string, unknown][] = [];
    const [r] = runChecks(makeArtifacts(), (id, err) => errors.push([id, err]), [boom]);
    assert.deepEqual(r.outcome, { status: 'fail', evidence: INTERNAL_ERROR_EVIDENCE });
    assert.equal(errors.length, 1);
    assert.equal(errors[0][0], 'boom');
    assert.match(String(errors[0][1]), /kaput/);
  });

  it('reports a partial as fail for a check without a partial grade', () => {
    const half = defineCheck({ ...CHECKS.find((c) => c.partialPoints === 0)!, run: () => ({ status: 'partial', evidence: 'e' }) });
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
});
