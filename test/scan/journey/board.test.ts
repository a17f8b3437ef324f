// One journey per store at a time, reused for 10 minutes (scan/journey/board.ts), with a clock the test moves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JOURNEY_REUSE_MS, JourneyBoard, reusable } from '../../../scan/journey/board.js';
import { notRunJourney } from '../../../scan/journey/report.js';
import type { Journey } from '../../../schemas/journey.js';

const walked = (at: Date): Journey => ({ ...notRunJourney('walked'), outcome: 'reached_checkout', walked_at: at.toISOString() });

test('a walk is found while it runs and for 10 minutes after it started, then no longer', async () => {
  let now = 1_000_000;
  const board = new JourneyBoard(() => now);
  let finish: (j: Journey) => void = () => undefined;
  const walk = new Promise<Journey>((resolve) => (finish = resolve));
  board.start('http://shop.test', walk);
  assert.equal(board.recent('http://shop.test'), walk, 'a second scan joins the running walk');
  assert.equal(board.recent('http://other.test'), null, 'another store walks on its own');
  finish(walked(new Date(now)));
  await walk;
  now += JOURNEY_REUSE_MS;
  assert.ok(board.recent('http://shop.test'), 'still reused at 10 minutes');
  now += 1;
  assert.equal(board.recent('http://shop.test'), null, 'walked again after 10 minutes');
});

test('a walk that ends without a walked journey, or fails, is forgotten at once', async () => {
  const board = new JourneyBoard();
  const notWalked = Promise.resolve(notRunJourney('no time'));
  board.start('http://a.test', notWalked);
  await notWalked;
  await new Promise((r) => setImmediate(r));
  assert.equal(board.recent('http://a.test'), null);
  const failed = Promise.reject(new Error('browser gone'));
  board.start('http://b.test', failed);
  await failed.catch(() => undefined);
  await new Promise((r) => setImmediate(r));
  assert.equal(board.recent('http://b.test'), null);
  const abandoned = Promise.resolve(null); // a scan that ended in an error before the walk was finished
  board.start('http://c.test', abandoned);
  await abandoned;
  await new Promise((r) => setImmediate(r));
  assert.equal(board.recent('http://c.test'), null);
});

test('the board remembers at most 1,000 stores, forgetting the oldest walk first', () => {
  const board = new JourneyBoard();
  for (let i = 0; i <= 1000; i++) board.start(`http://s${i}.test`, new Promise(() => undefined));
  assert.equal(board.recent('http://s0.test'), null);
  assert.ok(board.recent('http://s1.test'));
  assert.ok(board.recent('http://s1000.test'));
});

test('a stored journey is reused only when it walked less than 10 minutes ago and reads back through its schema', () => {
  const now = Date.parse('2026-12-01T12:00:00Z');
  assert.ok(reusable(walked(new Date(now - 60_000)), now));
  assert.equal(reusable(walked(new Date(now - JOURNEY_REUSE_MS - 1)), now), null);
  assert.equal(reusable(notRunJourney('no browser'), now), null, 'a journey that did not walk is never reused');
  assert.equal(reusable({ outcome: 'reached_checkout', walked_at: new Date(now).toISOString() }, now), null, 'a stored journey that fails its schema is not reused');
  assert.equal(reusable(undefined, now), null);
});
