// Worker-thread entry of the page pool (scan/page-pool.ts): one task in, its reading out. Loaded through
// scan/page-thread.mjs, which registers the TypeScript loader in the thread first.
import { readBody, type BodyTask } from './page-work.js';

export default function work(task: BodyTask): unknown {
  return readBody(task);
}
