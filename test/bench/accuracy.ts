// Prints the in-sample extraction figures on the open product-extraction-benchmark pages (../shared/fixtures/real):
// field agreement with the human ground truth on the pages as published, and on the same pages with JSON-LD,
// microdata/RDFa attributes and OpenGraph/product tags stripped ("stripped"). The comparison rule is the one
// test/scan/real-corpus.test.ts prints. Run: npx tsx test/bench/accuracy.ts [--misses]
import { parsePage } from '../../scan/documents/html.js';
import { extractProduct } from '../../scan/products/product.js';
import { existsSync } from 'node:fs';
import { readRealFixture, realFixturesDir, stripMarkup } from '../helpers/artifacts.js';
import { agrees, FIELDS, ourPrediction, type GroundTruth } from '../helpers/benchmark-agreement.js';

const dir = realFixturesDir();
if (!existsSync(dir)) throw new Error('the real-world corpus (../shared/fixtures/real) is not there');
const truth = JSON.parse(readRealFixture(dir, 'expected/product-extraction-benchmark--ground-truth.json')) as GroundTruth;
// The manifest's table names each page file with its benchmark id.
const manifest = readRealFixture(dir, 'MANIFEST.md');
const pages = [...manifest.matchAll(/^\| `([\w.-]+\.html)`.*`([0-9a-f]{64})`/gm)].map((m) => ({ file: m[1], id: m[2] }));

for (const stripped of [false, true]) {
  let agree = 0;
  let total = 0;
  const misses: string[] = [];
  for (const { file, id } of pages) {
    let html = readRealFixture(dir, `pages/${file}`);
    if (stripped) html = stripMarkup(html);
    const url = String(truth[id].url);
    const ours = ourPrediction(extractProduct(parsePage(html, url)));
    for (const f of FIELDS) {
      const raw = truth[id][f];
      const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
      if (values.length === 0) continue;
      total++;
      if (values.some((v) => agrees(f, v, ours[f]))) agree++;
      else misses.push(`  ${file.slice(0, 40).padEnd(40)} ${f}: truth ${JSON.stringify(values)} vs ${JSON.stringify(ours[f] ?? null)}`);
    }
  }
  console.log(`${stripped ? 'stripped ' : 'published'} ${((100 * agree) / total).toFixed(1)} % (${agree}/${total}) on ${pages.length} pages`);
  if (process.argv.includes('--misses')) console.log(misses.join('\n'));
}
