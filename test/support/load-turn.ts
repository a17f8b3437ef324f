// Load tests compare reads under load with reads at idle on the same machine. The test runner runs two files at a
// time, so two load tests side by side would each measure the other's load as their "idle" or "loaded" figure.
// A load test takes this turn first: one at a time across the test processes of one run (an atomic mkdir, freed
// when the test ends or its process is gone).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

// One turn per checkout: the test processes of one run share it, while another clone's run on the same machine (a
// second worktree, a CI run beside a developer's) neither waits for it nor holds it.
const CHECKOUT = createHash('sha256').update(fileURLToPath(new URL('../../', import.meta.url))).digest('hex').slice(0, 12);
const TURN = join(tmpdir(), `store-readiness-load-turn-${process.getuid?.() ?? 'user'}-${CHECKOUT}`);

function holderAlive(): boolean {
  try {
    process.kill(Number(readFileSync(join(TURN, 'pid'), 'utf8')), 0);
    return true;
  } catch (err) {
    // No pid file yet (being written) counts as alive; a pid that no longer runs frees the turn.
    return (err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits until no other load test runs, then holds the turn until the test ends. */
export async function takeLoadTurn(t: { after(fn: () => void): void }, waitMs = 150_000): Promise<void> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(TURN);
      writeFileSync(join(TURN, 'pid'), String(process.pid));
      t.after(() => rmSync(TURN, { recursive: true, force: true }));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (!holderAlive()) rmSync(TURN, { recursive: true, force: true });
      else if (Date.now() > until) throw new Error(`another load test held the machine for ${waitMs} ms`, { cause: err });
      else await sleep(250);
    }
  }
}
