// Load, bounded and on loopback only: 40 concurrent scans of 40 stores serving 2 MiB pages against the real service
// in its own process (SCAN_CONCURRENCY 4, SCAN_QUEUE 4), while /healthz and a stored report are read in a loop.
// The scans past the bound get 503 SCANNER_BUSY with Retry-After; the service's memory stays under a stated
// bound; the p99 of the reads stays within 10× of their idle p99 measured in the same run, or of an idle twin
// instance's p99 at the same moments when the machine itself is busy (house rule: ratios only;
// test/support/load-figures.ts).
// LOAD_LOG=1 prints the figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { startChildServer } from '../support/child-server.js';
import { startFixtureStore, type FixtureStore } from '../helpers/fixture-store.js';
import { takeLoadTurn } from '../support/load-turn.js';
import { ReadProbe, assertReadsHeld, rssMiB } from '../support/load-figures.js';

const STORES = 40;
const CONCURRENCY = 4;
const QUEUE = 4;
const PAGE_BYTES = 2 * 1024 * 1024;
/**
 * The stated bounds: the service stays under 1 GiB resident, and grows by less than 512 MiB over its idle size
 * (four running scans of at most 12 MiB of bodies each, their copies on the parser threads and the garbage
 * collector's slack). Unbounded, the same load took it from 160 MiB to 1.36 GiB.
 */
const RSS_BOUND_MIB = 1024;
const RSS_GROWTH_BOUND_MIB = 512;

/** A 2 MiB product page: real-looking markup all the way, so parsing it is real work (about half a second). */
function heavyPage(title: string): string {
  const head = `<!doctype html><html lang="en"><head><title>${title}</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"${title}","sku":"SKU-1","brand":{"@type":"Brand","name":"Heavy"},"offers":{"@type":"Offer","price":"19.99","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}</script>
</head><body><h1>${title}</h1><p>€19.99</p><button>Add to cart</button>`;
  const parts = [head];
  let size = head.length;
  for (let i = 0; size < PAGE_BYTES - 200; i++) {
    const card = `<div class="card"><a href="/products/item-${i % 2}"><span class="name">Item ${i}</span></a><span class="price">€${i % 90}.99</span><ul><li>Cotton</li><li>Blue</li></ul></div>\n`;
    parts.push(card);
    size += card.length;
  }
  parts.push('</body></html>');
  return parts.join('');
}

const html = { 'content-type': 'text/html; charset=utf-8' };
let pages: Buffer[] | undefined;

/** A store of three heavy pages; every store serves the same bytes (made once, so this process stays small). */
async function heavyStore(): Promise<FixtureStore> {
  pages ??= ['Heavy Store', 'Item Zero', 'Item One'].map((title) => Buffer.from(heavyPage(title)));
  return startFixtureStore({
    '/': { body: pages[0], headers: html },
    '/products/item-0': { body: pages[1], headers: html },
    '/products/item-1': { body: pages[2], headers: html },
    '/robots.txt': { body: 'User-agent: *\nAllow: /\n', headers: { 'content-type': 'text/plain' } },
  });
}

test('40 concurrent heavy scans: the excess is 503 with Retry-After, memory stays bounded, reads stay fast', { timeout: 240_000 }, async (t) => {
  if (!existsSync('/proc/self/status')) return t.skip('needs /proc to read the service\'s resident set');
  await takeLoadTurn(t); // measured alone: no other load test's scans in its idle or loaded figures
  const stores: FixtureStore[] = [];
  for (let i = 0; i < STORES + 1; i++) stores.push(await heavyStore());
  t.after(() => Promise.all(stores.map((s) => s.close())));
  const env = { SCAN_ALLOW_PRIVATE: '1', SCAN_CONCURRENCY: String(CONCURRENCY), SCAN_QUEUE: String(QUEUE), ANON_SCANS_PER_HOUR: '1000', ANON_READS_PER_MINUTE: '1000000', SCAN_TIMEOUT_MS: '120000' };
  const app = await startChildServer({ env });
  t.after(() => app.stop(10_000));

  // A stored report to read: one scan of the spare store (also starts the parser threads' work).
  const seeded = await fetch(`${app.url}/api/v1/scan?url=${encodeURIComponent(stores[STORES].url)}`);
  assert.equal(seeded.status, 200, await seeded.clone().text());
  const scanId = ((await seeded.json()) as { scan_id: number }).scan_id;
  const reads = ['/healthz', `/api/v1/scan/${scanId}.json`];

  // Idle: the same read loop with nothing else running.
  const probe = await ReadProbe.start({ ...app, env }, reads, (fn) => t.after(fn));
  await probe.measureIdle();
  const rssIdle = rssMiB(app.pid);

  let peakRss = rssIdle;
  // Unreferenced: a test that times out before clearing it must not keep its process (and the whole run) alive.
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(app.pid))), 50).unref();
  const { result: answers, wallMs } = await probe.during(() =>
    Promise.all(
      stores.slice(0, STORES).map(async (s) => {
        const res = await fetch(`${app.url}/api/v1/scan?url=${encodeURIComponent(s.url)}`);
        const body = (await res.json()) as { code?: string };
        return { status: res.status, retryAfter: res.headers.get('retry-after'), code: body.code };
      }),
    ),
  );
  clearInterval(sampler);

  const ok = answers.filter((a) => a.status === 200).length;
  const busy = answers.filter((a) => a.status === 503);
  const figures = {
    ok,
    busy: busy.length,
    other: answers.filter((a) => a.status !== 200 && a.status !== 503).map((a) => `${a.status} ${a.code}`),
    wallS: +(wallMs / 1000).toFixed(1),
    rssIdleMiB: Math.round(rssIdle),
    rssPeakMiB: Math.round(peakRss),
    ...probe.figures(),
    maxLoadedMs: +Math.max(...probe.loaded.service).toFixed(1),
  };
  t.diagnostic(JSON.stringify(figures));
  if (process.env.LOAD_LOG === '1') console.log('scan load:', figures);

  assert.deepEqual(figures.other, [], 'every scan either ran or was refused as busy');
  assert.equal(ok, CONCURRENCY + QUEUE, 'the admitted scans completed');
  assert.equal(busy.length, STORES - CONCURRENCY - QUEUE);
  for (const b of busy) {
    assert.equal(b.code, 'SCANNER_BUSY');
    assert.ok(Number(b.retryAfter) > 0, 'Retry-After');
  }
  assert.ok(peakRss < RSS_BOUND_MIB, `peak RSS ${peakRss.toFixed(0)} MiB < ${RSS_BOUND_MIB} MiB`);
  assert.ok(peakRss - rssIdle < RSS_GROWTH_BOUND_MIB, `RSS grew by ${(peakRss - rssIdle).toFixed(0)} MiB < ${RSS_GROWTH_BOUND_MIB} MiB`);
  assertReadsHeld(probe.figures(), 'under load');
});
