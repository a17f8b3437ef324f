// The worker boundary is thin and lossless: a page or sitemap read on the pool's threads is exactly what the
// same functions return in line (structured clone keeps every fact), for the real-world corpus; and while the
// pool parses heavy pages the event loop stays free, unlike an in-line parse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readInPool, readInline, warmPagePool } from '../../../scan/parser-threads/page-pool.js';
import type { BodyTask } from '../../../scan/parser-threads/page-work.js';
import { readRealFixture, requireRealFixtures } from '../../helpers/artifacts.js';

test('real pages and sitemaps read on the pool equal the in-line reading', async (t) => {
  const dir = requireRealFixtures(t);
  if (!dir) return;
  const tasks: BodyTask[] = [
    ...readdirSync(join(dir, 'pages'))
      .filter((f) => f.endsWith('.html'))
      .map((f): BodyTask => ({ kind: 'page', html: readRealFixture(dir, `pages/${f}`), url: `https://shop.example/${f}`, opts: { status: 200 }, recognise: true })),
    ...readdirSync(join(dir, 'sitemaps'))
      .filter((f) => f.endsWith('.xml'))
      .map((f): BodyTask => ({ kind: 'sitemap', xml: readRealFixture(dir, `sitemaps/${f}`) })),
  ];
  assert.ok(tasks.length >= 20, `${tasks.length} fixtures`);
  const pooled = await Promise.all(tasks.map((task) => readInPool(task)));
  for (const [i, task] of tasks.entries()) {
    assert.deepEqual(pooled[i], await readInline(task), task.kind === 'page' ? task.url : `sitemap ${i}`);
  }
  assert.ok(pooled.some((r) => 'product' in r && r.product !== null), 'some products were extracted');
});

/** Heavy markup: about 2 MB of product cards, the size cap of one page. */
function heavyPage(): string {
  const card = (i: number) =>
    `<div class="card" itemscope itemtype="https://schema.org/Product"><h2 itemprop="name">Item ${i}</h2><span itemprop="price">${i}.99</span><a href="/products/item-${i}">more</a></div>`;
  let html = '<!doctype html><html><head><title>Catalogue</title></head><body>';
  for (let i = 0; html.length < 2_000_000; i++) html += card(i);
  return `${html}</body></html>`;
}

test('a heavy parse on the pool leaves the event loop free; the same parse in line blocks it', async () => {
  await warmPagePool();
  const task: BodyTask = { kind: 'page', html: heavyPage(), url: 'https://shop.example/', opts: {}, recognise: true };
  const lag = async (read: () => Promise<unknown>) => {
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    await new Promise((r) => setTimeout(r, 20));
    await read();
    await new Promise((r) => setTimeout(r, 20));
    h.disable();
    return h.max / 1e6;
  };
  const inline = await lag(() => readInline(task));
  const pooled = await lag(() => readInPool(task));
  // Ratio in the same run (house rule): the in-line parse holds the loop for the whole parse; on the pool only
  // copying the page out and its facts back does.
  assert.ok(pooled * 2 < inline, `event-loop delay: pool ${pooled.toFixed(0)} ms, in line ${inline.toFixed(0)} ms`);
});
