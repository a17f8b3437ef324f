// Agreement with the human ground truth on all open product-extraction-benchmark pages (../shared/fixtures/real),
// as published and with markup stripped: the floors below are the in-sample figures the rules reach, so a change
// that loses a field on these pages fails here. The first 22 pages keep their own floors, measured before the other
// 40 were opened. Figures per field and the misses: npx tsx test/bench/accuracy.ts --misses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage } from '../../scan/documents/html.js';
import { extractProduct } from '../../scan/products/product.js';
import { readRealFixture, requireRealFixtures, stripMarkup } from '../helpers/artifacts.js';
import { benchmarkPages, ourPrediction, outcomes, type GroundTruth, type Outcome } from '../helpers/benchmark-agreement.js';

const FIRST = 22;
const FLOORS = {
  published: { all: 0.92, first: 105 / 112 },
  stripped: { all: 0.85, first: 100 / 112 },
};

const share = (os: readonly Outcome[]): number => os.filter((o) => o.agrees).length / os.length;
const misses = (os: readonly Outcome[]): string =>
  os
    .filter((o) => !o.agrees)
    .map((o) => `  ${o.file} ${o.field}: truth ${JSON.stringify(o.truth)} vs ${JSON.stringify(o.ours ?? null)}`)
    .join('\n');

for (const mode of ['published', 'stripped'] as const) {
  test(`benchmark pages ${mode}: at least the in-sample floors on all pages and on the first ${FIRST}`, (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const truth = JSON.parse(readRealFixture(dir, 'expected/product-extraction-benchmark--ground-truth.json')) as GroundTruth;
    const pages = benchmarkPages(readRealFixture(dir, 'MANIFEST.md'));
    assert.equal(pages.length, 62);
    const all = outcomes(pages, truth, (file, url) => {
      const html = readRealFixture(dir, `pages/${file}`);
      return ourPrediction(extractProduct(parsePage(mode === 'stripped' ? stripMarkup(html) : html, url)));
    });
    const first = all.filter((o) => o.page < FIRST);
    t.diagnostic(`${mode}: ${(100 * share(all)).toFixed(1)} % on ${pages.length} pages, ${(100 * share(first)).toFixed(1)} % on the first ${FIRST}`);
    assert.ok(share(all) >= FLOORS[mode].all, `${mode} ${(100 * share(all)).toFixed(1)} % is below the floor; misses:\n${misses(all)}`);
    assert.ok(share(first) >= FLOORS[mode].first - 1e-9, `${mode}, first ${FIRST}: ${(100 * share(first)).toFixed(1)} % is below the floor; misses:\n${misses(first)}`);
  });
}
