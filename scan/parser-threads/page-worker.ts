// Worker-thread entry of the page pool (scan/parser-threads/page-pool.ts): one task in, its reading out. Loaded directly from the
// compiled build, and through scan/parser-threads/page-thread.mjs (which registers the TypeScript loader first) from sources.
// Before taking any task the thread reads the warm-up samples, so the parsers' patterns are compiled here, at
// start, rather than inside the first store's scan.
import { readBody, type BodyTask } from './page-work.js';
import { WARM_UP_TASKS } from './warm-up.js';

for (const task of WARM_UP_TASKS) readBody(task);

export default function work(task: BodyTask): unknown {
  return readBody(task);
}
