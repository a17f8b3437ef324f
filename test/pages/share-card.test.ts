// The report's share card is a PNG (score, grade, host) named as its og:image: most networks show no SVG preview.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startApp } from '../helpers/start-app.js';
import { saveFakeScan } from '../helpers/scans.js';
import { shareCardSvg } from '../../pages/share-card.js';

const OUT = fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url));

test('a report names a 1200×630 PNG card as its og:image, and the card is served as a PNG', async (t) => {
  const app = await startApp(t);
  const scan = await saveFakeScan(app.db, { host: 'card.example', score: 91 });
  const page = await fetch(`${app.url}/r/${scan.scan_id}`).then((r) => r.text());
  const card = `${app.config.BASE_URL}/r/${scan.scan_id}/card.png`;
  assert.match(page, new RegExp(`<meta property="og:image" content="${card.replace(/[.?]/g, '\\$&')}">\\n<meta property="og:image:type" content="image/png">`));
  assert.match(page, /<meta property="og:image:width" content="1200">\n<meta property="og:image:height" content="630">/);
  assert.match(page, /<meta name="twitter:card" content="summary_large_image">/);

  const res = await fetch(`${app.url}/r/${scan.scan_id}/card.png`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.match(res.headers.get('cache-control') ?? '', /max-age=86400/);
  const png = Buffer.from(await res.arrayBuffer());
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
  assert.equal(png.readUInt32BE(16), 1200);
  assert.equal(png.readUInt32BE(20), 630);
  mkdirSync(OUT, { recursive: true });
  writeFileSync(`${OUT}share-card.png`, png);

  assert.equal((await fetch(`${app.url}/r/999999/card.png`)).status, 404);
  assert.equal((await fetch(`${app.url}/r/x1/card.png`)).status, 404);
});

test('the card draws the store text as text: markup in a host cannot become SVG', () => {
  const svg = shareCardSvg({ host: '<script>x</script>&"', score: 40, grade: 'D' });
  assert.doesNotMatch(svg, /<script>/);
  assert.match(svg, /&lt;script&gt;x&lt;\/script&gt;&amp;&quot;/);
});
