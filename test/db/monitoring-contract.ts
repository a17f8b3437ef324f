// The behaviour every adapter's MonitoringRepo must show (db/monitoring-repo.ts), run against each adapter by
// sqlite.test.ts and mongo.test.ts beside the Repository contract. `twinOf` opens a second repository on the same
// store (another instance): claims made through both must go to exactly one of them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScanRecord, Repository } from '../../db/repo.js';
import type { Monitor, NewDelivery, WebhookEndpoint } from '../../db/monitoring-repo.js';
import { withRepoOf } from './contract.js';

const T0 = Date.parse('2025-03-01T12:00:00.000Z');
const at = (minutes: number): Date => new Date(T0 + minutes * 60_000);

async function save(repo: Repository, host: string, score: number, minutes: number, events = false): Promise<ScanRecord> {
  const scan: ScanRecord = {
    id: await repo.allocateScanId(),
    host,
    vertical: null,
    score,
    grade: score >= 70 ? 'C' : 'E',
    capped: false,
    agentReady: score >= 70,
    createdAt: at(minutes),
    ownerKeyId: null,
    report: { host, score },
    ...(events ? { events: true } : {}),
  };
  await repo.saveScan(scan);
  return scan;
}

const monitor = (accountId: string, host: string, dueMinutes: number): Monitor => ({
  id: `mon_${accountId}_${host}`,
  accountId,
  host,
  origin: `https://${host}`,
  cadence: 'daily',
  nextRunAt: at(dueMinutes),
  createdAt: at(0),
  lastRunAt: null,
  lastOutcome: null,
  lastScanId: null,
});

const endpoint = (id: string, accountId: string, extra: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id,
  accountId,
  url: `https://hooks.example/${id}`,
  events: ['scan.completed'],
  secretEnc: 'v1:sealed',
  previousSecretEnc: null,
  previousSecretUntil: null,
  createdAt: at(0),
  disabledAt: null,
  disabledReason: null,
  failingSince: null,
  ...extra,
});

const delivery = (id: string, endpointId: string, dueMinutes: number, messageId = `msg_${id}`): NewDelivery => ({
  id,
  dedupeKey: `${endpointId}:${messageId}`,
  endpointId,
  messageId,
  eventType: 'scan.completed',
  payload: '{"type":"scan.completed"}',
  nextAttemptAt: at(dueMinutes),
  createdAt: at(0),
});

const attemptOf = (endpointId: string, deliveryId: string, n: number, minutes: number) => ({
  endpointId,
  deliveryId,
  messageId: `msg_${deliveryId}`,
  eventType: 'scan.completed',
  attempt: n,
  status: 500,
  outcome: 'HTTP 500',
  durationMs: 12,
  at: at(minutes),
});

export function runMonitoringContract(
  name: string,
  makeRepo: () => Promise<Repository>,
  opts: { skip?: string | false; twinOf?: (repo: Repository) => Promise<Repository> } = {},
): void {
  if (opts.skip) {
    describe(name, () => {
      it('MonitoringRepo contract', { skip: opts.skip }, () => undefined);
    });
    return;
  }
  const withRepo = withRepoOf(makeRepo);

  describe(`${name}: monitoring`, () => {
    it('lists a host\'s scans newest first, up to the limit, and finds the scan before a given one', withRepo(async (repo) => {
      const a = await save(repo, 'h.example', 50, 1);
      const b = await save(repo, 'h.example', 60, 2);
      await save(repo, 'other.example', 10, 3);
      const c = await save(repo, 'h.example', 70, 3);
      const history = await repo.monitoring.scanHistory('h.example', 10);
      assert.deepEqual(history.map((s) => [s.id, s.score, s.grade]), [[c.id, 70, 'C'], [b.id, 60, 'E'], [a.id, 50, 'E']]);
      assert.deepEqual(history[0].createdAt, at(3));
      assert.equal(history[0].agentReady, true);
      assert.deepEqual((await repo.monitoring.scanHistory('h.example', 2)).map((s) => s.id), [c.id, b.id]);
      assert.equal(await repo.monitoring.previousScanId('h.example', c.id), b.id);
      assert.equal(await repo.monitoring.previousScanId('h.example', a.id), null);
      assert.deepEqual(await repo.monitoring.scanHistory('unknown.example', 10), []);
      assert.deepEqual(await repo.monitoring.scanHistory('{"$gt":""}', 10), []);
    }));

    it('scans of other pages than the entry point are neither history nor the previous scan', withRepo(async (repo) => {
      const a = await save(repo, 'h.example', 90, 1);
      const page: ScanRecord = { ...(await save(repo, 'other.example', 1, 2)), id: await repo.allocateScanId(), host: 'h.example', score: 16, grade: 'E', createdAt: at(2), publicEntry: false };
      await repo.saveScan(page);
      const b = await save(repo, 'h.example', 92, 3);
      assert.deepEqual((await repo.monitoring.scanHistory('h.example', 10)).map((s) => s.id), [b.id, a.id]);
      assert.equal(await repo.monitoring.previousScanId('h.example', b.id), a.id);
    }));

    it('a delisted host has no history; relisted, it has it again', withRepo(async (repo) => {
      await save(repo, 'gone.example', 50, 1);
      await repo.setDelisted('gone.example', true);
      assert.deepEqual(await repo.monitoring.scanHistory('gone.example', 10), []);
      await repo.setDelisted('gone.example', false);
      assert.equal((await repo.monitoring.scanHistory('gone.example', 10)).length, 1);
    }));

    it('a claim keeps its token when made again; verification keeps its first date; several accounts verify one host', withRepo(async (repo) => {
      const m = repo.monitoring;
      const base = { host: 'shop.example', origin: 'https://shop.example', createdAt: at(0), verifiedAt: null, method: null };
      const first = await m.putClaim({ ...base, accountId: 'acct_a', token: 'tok-1' });
      const again = await m.putClaim({ ...base, accountId: 'acct_a', token: 'tok-2' });
      assert.equal(first.token, 'tok-1');
      assert.equal(again.token, 'tok-1');
      await m.putClaim({ ...base, accountId: 'acct_b', token: 'tok-b' });
      assert.deepEqual(await m.verifiedClaims('shop.example'), []);
      await m.markVerified('acct_b', 'shop.example', at(5), 'file');
      await m.markVerified('acct_a', 'shop.example', at(7), 'meta');
      await m.markVerified('acct_b', 'shop.example', at(9), 'meta');
      const verified = await m.verifiedClaims('shop.example');
      assert.deepEqual(verified.map((c) => [c.accountId, c.verifiedAt?.toISOString(), c.method]), [
        ['acct_b', at(5).toISOString(), 'file'],
        ['acct_a', at(7).toISOString(), 'meta'],
      ]);
      assert.equal((await m.listClaims('acct_a')).length, 1);
      await m.clearVerified('acct_b', 'shop.example');
      assert.deepEqual((await m.verifiedClaims('shop.example')).map((c) => c.accountId), ['acct_a']);
      const withdrawn = (await m.getClaim('acct_b', 'shop.example'))!;
      assert.deepEqual([withdrawn.verifiedAt, withdrawn.method, withdrawn.token], [null, null, 'tok-b'], 'the claim and its token stay');
      assert.equal(await m.getClaim('acct_c', 'shop.example'), null);
    }));

    it('hands out verified claims due a re-check, longest unchecked first, each once per period; a fresh verification counts as a check', withRepo(async (repo) => {
      const m = repo.monitoring;
      const claim = (accountId: string) => ({ accountId, host: 'shop.example', origin: 'https://shop.example', token: `tok-${accountId}`, createdAt: at(0), verifiedAt: null, method: null });
      for (const id of ['acct_a', 'acct_b', 'acct_c']) await m.putClaim(claim(id));
      await m.markVerified('acct_b', 'shop.example', at(7), 'meta');
      await m.markVerified('acct_a', 'shop.example', at(5), 'file');
      const due = async (now: number, before: number) => (await m.claimDueRecheck(at(now), at(before)))?.accountId ?? null;
      assert.equal(await due(100, 4), null, 'nothing verified that long ago');
      assert.deepEqual([await due(100, 10), await due(100, 10), await due(100, 10)], ['acct_a', 'acct_b', null], 'the unverified claim is never due');
      assert.equal(await due(200, 100), 'acct_a', 'due again a period after its check');
      await m.markVerified('acct_b', 'shop.example', at(150), 'meta');
      assert.equal(await due(300, 120), null, 'the verification at 150 was a check');
      await m.clearVerified('acct_a', 'shop.example');
      assert.deepEqual([await due(400, 300), await due(400, 300)], ['acct_b', null], 'a withdrawn claim is not re-checked');
      assert.equal((await m.getClaim('acct_b', 'shop.example'))?.verifiedAt?.toISOString(), at(7).toISOString(), 'a re-check keeps the first date');
    }));

    it('adds monitors up to the cap, once per host, and removes them', withRepo(async (repo) => {
      const m = repo.monitoring;
      assert.equal(await m.addMonitor(monitor('acct', 'a.example', 0), 2), 'added');
      assert.equal(await m.addMonitor({ ...monitor('acct', 'a.example', 0), id: 'other' }, 2), 'exists');
      assert.equal(await m.addMonitor(monitor('acct', 'b.example', 0), 2), 'added');
      assert.equal(await m.addMonitor(monitor('acct', 'c.example', 0), 2), 'limit');
      assert.equal(await m.addMonitor(monitor('acct2', 'c.example', 0), 2), 'added');
      assert.deepEqual((await m.listMonitors('acct')).map((x) => x.host).sort(), ['a.example', 'b.example']);
      assert.equal(await m.removeMonitor('acct2', monitor('acct', 'a.example', 0).id), false, 'only the owner removes');
      assert.equal(await m.removeMonitor('acct', monitor('acct', 'a.example', 0).id), true);
      assert.equal(await m.addMonitor(monitor('acct', 'c.example', 0), 2), 'added', 'a removed monitor frees its slot');
    }));

    it('claims the most overdue monitor with a lease; a held lease blocks, an expired one frees; a lost lease cannot finish', withRepo(async (repo) => {
      const m = repo.monitoring;
      await m.addMonitor(monitor('acct', 'late.example', 5), 10);
      await m.addMonitor(monitor('acct', 'later.example', 8), 10);
      await m.addMonitor(monitor('acct', 'future.example', 60), 10);
      assert.equal(await m.claimDueMonitor(at(1), 60_000), null, 'nothing is due yet');
      const first = await m.claimDueMonitor(at(10), 60_000);
      assert.equal(first?.row.host, 'late.example');
      const second = await m.claimDueMonitor(at(10), 60_000);
      assert.equal(second?.row.host, 'later.example');
      assert.equal(await m.claimDueMonitor(at(10), 60_000), null, 'both due monitors are leased');
      const retaken = await m.claimDueMonitor(at(12), 60_000);
      assert.equal(retaken?.row.host, 'late.example', 'an expired lease is free again');
      assert.equal(await m.finishMonitorRun(first!, { nextRunAt: at(2000), at: at(10), outcome: 'scanned', scanId: 4 }), false);
      assert.equal(await m.finishMonitorRun(retaken!, { nextRunAt: at(2000), at: at(12), outcome: 'scanned', scanId: 7 }), true);
      const done = (await m.listMonitors('acct')).find((x) => x.host === 'late.example')!;
      assert.deepEqual([done.nextRunAt, done.lastOutcome, done.lastScanId], [at(2000), 'scanned', 7]);
    }));

    it('endpoints for a host are the enabled ones of the accounts that verified it', withRepo(async (repo) => {
      const m = repo.monitoring;
      const base = { host: 'shop.example', origin: 'https://shop.example', createdAt: at(0), verifiedAt: null, method: null };
      await m.putClaim({ ...base, accountId: 'owner', token: 't1' });
      await m.putClaim({ ...base, accountId: 'claimer', token: 't2' });
      await m.markVerified('owner', 'shop.example', at(1), 'meta');
      await m.addEndpoint(endpoint('ep_1', 'owner'));
      await m.addEndpoint(endpoint('ep_2', 'owner', { disabledAt: at(2), disabledReason: 'gone' }));
      await m.addEndpoint(endpoint('ep_3', 'claimer'));
      assert.deepEqual((await m.endpointsForHost('shop.example')).map((e) => e.id), ['ep_1']);
      const ep = (await m.getEndpoint('ep_1'))!;
      assert.deepEqual(ep, endpoint('ep_1', 'owner'));
      await m.updateEndpoint({ ...ep, events: ['score.changed'], failingSince: at(3), url: 'https://ignored.example/' });
      const updated = (await m.getEndpoint('ep_1'))!;
      assert.deepEqual([updated.events, updated.failingSince, updated.url], [['score.changed'], at(3), 'https://hooks.example/ep_1']);
      assert.equal(await m.removeEndpoint('claimer', 'ep_1'), false);
      assert.equal(await m.removeEndpoint('owner', 'ep_1'), true);
      assert.deepEqual((await m.listEndpoints('owner')).map((e) => e.id), ['ep_2']);
    }));

    it('a scan saved with events queues one outbox row in the same step; fan-out adds deliveries once', withRepo(async (repo) => {
      const m = repo.monitoring;
      await save(repo, 'quiet.example', 50, 1);
      assert.equal(await m.claimScanEvent(at(2), 60_000), null, 'a scan saved without events queues nothing');
      const scan = await save(repo, 'loud.example', 50, 1, true);
      const claim = await m.claimScanEvent(at(2), 60_000);
      assert.deepEqual(claim?.row, { scanId: scan.id, host: 'loud.example', createdAt: at(1) });
      assert.equal(await m.claimScanEvent(at(2), 60_000), null, 'leased');
      assert.equal(await m.completeScanEvent(claim!, [delivery('d1', 'ep', 2), delivery('d2', 'ep', 2, 'msg_d1')]), true);
      assert.equal(await m.claimScanEvent(at(100), 60_000), null, 'the event is gone once fanned out');
      assert.ok(await m.getDelivery('d1'));
      assert.equal(await m.getDelivery('d2'), null, 'a second delivery of one message to one endpoint is skipped');
    }));

    it('claims due deliveries with a lease, records attempts and keeps the newest 100 per endpoint', withRepo(async (repo) => {
      const m = repo.monitoring;
      await m.addDelivery(delivery('d1', 'ep', 5));
      await m.addDelivery(delivery('d1-again', 'ep', 5, 'msg_d1'));
      assert.equal(await m.getDelivery('d1-again'), null);
      assert.equal(await m.claimDueDelivery(at(1), 60_000), null);
      const claim = (await m.claimDueDelivery(at(6), 60_000))!;
      assert.deepEqual([claim.row.id, claim.row.attempts, claim.row.state], ['d1', 0, 'pending']);
      assert.equal(await m.claimDueDelivery(at(6), 60_000), null, 'leased');
      assert.equal(await m.recordAttempt(claim, attemptOf('ep', 'd1', 1, 6), { state: 'pending', nextAttemptAt: at(30) }), true);
      assert.equal(await m.recordAttempt(claim, attemptOf('ep', 'd1', 1, 6), { state: 'delivered' }), false, 'the lease ends with the attempt');
      assert.equal(await m.claimDueDelivery(at(20), 60_000), null, 'not due before its retry time');
      const retry = (await m.claimDueDelivery(at(30), 60_000))!;
      assert.equal(retry.row.attempts, 1);
      assert.equal(await m.recordAttempt(retry, { ...attemptOf('ep', 'd1', 2, 30), status: 204, outcome: 'delivered' }, { state: 'delivered' }), true);
      assert.equal((await m.getDelivery('d1'))?.state, 'delivered');
      assert.equal(await m.claimDueDelivery(at(10_000), 60_000), null, 'a delivered message is never claimed again');
      const attempts = await m.listAttempts('ep', 100);
      assert.deepEqual(attempts.map((a) => [a.attempt, a.status]), [[2, 204], [1, 500]]);

      for (let i = 0; i < 105; i++) {
        await m.addDelivery(delivery(`bulk${i}`, 'ep2', 0));
        const c = (await m.claimDueDelivery(at(40 + i), 60_000))!;
        await m.recordAttempt(c, attemptOf('ep2', c.row.id, 1, 40 + i), { state: 'failed' });
      }
      const kept = await m.listAttempts('ep2', 1000);
      assert.equal(kept.length, 100);
      assert.deepEqual(kept[0].at, at(144), 'newest first');
      assert.deepEqual(kept[99].at, at(45), 'the oldest five are dropped');
      assert.equal((await m.listAttempts('ep', 100)).length, 2, 'per endpoint');
    }));

    it('deliveries are claimed fairly: one in flight per endpoint, two per account, the least busy account first', withRepo(async (repo) => {
      const m = repo.monitoring;
      for (const [id, acct] of [['epA1', 'acctA'], ['epA2', 'acctA'], ['epA3', 'acctA'], ['epB', 'acctB']]) await m.addEndpoint(endpoint(id, acct));
      // Account A's deliveries are all due before B's one.
      await m.addDelivery(delivery('a1-1', 'epA1', 1));
      await m.addDelivery(delivery('a1-2', 'epA1', 1));
      await m.addDelivery(delivery('a2', 'epA2', 2));
      await m.addDelivery(delivery('a3', 'epA3', 3));
      await m.addDelivery(delivery('b', 'epB', 5));
      const HOUR = 3_600_000; // leases outlive every instant of this case
      const claimed = async () => (await m.claimDueDelivery(at(10), HOUR));
      const first = (await claimed())!;
      assert.equal(first.row.id, 'a1-1', 'due the longest');
      assert.equal((await claimed())?.row.id, 'b', 'B has nothing in flight, A has one: B goes first');
      const third = (await claimed())!;
      assert.equal(third.row.id, 'a2', 'a1-2 waits: its endpoint has one in flight');
      assert.equal(await claimed(), null, 'A has two in flight: a3 waits');
      assert.equal(await m.recordAttempt(first, attemptOf('epA1', 'a1-1', 1, 10), { state: 'delivered' }), true);
      const again = (await claimed())!;
      assert.equal(again.row.id, 'a1-2', 'the endpoint is free again');
      // Given back unsent: not due before the given time, its attempts unchanged.
      assert.equal(await m.postponeDelivery({ ...again, leaseToken: 'not-mine' }, at(50)), false);
      assert.equal(await m.postponeDelivery(again, at(50)), true);
      assert.equal((await m.getDelivery('a1-2'))?.attempts, 0);
      assert.equal((await claimed())?.row.id, 'a3', 'A has one in flight again (a2)');
      assert.equal(await m.claimDueDelivery(at(49), HOUR), null);
      assert.equal(await m.recordAttempt(third, attemptOf('epA2', 'a2', 1, 10), { state: 'delivered' }), true);
      assert.equal((await m.claimDueDelivery(at(50), HOUR))?.row.id, 'a1-2');
    }));

    it('removing an account removes its claims, monitors and endpoints, and nobody else\'s', withRepo(async (repo) => {
      const m = repo.monitoring;
      for (const acct of ['gone', 'stays']) {
        await m.putClaim({ accountId: acct, host: 'shop.example', origin: 'https://shop.example', token: `t-${acct}`, createdAt: at(0), verifiedAt: null, method: null });
        await m.markVerified(acct, 'shop.example', at(1), 'meta');
        await m.addMonitor(monitor(acct, 'shop.example', 0), 1);
        await m.addEndpoint(endpoint(`ep_${acct}`, acct));
      }
      await m.removeAccount('gone');
      assert.deepEqual([await m.listClaims('gone'), await m.listMonitors('gone'), await m.listEndpoints('gone')], [[], [], []]);
      assert.deepEqual((await m.endpointsForHost('shop.example')).map((e) => e.id), ['ep_stays']);
      assert.equal((await m.listMonitors('stays')).length, 1);
      assert.equal(await m.addMonitor(monitor('gone', 'shop.example', 0), 1), 'added', 'a new account of that id starts with free slots');
    }));

    it('two instances on one store: each due monitor, outbox row and delivery goes to exactly one of them', { skip: !opts.twinOf && 'needs a second instance on the same store' }, withRepo(async (repo) => {
      const twin = await opts.twinOf!(repo);
      try {
        for (let i = 0; i < 6; i++) {
          await repo.monitoring.addMonitor(monitor('acct', `m${i}.example`, i), 10);
          await save(repo, `s${i}.example`, 50, i, true);
          await repo.monitoring.addDelivery(delivery(`d${i}`, `ep${i}`, i)); // one endpoint has one in flight at most
        }
        const race = async <T>(claim: (r: Repository) => Promise<T | null>, key: (row: T) => string) => {
          const got: string[] = [];
          const loop = async (r: Repository) => {
            for (let row = await claim(r); row; row = await claim(r)) got.push(key(row));
          };
          await Promise.all([loop(repo), loop(twin), loop(repo), loop(twin)]);
          return got;
        };
        const monitors = await race((r) => r.monitoring.claimDueMonitor(at(100), 600_000), (c) => c.row.id);
        const events = await race((r) => r.monitoring.claimScanEvent(at(100), 600_000), (c) => String(c.row.scanId));
        const deliveries = await race((r) => r.monitoring.claimDueDelivery(at(100), 600_000), (c) => c.row.id);
        for (const [what, got] of [['monitors', monitors], ['events', events], ['deliveries', deliveries]] as const) {
          assert.equal(got.length, 6, `${what}: every row claimed`);
          assert.equal(new Set(got).size, 6, `${what}: no row claimed twice`);
        }
        const slots = await Promise.all(
          Array.from({ length: 8 }, (_, i) => (i % 2 ? twin : repo).monitoring.addMonitor(monitor('capped', `c${i}.example`, 0), 5)),
        );
        assert.equal(slots.filter((s) => s === 'added').length, 5, 'the cap holds across instances');
      } finally {
        await twin.close();
      }
    }));
  });
}
