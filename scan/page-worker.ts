// Worker-thread entry of the page pool (scan/page-pool.ts): one task in, its reading out. Loaded by piscina;
// under tsx the worker inherits the parent's --import loader, so this TypeScript file runs as it is.
import { readBody, type BodyTask } from './page-work.js';

export default function work(task: BodyTask): unknown {
  return readBody(task);
}
