// Reads fetched bodies off the event loop: a small piscina pool of worker threads running scan/parser-threads/page-work.ts, so
// parsing a 2 MB page (about half a second) never holds up the service's reads while scans run. One pool per
// process, shared by every scan and started on first use. Its threads stay between scans (a new thread costs
// seconds of loading and pattern compiling, scan/parser-threads/warm-up.ts); idle threads are unreferenced by piscina, so a
// process that scanned once still exits when its work is done.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { readBody, type BodyRead, type BodyTask } from './page-work.js';
import { WARM_UP_TASKS } from './warm-up.js';

export type BodyReader = <T extends BodyTask>(task: T) => Promise<BodyRead<T>>;

/** Reads in this thread: for callers that want no threads (unit tests of gather, one-off tools). */
export const readInline: BodyReader = async (task) => readBody(task);

/** One thread less than the cores (the event loop keeps one), at least one, at most four. */
export const DEFAULT_PAGE_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));

const FROM_SOURCES = import.meta.url.endsWith('.ts');

let shared: Piscina | null = null;
let warm: Promise<void> | null = null;

function newPiscina(minThreads: number, maxThreads: number): Piscina {
  return new Piscina({
    // Compiled, a thread loads the compiled reader; from sources, a shim that registers the TypeScript loader first.
    filename: new URL(FROM_SOURCES ? './page-thread.mjs' : './page-worker.js', import.meta.url).href,
    execArgv: [], // the thread registers its own loader; the parent's --import flags are not for it
    minThreads,
    maxThreads,
    idleTimeout: 30_000,
  });
}

function pool(): Piscina {
  if (shared) return shared;
  // No queue cap here: tasks waiting for a thread are already bounded by the scans allowed to run at once
  // (SCAN_CONCURRENCY) times the pages one scan reads.
  shared = newPiscina(DEFAULT_PAGE_THREADS, DEFAULT_PAGE_THREADS);
  // A thread that fails to start is reported here rather than as an uncaught 'error' event; its tasks fail over.
  shared.on('error', (err: unknown) => onPoolError(err));
  return shared;
}

let onPoolError: (err: unknown) => void = () => {};

/** Where pool failures are reported (the server's logger); reads fall back to this thread meanwhile. */
export function reportPagePoolErrors(report: (err: unknown) => void): void {
  onPoolError = report;
}

/**
 * Resolves once the pool's threads have loaded the parsers and read the warm-up samples (about two seconds, longer
 * on a busy machine): one small task per thread, each held by a thread only once it is warm. A scan waits for it
 * before its deadline starts, so a cold pool never eats into a store's time budget.
 */
export function warmPagePool(): Promise<void> {
  if (warm) return warm;
  const p = pool();
  // The checks run on this thread and match the same patterns (stock wording, prices): compile them here too,
  // while the threads load.
  for (const task of WARM_UP_TASKS) readBody(task);
  warm = Promise.all(Array.from({ length: DEFAULT_PAGE_THREADS }, () => p.run({ kind: 'sitemap', xml: '' })))
    .then(
      () => undefined,
      (err: unknown) => {
        warm = null; // the next scan tries again; this one reads in line meanwhile (readInPool)
        onPoolError(err);
      },
    );
  return warm;
}

/**
 * Reads on the shared worker pool. The readers never throw on content, so a failed task is the pool's failure (a
 * thread that could not start or died): that body is read in this thread instead and the scan goes on.
 */
export const readInPool: BodyReader = async (task) => {
  try {
    return (await pool().run(task)) as BodyRead<typeof task>;
  } catch (err) {
    onPoolError(err);
    return readBody(task);
  }
};

/**
 * A pool of its own for background reading (deep audits): its thread never holds up a scan's reads, which keep the
 * shared pool to themselves. Started on the first read; an idle thread ends after 30 s. Tasks wait in it, bounded by
 * the pages its users have in flight.
 */
export function backgroundPagePool(threads = 1): { read: BodyReader; close(): Promise<void> } {
  let own: Piscina | null = null;
  return {
    read: async (task) => {
      own ??= newPiscina(0, threads);
      try {
        return (await own.run(task)) as BodyRead<typeof task>;
      } catch (err) {
        onPoolError(err);
        return readBody(task);
      }
    },
    close: async () => {
      const p = own;
      own = null;
      await p?.destroy();
    },
  };
}

/** Stops the pool's threads (graceful shutdown, tests); the next read starts a new pool. */
export async function closePagePool(): Promise<void> {
  const p = shared;
  shared = null;
  warm = null;
  await p?.destroy();
}
