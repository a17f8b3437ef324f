// Polling for a condition another part of a test brings about (a scan reaching the store, a flight starting). The
// bound only catches a hang: it is far past what the condition takes even on a busy shared machine, where the first
// scan of a process also warms the scanner, so load on the machine never decides a result.
import assert from 'node:assert/strict';

export const HANG_MS = 60_000;

/** Polls every 10 ms until `done` holds; fails naming `what` after `boundMs`. */
export async function waitFor(done: () => boolean, what: string, boundMs = HANG_MS): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!done()) {
    assert.ok(Date.now() < deadline, `${what}: still waiting after ${boundMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
