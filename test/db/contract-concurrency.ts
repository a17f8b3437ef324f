// The Repository contract under concurrency and failure, for the adapters behind several service instances: two
// repository instances on one database (the `sibling` hook) race first saves, relists and delists, and a closed
// store answers 503 from every method. Run from runRepositoryContract (contract.ts) for each adapter.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { toAppError } from '../../lib/http-errors.js';
import type { ScanRecord, Repository } from '../../db/repo.js';

/** Opens a second repository instance on the same database as `repo` (another service instance). */
export type SiblingHook = (repo: Repository) => Promise<Repository>;

const T0 = Date.parse('2025-06-01T00:00:00.000Z');

function scanOf(id: number, host: string, minutes: number, score: number, vertical: string | null = 'food'): ScanRecord {
  return {
    id,
    host,
    vertical,
    score,
    grade: 'C',
    capped: false,
    agentReady: false,
    createdAt: new Date(T0 + minutes * 60_000),
    ownerKeyId: null,
    report: { host, score },
  };
}

/** Newest by instant, then by id: the order both adapters use to pick a host's latest scan. */
const newer = (a: ScanRecord, b: ScanRecord): boolean =>
  a.createdAt.getTime() > b.createdAt.getTime() || (a.createdAt.getTime() === b.createdAt.getTime() && a.id > b.id);

/**
 * Runs `a` and `b` at once, started in the given order; both settle before the result is read. For a race that
 * must have exactly one winner (a lease, a unique claim), pass both outcomes to `exactlyOne`.
 */
export async function race<A, B>(a: () => Promise<A>, b: () => Promise<B>, bFirst = false): Promise<[A, B]> {
  if (!bFirst) return Promise.all([a(), b()]);
  const pb = b();
  const pa = a();
  const [rb, ra] = await Promise.all([pb, pa]);
  return [ra, rb];
}

export function exactlyOne(outcomes: boolean[], label: string): void {
  assert.equal(outcomes.filter(Boolean).length, 1, `${label}: exactly one of ${outcomes.length} wins (${outcomes.join(', ')})`);
}

/**
 * Holds the index's invariants once writes are idle: a delisted host has no latest row; a listed host's latest
 * row is its newest scan; counts, the top list and rank totals agree with the hosts that are listed.
 */
export async function assertIndexInvariants(repo: Repository, scans: Map<string, ScanRecord[]>): Promise<void> {
  const listed: ScanRecord[] = [];
  for (const [host, list] of scans) {
    const latest = await repo.latestByHost(host);
    if (await repo.isDelisted(host)) {
      assert.equal(latest, null, `${host} is delisted: no latest row`);
      continue;
    }
    const newest = list.reduce((best, s) => (newer(s, best) ? s : best));
    assert.equal(latest?.scanId, newest.id, `${host}: latest is its newest scan`);
    assert.equal(latest?.score, newest.score, `${host}: latest score`);
    assert.equal(latest?.vertical, newest.vertical, `${host}: latest vertical`);
    listed.push(newest);
  }
  assert.equal(await repo.countStores(), listed.length, 'count of listed hosts');
  for (const vertical of new Set(listed.map((s) => s.vertical))) {
    assert.equal(await repo.countStores(vertical), listed.filter((s) => s.vertical === vertical).length, `count in ${vertical}`);
  }
  const top = await repo.topStores({ limit: 1000 });
  assert.deepEqual(top.map((r) => r.host).sort(), listed.map((s) => s.host).sort(), 'the top list holds the listed hosts');
  for (const s of listed) {
    const w = await repo.rankWindow(s.host);
    assert.equal(w?.total, listed.length, `${s.host}: rank total`);
    assert.equal(w?.rank, 1 + listed.filter((o) => o.score > s.score).length, `${s.host}: rank`);
  }
}

/** Every repository method once, with arguments that reach the store (an empty list would answer without it). */
export const EVERY_METHOD: Record<Exclude<keyof Repository, 'init' | 'close'>, (repo: Repository) => Promise<unknown>> = {
  ping: (r) => r.ping(),
  allocateScanId: (r) => r.allocateScanId(),
  saveScan: (r) => r.saveScan(scanOf(999_999, 'closed.example', 0, 50)),
  getScan: (r) => Promise.all([r.getScan(1), r.getScan(1, 'json')]),
  latestByHost: (r) => r.latestByHost('a.example'),
  latestByHosts: (r) => r.latestByHosts(['a.example']),
  rankWindow: (r) => r.rankWindow('a.example', { asIf: { score: 50, grade: 'D' } }),
  topStores: (r) => r.topStores({ limit: 10, offset: 5 }),
  countStores: (r) => Promise.all([r.countStores(), r.countStores('food')]),
  hostsByPrefix: (r) => r.hostsByPrefix('a'),
  setDelisted: (r) => r.setDelisted('a.example', true),
  setVertical: (r) => r.setVertical('a.example', 'apparel'),
  isDelisted: (r) => r.isDelisted('a.example'),
  putApiKey: (r) => r.putApiKey({ id: 'key_x', keyHash: 'c'.repeat(64), owner: 'o', plan: 'pro', createdAt: new Date(T0), revokedAt: null }),
  findApiKey: (r) => r.findApiKey('c'.repeat(64)),
  listApiKeys: (r) => r.listApiKeys(),
  revokeApiKey: (r) => r.revokeApiKey('key_x', new Date(T0)),
  incrementUsage: (r) => r.incrementUsage('k', 'p'),
  getUsage: (r) => r.getUsage('k', 'p'),
  sumUsage: (r) => r.sumUsage('k', ['p']),
  pruneUsage: (r) => r.pruneUsage('p'),
  accounts: (r) => Promise.all([r.accounts.findSession('h', new Date(T0)), r.accounts.scansOfAccount('acct', { limit: 5 })]),
  monitoring: (r) => Promise.all([r.monitoring.scanHistory('a.example', 10), r.monitoring.claimDueDelivery(new Date(T0), 1000)]),
  queue: (r) => Promise.all([r.queue.claim('audit_page', new Date(T0), 1000, { polite: true }), r.queue.counts('g', new Date(T0))]),
  audits: (r) => Promise.all([r.audits.getAudit('aud_x'), r.audits.auditsInProgress(5)]),
  signingKeys: (r) => Promise.all([r.signingKeys.list(), r.signingKeys.pruneRetired(new Date(T0))]),
};

/** Fails unless `call` rejects with an error the HTTP layer answers as 503 SERVICE_UNAVAILABLE. */
export async function assertUnavailable(call: () => Promise<unknown>, label: string): Promise<void> {
  let caught: unknown = null;
  try {
    await call();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught !== null, `${label}: rejects on a closed store`);
  assert.equal(toAppError(caught)?.status, 503, `${label}: ${String(caught)} → 503`);
}

export function runConcurrencyCases(makeRepo: () => Promise<Repository>, sibling: SiblingHook | undefined): void {
  const noSibling = sibling ? false : 'needs two repository instances on one database';
  const withTwo = (fn: (a: Repository, b: Repository) => Promise<void>) => async () => {
    const a = await makeRepo();
    const b = await sibling!(a);
    try {
      await fn(a, b);
    } finally {
      await b.close();
      await a.close();
    }
  };
  const ids = async (repo: Repository, n: number): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(await repo.allocateScanId());
    return out;
  };

  it('two instances allocate distinct, increasing scan ids', { skip: noSibling }, withTwo(async (a, b) => {
    const got = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).allocateScanId()));
    assert.equal(new Set(got).size, got.length, 'no id given twice');
    const later = await a.allocateScanId();
    assert.ok(got.every((id) => id < later), 'ids keep increasing across instances');
  }));

  it('concurrent first saves of a host on two instances: the newest scan wins in both orders', { skip: noSibling }, withTwo(async (a, b) => {
    const scans = new Map<string, ScanRecord[]>();
    for (let round = 0; round < 8; round++) {
      const host = `first${round}.example`;
      const [idOld, idNew] = await ids(a, 2);
      const older = scanOf(idOld, host, 1, 40 + round);
      const newest = scanOf(idNew, host, 2, 60 + round);
      // Older on one instance, newer on the other; which starts first alternates, and so does which instance.
      const [x, y] = round % 2 ? [a, b] : [b, a];
      await race(() => x.saveScan(older), () => y.saveScan(newest), round % 4 >= 2);
      scans.set(host, [older, newest]);
      assert.equal((await b.latestByHost(host))?.scanId, idNew, `${host}: the newer scan holds latest`);
    }
    // Same instant: the higher id wins, whichever is saved first.
    const [i1, i2] = await ids(b, 2);
    const tie = [scanOf(i1, 'tie.example', 5, 10), scanOf(i2, 'tie.example', 5, 20)];
    await race(() => a.saveScan(tie[1]), () => b.saveScan(tie[0]), true);
    scans.set('tie.example', tie);
    await assertIndexInvariants(a, scans);
    await assertIndexInvariants(b, scans);
  }));

  it('a relist racing a newer save on another instance leaves the newest scan listed', { skip: noSibling }, withTwo(async (a, b) => {
    const scans = new Map<string, ScanRecord[]>();
    for (let round = 0; round < 6; round++) {
      const host = `relist${round}.example`;
      const [idOld, idNew] = await ids(b, 2);
      const older = scanOf(idOld, host, 1, 30, 'toys');
      await a.saveScan(older);
      await a.setDelisted(host, true);
      const newest = scanOf(idNew, host, 2, 70, round % 3 ? 'toys' : 'food');
      await race(() => a.setDelisted(host, false), () => b.saveScan(newest), round % 2 === 1);
      scans.set(host, [older, newest]);
      assert.equal(await b.isDelisted(host), false);
      assert.equal((await a.latestByHost(host))?.scanId, idNew, `${host}: the newer scan is listed`);
    }
    await assertIndexInvariants(b, scans);
  }));

  it('a delist racing a save on another instance leaves no latest row', { skip: noSibling }, withTwo(async (a, b) => {
    const scans = new Map<string, ScanRecord[]>();
    for (let round = 0; round < 6; round++) {
      const host = `delist${round}.example`;
      const [id1, id2] = await ids(a, 2);
      const first = scanOf(id1, host, 1, 50);
      await b.saveScan(first);
      const second = scanOf(id2, host, 2, 55);
      await race(() => a.setDelisted(host, true), () => b.saveScan(second), round % 2 === 1);
      scans.set(host, [first, second]);
      assert.equal(await a.latestByHost(host), null, `${host}: delisted, so no latest row`);
    }
    await assertIndexInvariants(a, scans);
  }));

  it('random concurrent saves, delists and relists on a few hosts keep the invariants once idle', { skip: noSibling }, withTwo(async (a, b) => {
    let seed = 4242;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const hosts = ['p.example', 'q.example', 'r.example', 's.example'];
    const scans = new Map<string, ScanRecord[]>();
    for (let batch = 0; batch < 12; batch++) {
      const ops: (() => Promise<unknown>)[] = [];
      for (let k = 0; k < 6; k++) {
        const repo = rand() < 0.5 ? a : b;
        const host = hosts[Math.floor(rand() * hosts.length)];
        const roll = rand();
        if (roll < 0.6) {
          const id = await repo.allocateScanId();
          // Instants repeat and go backwards, so saves arrive out of order and tie.
          const scan = scanOf(id, host, Math.floor(rand() * 6), Math.floor(rand() * 10) * 10, rand() < 0.5 ? 'food' : 'toys');
          scans.set(host, [...(scans.get(host) ?? []), scan]);
          ops.push(() => repo.saveScan(scan));
        } else {
          const delist = roll < 0.8;
          ops.push(() => repo.setDelisted(host, delist));
        }
      }
      await Promise.all(ops.map((op) => op()));
    }
    await assertIndexInvariants(a, scans);
    await assertIndexInvariants(b, scans);
  }));

  it('every repository method on a closed store rejects with an error that answers 503', async () => {
    const repo = await makeRepo();
    await repo.close();
    for (const [name, call] of Object.entries(EVERY_METHOD)) await assertUnavailable(() => call(repo), name);
  });
}
