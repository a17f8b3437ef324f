// The rubric's rules beside its table (the table's sums and rows: registry.test.ts): the agent-ready rule, the grade
// bands and the cap, and check ids as a type. `npm run typecheck` compiles this file, so each @ts-expect-error below
// fails the typecheck the day a misspelt id stops being a type error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineCheck, type CheckDeclaration } from '../../../scan/checks/check.js';
import { AGENT_READY, CAP_SCORE, GRADE_BANDS, RUBRIC, isAgentReady, isCheckId, rubricRow, type CheckId } from '../../../scan/checks/rubric.js';
import { gradeFor } from '../../../scan/checks/score.js';

const REQUIRED = new Set<string>(AGENT_READY.requiredChecks);

describe('agent-ready rule', () => {
  it('needs the minimum score, no cap and every required check passing', () => {
    const min = AGENT_READY.minScore;
    assert.equal(isAgentReady({ score: min, capped: false }, REQUIRED), true);
    assert.equal(isAgentReady({ score: 100, capped: false }, REQUIRED), true);
    assert.equal(isAgentReady({ score: min - 1, capped: false }, REQUIRED), false);
    assert.equal(isAgentReady({ score: min, capped: true }, REQUIRED), false);
    for (const id of REQUIRED) {
      const missingOne = new Set([...REQUIRED].filter((other) => other !== id));
      assert.equal(isAgentReady({ score: 100, capped: false }, missingOne), false, `${id} is required`);
    }
  });

  it('names checks of the table and asks for a score a capped store cannot reach', () => {
    for (const id of AGENT_READY.requiredChecks) assert.ok(RUBRIC.some((row) => row.id === id), id);
    assert.ok(AGENT_READY.minScore > CAP_SCORE);
  });
});

describe('grade bands and the cap', () => {
  it('grades each band from its lowest score, and every capped score E', () => {
    for (const band of GRADE_BANDS) {
      assert.equal(gradeFor(band.min), band.grade);
      assert.notEqual(gradeFor(band.min - 1), band.grade);
    }
    assert.equal(gradeFor(CAP_SCORE), 'E');
  });
});

describe('CheckId', () => {
  it('is one of the table ids; a misspelt id is a type error and an unknown one is refused at run time', () => {
    const named: CheckId = 'product_price';
    // @ts-expect-error: a typo of product_price is not a check id
    const misspelt: CheckId = 'product_prices';
    assert.equal(isCheckId(named), true);
    assert.equal(isCheckId(misspelt), false);
    assert.equal(rubricRow(named).points, RUBRIC.find((row) => row.id === 'product_price')!.points);

    const declaration: CheckDeclaration = {
      // @ts-expect-error: a check file whose id the rubric lacks does not compile
      id: 'product_prise',
      label: 'L',
      title: 'T',
      failureTitle: 'F',
      why: 'W',
      how: 'H',
      run: () => ({ status: 'pass', evidence: '' }),
    };
    // Compiled output has no types: the same file stops the registry at boot instead.
    assert.throws(() => defineCheck(declaration), /"product_prise" has no row in scan\/checks\/rubric\.ts/);
  });

  it('joins a declaration to its row: the file gives texts and logic, the table the pillar and points', () => {
    const run = () => ({ status: 'pass' as const, evidence: '' });
    const def = defineCheck({ id: 'access_no_bot_wall', label: 'L', title: 'T', failureTitle: 'F', why: 'W', how: 'H', run });
    const row = rubricRow('access_no_bot_wall');
    assert.deepEqual(
      { pillar: def.pillar, order: def.order, points: def.points, partialPoints: def.partialPoints, hardBlock: def.hardBlock },
      { pillar: row.pillar, order: row.order, points: row.points, partialPoints: row.partialPoints, hardBlock: row.hardBlock },
    );
    assert.equal(def.run, run);
  });
});
