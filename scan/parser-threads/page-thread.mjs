// The file each page-pool thread starts from (scan/parser-threads/page-pool.ts). Plain JavaScript that registers tsx itself, so
// a thread loads the TypeScript parsers however its parent was started (`tsx`, `node --import tsx`, with other
// --import flags a thread must not repeat) and whatever flags the parent had.
import { register } from 'tsx/esm/api';

register();
const { default: work } = await import('./page-worker.ts');

export default work;
