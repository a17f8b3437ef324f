// A monitored store whose buying journey ends otherwise than the walk before gets a journey.changed event
// (monitoring/events.ts); a scan that could not walk changes nothing, and the event data says both ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventsForScan } from '../../monitoring/events.js';
import type { ScanRecord } from '../../db/repo.js';
import { notRunJourney } from '../../scan/journey/report.js';
import { ScanEventData } from '../../schemas/webhook-event.js';
import type { Journey } from '../../schemas/journey.js';

const reached: Journey = { ...notRunJourney('walked'), outcome: 'reached_checkout', walked_at: '2026-12-01T10:00:00.000Z' };
const stopped = (blocker: Journey['blocker']): Journey => ({ ...reached, outcome: 'stopped', blocker });

function scan(id: number, journey: Journey | undefined): ScanRecord {
  return {
    id,
    host: 'shop.test',
    vertical: null,
    score: 80,
    grade: 'B',
    capped: false,
    agentReady: true,
    createdAt: new Date('2026-12-01T10:00:00Z'),
    ownerKeyId: null,
    ownerAccountId: null,
    report: { pillars: [], journey },
    publicEntry: true,
  } as unknown as ScanRecord;
}

const types = (now: ScanRecord, before: ScanRecord | null) => eventsForScan(now, before, 'https://sr.test/r/1').map((e) => e.type);

test('reached the checkout, then stopped at a sign-in wall: journey.changed, with both ends in the data', () => {
  const events = eventsForScan(scan(2, stopped('login_required')), scan(1, reached), 'https://sr.test/r/2');
  assert.deepEqual(events.map((e) => e.type), ['scan.completed', 'journey.changed']);
  const data = ScanEventData.parse(JSON.parse(events[1].body).data);
  assert.deepEqual([data.journey, data.previous_journey], [{ outcome: 'stopped', blocker: 'login_required' }, { outcome: 'reached_checkout', blocker: null }]);
  assert.equal(events[1].messageId, 'msg_scan2_journey_changed');
});

test('another blocker is a change; the same end, or a scan that did not walk, is none', () => {
  assert.deepEqual(types(scan(2, stopped('challenge')), scan(1, stopped('login_required'))), ['scan.completed', 'journey.changed']);
  assert.deepEqual(types(scan(2, stopped('challenge')), scan(1, stopped('challenge'))), ['scan.completed']);
  assert.deepEqual(types(scan(2, notRunJourney('no browser')), scan(1, reached)), ['scan.completed']);
  assert.deepEqual(types(scan(2, reached), scan(1, undefined)), ['scan.completed'], 'a report from before the journey');
  assert.deepEqual(types(scan(1, reached), null), ['scan.completed']);
});
