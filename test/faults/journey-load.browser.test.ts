// Ten buying journeys at once (test/support/journey-load.ts): every scan completes and walks, none buys or submits
// anything, and reads stay within 10× of their idle p99 measured in the same run, or of an idle twin instance's p99
// at the same moments when the machine itself is busy — the bound every load test holds. The service's own memory
// stays under the other load tests' bound; the browser's is stated. LOAD_LOG=1 prints the figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromiumAvailable } from '../helpers/browser.js';
import { takeLoadTurn } from '../support/load-turn.js';
import { JOURNEYS, journeysUnderReads } from '../support/journey-load.js';
import { assertReadsHeld } from '../support/load-figures.js';

const RSS_BOUND_MIB = 1024;

test('10 journeys at once: every scan walks, nothing is bought, reads stay within 10× of idle', { timeout: 600_000 }, async (t) => {
  if (!chromiumAvailable(t)) return;
  if (!existsSync('/proc/self/status')) return t.skip('needs /proc to read resident memory');
  await takeLoadTurn(t); // measured alone: no other load test's scans in its idle or loaded figures
  const f = await journeysUnderReads((fn) => t.after(fn));
  t.diagnostic(JSON.stringify(f));
  if (process.env.LOAD_LOG === '1') console.log('journey load:', f);
  assert.equal(f.journeys, JOURNEYS);
  assert.equal(f.walked, JOURNEYS, 'every scan walked its store');
  assert.equal(f.canaryHits, 0, 'no order, no checkout submission, nothing typed but a product name');
  assert.ok(f.rssPeakMiB < RSS_BOUND_MIB, `service peak RSS ${f.rssPeakMiB} MiB < ${RSS_BOUND_MIB} MiB`);
  assertReadsHeld(f, 'under load');
});
