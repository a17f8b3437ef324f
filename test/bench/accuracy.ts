// Prints the in-sample extraction figures on the open product-extraction-benchmark pages (../shared/fixtures/real):
// field agreement with the human ground truth on the pages as published, and on the same pages with JSON-LD,
// microdata/RDFa attributes and OpenGraph/product tags stripped ("stripped"); per field, for all pages, the first 22
// the corpus opened with and the 40 opened later; then the misses by class. The comparison rule is the one
// test/scan/real-corpus.test.ts prints. Run: npx tsx test/bench/accuracy.ts [--misses]
import { parsePage } from '../../scan/documents/html.js';
import { extractProduct } from '../../scan/products/product.js';
import { existsSync } from 'node:fs';
import { readRealFixture, realFixturesDir, stripMarkup } from '../helpers/artifacts.js';
import { benchmarkPages, FIELDS, ourPrediction, outcomes, type Field, type GroundTruth, type Outcome } from '../helpers/benchmark-agreement.js';

const dir = realFixturesDir();
if (!existsSync(dir)) throw new Error('the real-world corpus (../shared/fixtures/real) is not there');
const truth = JSON.parse(readRealFixture(dir, 'expected/product-extraction-benchmark--ground-truth.json')) as GroundTruth;
const pages = benchmarkPages(readRealFixture(dir, 'MANIFEST.md'));
const FIRST = 22;
const SETS = [
  { label: `all ${pages.length}`, from: 0, to: pages.length },
  { label: `first ${FIRST}`, from: 0, to: FIRST },
  { label: `other ${pages.length - FIRST}`, from: FIRST, to: pages.length },
];

// The classes of misses: which part of the item an agent gets wrong, and whether it reads a wrong value or none.
const CLASS_OF: Record<Field, string> = {
  price: 'price', currency: 'currency', availability: 'stock', sku: 'item code', gtin: 'item code', mpn: 'item code', brand: 'brand',
};

const predict = (stripped: boolean) => (file: string, url: string) => {
  const html = readRealFixture(dir, `pages/${file}`);
  return ourPrediction(extractProduct(parsePage(stripped ? stripMarkup(html) : html, url)));
};

const pct = (a: number, n: number): string => (n === 0 ? '     -' : `${((100 * a) / n).toFixed(1).padStart(5)} %`);
const cell = (os: readonly Outcome[]): string => {
  const a = os.filter((o) => o.agrees).length;
  return `${pct(a, os.length)} ${`${a}/${os.length}`.padStart(7)}`;
};

const results = { published: outcomes(pages, truth, predict(false)), stripped: outcomes(pages, truth, predict(true)) };
const header = `${'field'.padEnd(13)}${(['published', 'stripped'] as const).map((mode) => SETS.map((s) => `${mode.slice(0, 4)} ${s.label}`.padStart(16)).join('')).join('  ')}`;
console.log(`In-sample agreement with the human ground truth, ${pages.length} open pages (the rules were built on these pages)`);
console.log(header);
for (const field of [...FIELDS, 'overall'] as const) {
  const row = (['published', 'stripped'] as const)
    .map((mode) =>
      SETS.map((s) => cell(results[mode].filter((o) => o.page >= s.from && o.page < s.to && (field === 'overall' || o.field === field))).padStart(16)).join(''),
    )
    .join('  ');
  console.log(`${field.padEnd(13)}${row}`);
}

for (const mode of ['published', 'stripped'] as const) {
  const misses = results[mode].filter((o) => !o.agrees);
  const classes = new Map<string, Outcome[]>();
  for (const o of misses) {
    const key = `${CLASS_OF[o.field]}: ${o.ours === undefined || o.ours === '' ? 'not read' : 'another value'}`;
    classes.set(key, [...(classes.get(key) ?? []), o]);
  }
  console.log(`\n${mode}: ${misses.length} misses by class`);
  for (const [key, os] of [...classes].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`  ${key.padEnd(28)} ${String(os.length).padStart(3)}`);
    if (!process.argv.includes('--misses')) continue;
    for (const o of os) console.log(`    ${o.file.slice(0, 40).padEnd(40)} ${o.field}: truth ${JSON.stringify(o.truth)} vs ${JSON.stringify(o.ours ?? null)}`);
  }
}
