// The process tree below a process, read from /proc: the browser tests judge their own browser by the processes
// it started and ended, never by a machine-wide count, and the load tests sum their memory.
import { readdirSync, readFileSync } from 'node:fs';
import assert from 'node:assert/strict';

/** Every process below `root` (children, theirs, …) as it is now; processes that end while being read are left out. */
export function processesBelow(root: number): Set<number> {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* the process ended while being read */
    }
  }
  const below = new Set<number>();
  for (const pid of parent.keys()) {
    for (let at = parent.get(pid); at !== undefined && at > 1; at = parent.get(at)) {
      if (at === root) {
        below.add(pid);
        break;
      }
    }
  }
  return below;
}

/**
 * Waits (up to `waitMs`) for every process that appeared below `root` since `before` was taken to end, and asserts
 * that they did. Processes that were there before may end too (Chromium retires helpers in its own time); only what
 * the test started is judged.
 */
export async function assertStartedProcessesEnded(root: number, before: Set<number>, waitMs = 10_000): Promise<void> {
  const started = () => [...processesBelow(root)].filter((pid) => !before.has(pid));
  const until = Date.now() + waitMs;
  let left = started();
  while (left.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = started();
  }
  assert.deepEqual(left.map((pid) => `${pid} ${commandOf(pid)}`), [], `processes started below ${root} during the test are still running after ${waitMs / 1000} s`);
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 160);
  } catch {
    return '(ended)';
  }
}
