// `npm run bench -- crawl`: deep audits on the loopback catalog with politeness off (CRAWL_POLITENESS=off, so
// instances read one store in parallel), as real service processes on one SQLite data folder: pages per minute for
// one and for two instances, each beside the baseline measured in the same run, the same pages fetched and read in a
// bare loop (no queue, no store, one at a time); and the memory an audit of 5,000 pages holds: the instance's resident
// growth over the run, and the heap its result computation keeps (read back from the store, templates, findings).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { startChildServer, waitReady, type ChildServer } from '../support/child-server.js';
import { startCatalogStore, type CatalogStore } from '../helpers/catalog-store.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import { createAccountKey } from '../../accounts/console-keys.js';
import { readPage } from '../../scan/parser-threads/page-work.js';
import { readPages } from '../../crawl/audits/read.js';
import { computeResult } from '../../crawl/audits/result.js';
import { rssMiB } from '../support/load-figures.js';

const ENV = { SCAN_ALLOW_PRIVATE: '1', CRAWL_POLITENESS: 'off', CRAWL_DELAY_MS: '0', CRAWL_WORKERS: '4', CRAWL_POLL_MS: '50', MONITOR: 'off' };

export interface CrawlFigures {
  bareLoopPagesPerMinute: number;
  oneInstancePagesPerMinute: number;
  twoInstancesPagesPerMinute: number;
  oneToBare: number;
  twoToOne: number;
  audit5000: { pages: number; minutes: number; rssIdleMiB: number; rssPeakMiB: number; resultHeapMiB: number; resultMs: number };
}

async function keyFor(dataDir: string): Promise<string> {
  const db = new SqliteRepo(join(dataDir, 'store.db'));
  await db.init();
  const account = await db.accounts.ensureAccount('bench@bench.test', new Date(), 'acct_bench');
  const { key } = await createAccountKey(db, account, 'bench');
  await db.close();
  return key;
}

/** One audit through the API of `instances` (all on one data folder); pages per minute from start to done. */
async function auditWith(instances: ChildServer[], store: CatalogStore, key: string, pages: number, onSample?: () => void): Promise<{ perMinute: number; minutes: number; id: string }> {
  const t0 = performance.now();
  const res = await fetch(`${instances[0].url}/api/v1/audits`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: store.url, max_pages: pages }) });
  const { audit_id: id } = (await res.json()) as { audit_id: string };
  for (;;) {
    onSample?.();
    const audit = (await (await fetch(`${instances[0].url}/api/v1/audits/${id}`, { headers: { connection: 'close' } })).json()) as { status: string };
    if (audit.status === 'done' || audit.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const minutes = (performance.now() - t0) / 60_000;
  return { perMinute: Math.round(pages / minutes), minutes, id };
}

async function instances(n: number, dataDir: string): Promise<ChildServer[]> {
  const list = await Promise.all(Array.from({ length: n }, () => startChildServer({ env: ENV, dataDir, startTimeoutMs: 240_000 })));
  await Promise.all(list.map((c) => waitReady(c.url)));
  return list;
}

/** The same pages fetched and read one after another in this process: what the work costs without the queue. */
async function bareLoop(store: CatalogStore, pages: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < pages; i++) {
    const url = `${store.origin}${store.productPath(i)}`;
    readPage({ kind: 'page', html: await (await fetch(url)).text(), url, opts: { status: 200 }, recognise: true, structure: true });
  }
  return Math.round(pages / ((performance.now() - t0) / 60_000));
}

export async function crawlFigures(): Promise<CrawlFigures> {
  const pages = 1000;
  const store = await startCatalogStore({ products: 5000, priceless: 3 });
  const dirs: string[] = [];
  const dir = () => (dirs.push(mkdtempSync(join(tmpdir(), 'srk-bench-crawl-'))), dirs[dirs.length - 1]);
  try {
    await bareLoop(store, 200); // warm
    const bare = await bareLoop(store, pages);

    const oneDir = dir();
    const oneKey = await keyFor(oneDir);
    const [solo] = await instances(1, oneDir);
    await auditWith([solo], store, oneKey, 100); // warm: threads, compiled code
    const one = await auditWith([solo], store, oneKey, pages);

    const twoDir = dir();
    const twoKey = await keyFor(twoDir);
    const pair = await instances(2, twoDir);
    await auditWith(pair, store, twoKey, 100);
    const two = await auditWith(pair, store, twoKey, pages);
    await Promise.all(pair.map((c) => c.stop()));

    // 5,000 pages on the single instance: its resident memory over the run, then the result's heap in this process.
    const rssIdle = rssMiB(solo.pid);
    let rssPeak = rssIdle;
    const big = await auditWith([solo], store, oneKey, 5000, () => (rssPeak = Math.max(rssPeak, rssMiB(solo.pid))));
    await solo.stop();
    const db = new SqliteRepo(join(oneDir, 'store.db'));
    await db.init();
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    gc();
    const heap0 = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const audited = await readPages(db, big.id);
    const result = computeResult(audited, 5000, null);
    const resultMs = performance.now() - t0;
    gc();
    const held = process.memoryUsage().heapUsed - heap0; // the pages and the result, still referenced below
    await db.close();
    return {
      bareLoopPagesPerMinute: bare,
      oneInstancePagesPerMinute: one.perMinute,
      twoInstancesPagesPerMinute: two.perMinute,
      oneToBare: +(one.perMinute / bare).toFixed(2),
      twoToOne: +(two.perMinute / one.perMinute).toFixed(2),
      audit5000: {
        pages: result.pages_audited + result.pages_not_read,
        minutes: +big.minutes.toFixed(2),
        rssIdleMiB: Math.round(rssIdle),
        rssPeakMiB: Math.round(rssPeak),
        resultHeapMiB: +(held / 1024 / 1024).toFixed(1),
        resultMs: Math.round(resultMs),
      },
    };
  } finally {
    await store.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

export function formatCrawl(f: CrawlFigures): string[] {
  return [
    'Deep audits on the loopback catalog, politeness off (pages per minute, start to done, plan included)',
    `  bare loop (fetch + read, one at a time, this process): ${f.bareLoopPagesPerMinute}`,
    `  one instance (CRAWL_WORKERS=4): ${f.oneInstancePagesPerMinute} (${f.oneToBare}× the bare loop)`,
    `  two instances on one data folder: ${f.twoInstancesPagesPerMinute} (${f.twoToOne}× one instance)`,
    `  an audit of 5,000 pages: ${f.audit5000.minutes} min, instance RSS ${f.audit5000.rssIdleMiB} → ${f.audit5000.rssPeakMiB} MiB; its result from the stored pages: ${f.audit5000.resultMs} ms, ${f.audit5000.resultHeapMiB} MiB of heap held`,
  ];
}
