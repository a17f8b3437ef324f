// Prints the in-sample extraction figures on the open product-extraction-benchmark pages (../shared/fixtures/real):
// field agreement with the human ground truth on the pages as published, and on the same pages with JSON-LD,
// microdata/RDFa attributes and OpenGraph/product tags stripped ("stripped"). The comparison rule is the one
// test/scan/real-corpus.test.ts prints. Run: npx tsx test/bench/accuracy.ts [--misses]
import type { ProductFacts } from '../../scan/artifacts.js';
import { parsePage } from '../../scan/html.js';
import { extractProduct } from '../../scan/product.js';
import { parsePrice } from '../../scan/price.js';
import { existsSync } from 'node:fs';
import { readRealFixture, realFixturesDir, stripMarkup } from '../helpers/artifacts.js';

const FIELDS = ['price', 'currency', 'availability', 'brand', 'sku', 'gtin', 'mpn'] as const;
type Field = (typeof FIELDS)[number];
type GroundTruth = Record<string, Record<string, string[] | string>>;

const SYMBOLS: Record<string, string[]> = {
  '€': ['EUR'], '£': ['GBP'], '$': ['USD', 'CAD', 'AUD', 'NZD', 'ARS', 'MXN', 'CLP', 'COP', 'SGD', 'HKD', 'TWD'], 'R$': ['BRL'],
};
const ident = (s: string): string => s.toLowerCase().replace(/[\s./_-]/g, '');
const stock = (s: string): string => (s === 'SoldOut' || s === 'Discontinued' ? 'OutOfStock' : s);

function agrees(field: Field, truth: string, ours: string | undefined): boolean {
  if (ours === undefined || ours === '') return false;
  switch (field) {
    case 'price': {
      const a = parsePrice(truth);
      const b = parsePrice(ours);
      return a !== null && b !== null && Math.abs(a - b) <= 0.01;
    }
    case 'currency':
      return (SYMBOLS[truth.trim()] ?? [truth.trim().toUpperCase()]).includes(ours.trim().toUpperCase());
    case 'availability':
      return stock(truth) === stock(ours);
    case 'brand':
      return truth.replace(/\s+/g, ' ').trim().toLowerCase() === ours.replace(/\s+/g, ' ').trim().toLowerCase();
    default:
      return ident(truth) === ident(ours);
  }
}

function prediction(p: ProductFacts | null): Record<Field, string | undefined> {
  return {
    price: p?.price ? String(p.price.value) : undefined,
    currency: p?.currency?.value,
    availability: p?.availability?.value,
    brand: p?.brand?.value,
    sku: p?.sku?.value,
    gtin: p?.gtin?.value,
    mpn: p?.mpn?.value,
  };
}

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
    const ours = prediction(extractProduct(parsePage(html, url)));
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
