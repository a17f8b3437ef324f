// The behaviour every adapter's QueueRepo and AuditRepo must show (db/queue-repo.ts, db/audit-repo.ts), run by
// test/db/sqlite/repo.test.ts and test/db/mongo/repo.test.ts. `twinOf` opens a second repository on the same store
// (another instance): claims through both must never give one item, or one host's turn, to two holders.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Repository } from '../../db/repo.js';
import type { NewWork, WorkKind } from '../../db/queue-repo.js';
import type { AuditRecord } from '../../db/audit-repo.js';
import { withRepoOf } from './contract.js';

const T0 = Date.parse('2025-03-01T12:00:00.000Z');
const at = (seconds: number): Date => new Date(T0 + seconds * 1000);
const LEASE = 30_000;
const polite = { polite: true };

let seq = 0;
function item(group: string, host: string, path: string, kind: WorkKind = 'audit_page'): NewWork {
  seq++;
  return { id: `w_${group}_${host}_${path}_${seq}`, kind, group, host, url: `https://${host}/${path}`, seq, createdAt: at(0) };
}

function audit(id: string, accountId: string, host: string, createdSeconds = 0): AuditRecord {
  return {
    id, accountId, host, url: `https://${host}/`, maxPages: 200, status: 'queued', createdAt: at(createdSeconds),
    discovered: null, planned: null, delayMs: 1000, finishedAt: null, error: null, result: null,
  };
}

export interface QueueContractHooks {
  twinOf?: (repo: Repository) => Promise<Repository>;
  skip?: string | false;
}

export function runQueueContract(name: string, makeRepo: () => Promise<Repository>, hooks: QueueContractHooks = {}): void {
  const withRepo = withRepoOf(makeRepo);

  describe(`${name} queue contract`, { skip: hooks.skip }, () => {
    it('enqueues each (group, url) once and counts the group', withRepo(async (repo) => {
      const a = item('g1', 'a.example', 'p1');
      assert.equal(await repo.queue.enqueue([a, item('g1', 'a.example', 'p2')]), 2);
      assert.equal(await repo.queue.enqueue([{ ...a, id: 'another-id' }, item('g2', 'a.example', 'p1')]), 1, 'the same url in another group is another item');
      assert.deepEqual(await repo.queue.counts('g1', at(0)), { queued: 2, done: 0, failed: 0, finishedSince: 0 });
    }));

    it('a polite claim takes the item with its host\'s turn: one in flight per host, other hosts go on', withRepo(async (repo) => {
      await repo.queue.enqueue([item('g', 'a.example', '1'), item('g', 'a.example', '2'), item('g', 'b.example', '1')]);
      const first = await repo.queue.claim('audit_page', at(1), LEASE, polite);
      assert.ok(first);
      assert.equal(first.row.attempts, 1);
      const second = await repo.queue.claim('audit_page', at(1), LEASE, polite);
      assert.ok(second);
      assert.notEqual(second.row.host, first.row.host, 'the first host has a request in flight');
      assert.equal(await repo.queue.claim('audit_page', at(1), LEASE, polite), null, 'both hosts busy');
      assert.equal(await repo.queue.claim('seed_scan', at(1), LEASE, polite), null, 'another kind has nothing queued');
      const pace = await repo.queue.hostPace(first.row.host);
      assert.equal(pace?.leaseUntil.getTime(), at(1).getTime() + LEASE);
    }));

    it('finishing hands the turn back due at hostFreeAt; the lease token decides; results keep seq order', withRepo(async (repo) => {
      await repo.queue.enqueue([item('g', 'a.example', '1'), item('g', 'a.example', '2')]);
      const c = (await repo.queue.claim('audit_page', at(1), LEASE, polite))!;
      assert.ok(await repo.queue.finish(c, { state: 'done', result: '{"ok":true}', at: at(2), hostFreeAt: at(3) }));
      assert.equal(await repo.queue.finish(c, { state: 'failed', result: null, at: at(2), hostFreeAt: at(3) }), false, 'finished once');
      assert.equal(await repo.queue.claim('audit_page', at(2.5), LEASE, polite), null, 'the host is not due before hostFreeAt');
      assert.deepEqual(await repo.queue.nextReadyAt('audit_page', at(2.5)), at(3));
      const next = await repo.queue.claim('audit_page', at(3), LEASE, polite);
      assert.equal(next?.row.url, 'https://a.example/2');
      assert.ok(await repo.queue.finish(next!, { state: 'failed', result: '{"reason":"HTTP 500"}', at: at(4), hostFreeAt: at(5) }));
      const results = await repo.queue.results('g', 0, 10);
      assert.deepEqual(results.map((r) => [r.url, r.state, r.result]), [
        ['https://a.example/1', 'done', '{"ok":true}'],
        ['https://a.example/2', 'failed', '{"reason":"HTTP 500"}'],
      ]);
      assert.deepEqual((await repo.queue.results('g', results[0].seq, 10)).map((r) => r.url), ['https://a.example/2'], 'paged after a seq');
      assert.deepEqual(await repo.queue.counts('g', at(3.5)), { queued: 0, done: 1, failed: 1, finishedSince: 1 });
      assert.equal(await repo.queue.nextReadyAt('audit_page', at(6)), null, 'nothing queued');
    }));

    it('a lease that runs out frees the item and the turn; the old holder can no longer finish', withRepo(async (repo) => {
      await repo.queue.enqueue([item('g', 'a.example', '1')]);
      const dead = (await repo.queue.claim('audit_page', at(0), LEASE, polite))!;
      assert.equal(await repo.queue.claim('audit_page', at(29), LEASE, polite), null);
      const taken = await repo.queue.claim('audit_page', at(31), LEASE, polite);
      assert.equal(taken?.row.id, dead.row.id);
      assert.equal(taken?.row.attempts, 2);
      assert.equal(await repo.queue.finish(dead, { state: 'done', result: '{}', at: at(32), hostFreeAt: at(40) }), false);
      assert.equal(await repo.queue.renew(dead, at(100)), false);
      assert.ok(await repo.queue.renew(taken!, at(100)));
      assert.equal(await repo.queue.claim('audit_page', at(70), LEASE, polite), null, 'renewed');
      assert.ok(await repo.queue.finish(taken!, { state: 'done', result: '{}', at: at(72), hostFreeAt: at(73) }));
      assert.equal((await repo.queue.hostPace('a.example'))?.nextAt.getTime(), at(73).getTime(), 'the old holder\'s release moved nothing');
    }));

    it('retryLater gives the item back and pauses its host; a later finish never shortens a pause', withRepo(async (repo) => {
      await repo.queue.enqueue([item('g', 'a.example', '1'), item('g', 'a.example', '2')]);
      const c = (await repo.queue.claim('audit_page', at(0), LEASE, polite))!;
      assert.ok(await repo.queue.retryLater(c, at(60)));
      assert.equal(await repo.queue.claim('audit_page', at(59), LEASE, polite), null, 'paused');
      const again = (await repo.queue.claim('audit_page', at(60), LEASE, polite))!;
      assert.equal(again.row.id, c.row.id, 'the same item again');
      assert.equal(again.row.attempts, 2);
      assert.deepEqual((await repo.queue.counts('g', at(0))).queued, 2);
    }));

    it('without politeness several items of one host are in flight at once', withRepo(async (repo) => {
      await repo.queue.enqueue([item('g', 'a.example', '1'), item('g', 'a.example', '2')]);
      const a = await repo.queue.claim('audit_page', at(0), LEASE, { polite: false });
      const b = await repo.queue.claim('audit_page', at(0), LEASE, { polite: false });
      assert.ok(a && b && a.row.id !== b.row.id);
    }));

    it('a shared rate spaces claims across hosts by its interval', withRepo(async (repo) => {
      await repo.queue.enqueue(['a', 'b', 'c'].map((h) => item('seed', `${h}.example`, '', 'seed_scan')));
      const rate = { key: 'rate:seed', intervalMs: 10_000 };
      assert.ok(await repo.queue.claim('seed_scan', at(0), LEASE, { polite: true, rate }));
      assert.equal(await repo.queue.claim('seed_scan', at(5), LEASE, { polite: true, rate }), null);
      assert.deepEqual(await repo.queue.nextReadyAt('seed_scan', at(5), rate.key), at(10));
      assert.ok(await repo.queue.claim('seed_scan', at(10), LEASE, { polite: true, rate }));
    }));

    it('requeueFinished puts finished items of a group back, for the next round', withRepo(async (repo) => {
      await repo.queue.enqueue([item('seed', 'a.example', '', 'seed_scan'), item('seed', 'b.example', '', 'seed_scan')]);
      for (const s of [0, 1]) {
        const c = (await repo.queue.claim('seed_scan', at(s), LEASE, polite))!;
        await repo.queue.finish(c, { state: 'done', result: '{}', at: at(10 + s * 100), hostFreeAt: at(11) });
      }
      assert.equal(await repo.queue.requeueFinished('seed', at(50)), 1);
      assert.deepEqual(await repo.queue.counts('seed', at(0)), { queued: 1, done: 1, failed: 0, finishedSince: 1 });
      const again = await repo.queue.claim('seed_scan', at(200), LEASE, polite);
      assert.equal(again?.row.host, 'a.example');
      assert.equal(again?.row.attempts, 1, 'a new round starts its attempts again');
    }));

    it('two instances claiming at once: each item once, never two turns of one host', { skip: hooks.twinOf ? false : 'needs two repository instances on one store' }, withRepo(async (repo) => {
        const twin = await hooks.twinOf!(repo);
        try {
          const hosts = ['a', 'b', 'c'].map((h) => `${h}.example`);
          await repo.queue.enqueue(hosts.flatMap((h) => [1, 2, 3].map((n) => item('g', h, String(n)))));
          const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? twin : repo).queue.claim('audit_page', at(0), LEASE, polite)));
          const taken = claims.filter((c) => c !== null);
          assert.equal(taken.length, hosts.length, 'one claim per host, whichever instance made it');
          assert.equal(new Set(taken.map((c) => c.row.host)).size, hosts.length);
          // Then the whole queue, from both, each host spaced: every item done exactly once.
          const seen: string[] = [];
          for (const c of taken) await (seen.push(c.row.id), repo.queue.finish(c, { state: 'done', result: '{}', at: at(1), hostFreeAt: at(1) }));
          for (let t = 1; seen.length < 9 && t < 20; t++) {
            const round = await Promise.all([repo, twin, repo, twin].map((r) => r.queue.claim('audit_page', at(t), LEASE, polite)));
            for (const c of round.filter((x) => x !== null)) {
              seen.push(c.row.id);
              await twin.queue.finish(c, { state: 'done', result: '{}', at: at(t), hostFreeAt: at(t + 1) });
            }
          }
          assert.equal(seen.length, 9);
          assert.equal(new Set(seen).size, 9, 'no item twice');
        } finally {
          await twin.close();
        }
      }));
  });

  describe(`${name} audits contract`, { skip: hooks.skip }, () => {
    it('at most the cap in progress per account, one per host; a finished audit frees its place', withRepo(async (repo) => {
      assert.deepEqual(await repo.audits.createAudit(audit('aud_1', 'acct', 'a.example'), 2), { created: true });
      assert.deepEqual(await repo.audits.createAudit(audit('aud_2', 'acct', 'a.example'), 2), { created: false, running: 'aud_1' });
      assert.deepEqual(await repo.audits.createAudit(audit('aud_3', 'acct', 'b.example'), 2), { created: true });
      assert.deepEqual(await repo.audits.createAudit(audit('aud_4', 'acct', 'c.example'), 2), { created: false, limit: true });
      assert.deepEqual(await repo.audits.createAudit(audit('aud_5', 'other', 'a.example'), 2), { created: true }, 'another account');
      const first = (await repo.audits.getAudit('aud_1'))!;
      assert.ok(await repo.audits.endAudit({ row: first, leaseToken: null }, { status: 'failed', at: at(5), result: null, error: 'no product URLs' }));
      assert.equal((await repo.audits.getAudit('aud_1'))?.status, 'failed');
      assert.deepEqual(await repo.audits.createAudit(audit('aud_6', 'acct', 'a.example', 10), 2), { created: true });
      assert.deepEqual((await repo.audits.listAudits('acct', 10)).map((a) => a.id), ['aud_6', 'aud_1', 'aud_3'], 'newest first');
      assert.deepEqual((await repo.audits.auditsInProgress(10)).map((a) => a.id).sort(), ['aud_3', 'aud_5', 'aud_6']);
    }));

    it('planned → running; one instance finishes it under a lease; the previous done audit of the host is found', withRepo(async (repo) => {
      await repo.audits.createAudit(audit('aud_old', 'acct', 'a.example', 0), 2);
      assert.equal(await repo.audits.claimFinish('aud_old', at(1), LEASE), null, 'not running yet');
      assert.ok(await repo.audits.markPlanned('aud_old', { discovered: 900, planned: 200, delayMs: 2000 }));
      assert.equal(await repo.audits.markPlanned('aud_old', { discovered: 1, planned: 1, delayMs: 1 }), false, 'planned once');
      const running = (await repo.audits.getAudit('aud_old'))!;
      assert.deepEqual([running.status, running.discovered, running.planned, running.delayMs], ['running', 900, 200, 2000]);
      const claim = (await repo.audits.claimFinish('aud_old', at(1), LEASE))!;
      assert.equal(await repo.audits.claimFinish('aud_old', at(2), LEASE), null, 'leased');
      assert.equal(await repo.audits.endAudit({ row: claim.row, leaseToken: 'not-mine' }, { status: 'done', at: at(3), result: '{}', error: null }), false);
      assert.ok(await repo.audits.endAudit(claim, { status: 'done', at: at(3), result: '{"pages":200}', error: null }));
      const done = (await repo.audits.getAudit('aud_old'))!;
      assert.deepEqual([done.status, done.result, done.finishedAt?.getTime()], ['done', '{"pages":200}', at(3).getTime()]);
      assert.equal((await repo.audits.previousAudit('acct', 'a.example', at(100)))?.id, 'aud_old');
      assert.equal(await repo.audits.previousAudit('acct', 'a.example', at(0)), null, 'only audits made before');
      assert.equal(await repo.audits.previousAudit('other', 'a.example', at(100)), null, 'only the account\'s own');
    }));
  });
}
