// The behaviour every Repository adapter must show, run against each of them (sqlite.test.ts, mongo.test.ts).
// Each case gets a fresh repo from makeRepo, so adapters never see each other's data; `sibling` opens a second
// instance on a repo's database, for the cases of several service instances (contract-concurrency.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LatestEntry, RankRow, RankWindow, ScanRecord, Repository } from '../../db/repo.js';
import { HOST_PREFIX_MAX } from '../../db/repo.js';
import { runConcurrencyCases } from './contract-concurrency.js';
import type { SiblingHook } from './contract-concurrency.js';

const T0 = Date.parse('2025-03-01T12:00:00.000Z');
const at = (minutes: number): Date => new Date(T0 + minutes * 60_000);

interface ScanSpec {
  score: number;
  vertical?: string | null;
  agentReady?: boolean;
  minutes?: number;
  grade?: string;
  publicEntry?: boolean;
}

function gradeOf(score: number): string {
  return score >= 90 ? 'A' : score >= 80 ? 'B' : score >= 70 ? 'C' : score >= 60 ? 'D' : 'F';
}

async function save(repo: Repository, host: string, spec: ScanSpec): Promise<ScanRecord> {
  const scan: ScanRecord = {
    id: await repo.allocateScanId(),
    host,
    vertical: spec.vertical === undefined ? null : spec.vertical,
    score: spec.score,
    grade: spec.grade ?? gradeOf(spec.score),
    capped: false,
    agentReady: spec.agentReady ?? false,
    createdAt: at(spec.minutes ?? 0),
    ownerKeyId: null,
    report: { host, score: spec.score },
    ...(spec.publicEntry === undefined ? {} : { publicEntry: spec.publicEntry }),
  };
  await repo.saveScan(scan);
  return scan;
}

// a 90 · b c d 80 · e 70 · f 60 · g 50, so ties sit in the middle.
const LADDER: [string, number][] = [
  ['a.example', 90],
  ['b.example', 80],
  ['c.example', 80],
  ['d.example', 80],
  ['e.example', 70],
  ['f.example', 60],
  ['g.example', 50],
];

async function saveLadder(repo: Repository): Promise<void> {
  for (const [host, score] of LADDER) await save(repo, host, { score });
}

const brief = (rows: RankRow[]): string[] => rows.map((r) => `${r.host}:${r.score}#${r.rank}`);

function windowOf(w: RankWindow | null): { rank: number; total: number; rows: string[] } | null {
  return w && { rank: w.rank, total: w.total, rows: brief(w.rows) };
}

// The ranking rule written out plainly, to compare adapters against on random data.
function referenceWindow(
  entries: { host: string; score: number }[],
  host: string,
  above: number,
  below: number,
): { rank: number; total: number; rows: string[] } {
  const sorted = [...entries].sort((x, y) => y.score - x.score || (x.host < y.host ? -1 : x.host > y.host ? 1 : 0));
  const rankOf = (s: number) => 1 + sorted.filter((e) => e.score > s).length;
  const i = sorted.findIndex((e) => e.host === host);
  const rows = sorted.slice(Math.max(0, i - above), i + below + 1).map((e) => `${e.host}:${e.score}#${rankOf(e.score)}`);
  return { rank: rankOf(sorted[i].score), total: sorted.length, rows };
}

/** Makes the repository's database refuse every write from now on (reads still work); returns the undo. */
export type RefuseWritesHook = (repo: Repository) => Promise<() => Promise<void>>;

/** A test body run on a fresh repository, closed afterwards whatever the body did. */
export function withRepoOf(makeRepo: () => Promise<Repository>) {
  return (fn: (repo: Repository) => Promise<void>) => async () => {
    const repo = await makeRepo();
    try {
      await fn(repo);
    } finally {
      await repo.close();
    }
  };
}

export function runRepositoryContract(
  name: string,
  makeRepo: () => Promise<Repository>,
  opts: { skip?: string | false; sibling?: SiblingHook; refuseWrites?: RefuseWritesHook } = {},
): void {
  if (opts.skip) {
    // A skipped test (rather than a skipped suite) is what node's summary counts and prints the reason of.
    describe(name, () => {
      it('Repository contract', { skip: opts.skip }, () => undefined);
    });
    return;
  }

  const withRepo = withRepoOf(makeRepo);

  describe(name, () => {
    it('ping answers', withRepo(async (repo) => {
      await repo.ping();
    }));

    it('a store that refuses writes is not ready (ping rejects), and ready again once it takes them', { skip: !opts.refuseWrites && 'no refuseWrites hook' }, withRepo(async (repo) => {
      await repo.ping();
      const restore = await opts.refuseWrites!(repo);
      try {
        await assert.rejects(repo.ping());
      } finally {
        await restore();
      }
      await repo.ping();
    }));

    it('init is idempotent', withRepo(async (repo) => {
      await repo.init();
      await save(repo, 'a.example', { score: 10 });
      await repo.init();
      assert.equal((await repo.latestByHost('a.example'))?.score, 10);
    }));

    it('save → get round trip keeps every field, the Date and the report JSON', withRepo(async (repo) => {
      const report = {
        host: 'shop.example',
        score: 72.5,
        nested: { list: [1, 'two', null, { three: true }], empty: {}, unicode: 'café ✓ 店' },
        keyOrder: { z: 1, a: 2 },
        big: 1e21,
        negative: -3,
      };
      const scan: ScanRecord = {
        id: await repo.allocateScanId(),
        host: 'shop.example',
        vertical: 'fashion',
        score: 72.5,
        grade: 'C',
        capped: true,
        agentReady: false,
        createdAt: new Date('2025-04-05T06:07:08.123Z'),
        ownerKeyId: 'key_1',
        report,
      };
      await repo.saveScan(scan);
      const got = await repo.getScan(scan.id);
      assert.deepEqual(got, scan);
      assert.ok(got?.createdAt instanceof Date);
      assert.equal(JSON.stringify(got?.report), JSON.stringify(report));

      const plain: ScanRecord = { ...scan, id: await repo.allocateScanId(), vertical: null, ownerKeyId: null, capped: false, agentReady: true };
      await repo.saveScan(plain);
      assert.deepEqual(await repo.getScan(plain.id), plain);
      assert.equal(await repo.getScan(987654321), null);

      assert.deepEqual(await repo.latestByHost('shop.example'), {
        host: 'shop.example',
        scanId: plain.id,
        vertical: 'fashion', // kept: the newer scan had none
        score: 72.5,
        grade: 'C',
        capped: false,
        agentReady: true,
        updatedAt: scan.createdAt,
      } satisfies LatestEntry);
    }));

    it("getScan(id, 'json') gives the same scan with its report as the exact UTF-8 bytes of its stored JSON", withRepo(async (repo) => {
      const report = { host: 'shop.example', nested: { unicode: 'café ✓ 店 \u{1F6D2}', lone: '\ud800', keyOrder: { z: 1, a: 2, 10: 3, 2: 4 } }, big: 1e21, tiny: 5e-324 };
      const scan: ScanRecord = { ...(await save(repo, 'shop.example', { score: 50 })), id: await repo.allocateScanId(), report };
      await repo.saveScan(scan);
      const got = await repo.getScan(scan.id, 'json');
      assert.ok(got && Buffer.isBuffer(got.reportJson));
      const { reportJson, ...fields } = got;
      const { report: _parsed, ...expected } = scan;
      assert.deepEqual(fields, expected);
      assert.equal(reportJson.toString('utf8'), JSON.stringify(report));
      // The bytes a reader of getScan would send after re-serialising the parsed report.
      assert.equal(reportJson.toString('utf8'), JSON.stringify((await repo.getScan(scan.id))?.report));

      const nothing: ScanRecord = { ...scan, id: await repo.allocateScanId(), report: undefined };
      await repo.saveScan(nothing);
      assert.equal((await repo.getScan(nothing.id, 'json'))?.reportJson.toString('utf8'), 'null');
      assert.equal(await repo.getScan(987654321, 'json'), null);
    }));

    it('allocateScanId gives strictly increasing integers, used or not', withRepo(async (repo) => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push(await repo.allocateScanId());
      await save(repo, 'a.example', { score: 1 });
      ids.push(await repo.allocateScanId());
      ids.push(...(await Promise.all([repo.allocateScanId(), repo.allocateScanId(), repo.allocateScanId()])).sort((x, y) => x - y));
      for (const id of ids) assert.ok(Number.isSafeInteger(id) && id > 0, `integer id: ${id}`);
      for (let i = 1; i < ids.length; i++) assert.ok(ids[i] > ids[i - 1], `${ids[i]} > ${ids[i - 1]}`);
    }));

    it('scan ids cannot be guessed from one another, and an id of an earlier release keeps working', withRepo(async (repo) => {
      const old: ScanRecord = { ...(await save(repo, 'old.example', { score: 40 })) };
      const legacy: ScanRecord = { ...old, id: 3 }; // sequential, as earlier releases numbered scans
      await repo.saveScan(legacy);
      assert.equal((await repo.getScan(3))?.host, 'old.example');
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) ids.push(await repo.allocateScanId());
      const gaps = ids.slice(1).map((id, i) => id - ids[i]);
      assert.ok(ids.every((id) => id > 3 && id > 2 ** 24), `far above the sequential ids: ${ids.join()}`);
      assert.ok(gaps.every((g) => g > 1), `no id follows another by one: ${gaps.join()}`);
      assert.ok(new Set(gaps).size > 1, `the step from one id to the next is not constant: ${gaps.join()}`);
    }));

    it('a scan that is not the public entry is stored but never moves latest, not even on relist', withRepo(async (repo) => {
      const entry = await save(repo, 'p.example', { score: 96, minutes: 0, vertical: 'food' });
      const page = await save(repo, 'p.example', { score: 16, minutes: 10, publicEntry: false });
      assert.equal((await repo.getScan(page.id))?.score, 16, 'the page scan is stored');
      assert.equal((await repo.latestByHost('p.example'))?.scanId, entry.id);
      assert.equal((await repo.rankWindow('p.example'))?.rows[0].score, 96);
      const fresh = await save(repo, 'q.example', { score: 40, publicEntry: false });
      assert.equal(await repo.latestByHost('q.example'), null, 'a page scan alone does not list a store');
      assert.ok(fresh.id > 0);
      await repo.setDelisted('p.example', true);
      await repo.setDelisted('p.example', false);
      assert.equal((await repo.latestByHost('p.example'))?.scanId, entry.id, 'relist rebuilds from the entry scan');
      assert.equal(await repo.countStores(), 1);
    }));

    it('out-of-order saves never move latest backwards', withRepo(async (repo) => {
      const newer = await save(repo, 'h.example', { score: 80, minutes: 10, vertical: 'food' });
      const older = await save(repo, 'h.example', { score: 20, minutes: 5, vertical: 'toys' });
      let latest = await repo.latestByHost('h.example');
      assert.equal(latest?.scanId, newer.id);
      assert.equal(latest?.score, 80);
      assert.equal(latest?.vertical, 'food');
      assert.deepEqual(latest?.updatedAt, at(10));
      assert.equal((await repo.getScan(older.id))?.score, 20, 'the older scan is still stored');
      assert.equal((await repo.rankWindow('h.example'))?.rows[0].score, 80);

      const newest = await save(repo, 'h.example', { score: 55, minutes: 20 });
      latest = await repo.latestByHost('h.example');
      assert.equal(latest?.scanId, newest.id);
      assert.equal(latest?.score, 55);
      assert.equal(latest?.vertical, 'food', 'a scan without a vertical keeps the host one');
      assert.equal(await repo.countStores('food'), 1);

      await save(repo, 'h.example', { score: 60, minutes: 30, vertical: 'books' });
      assert.equal((await repo.latestByHost('h.example'))?.vertical, 'books');
      assert.equal(await repo.countStores('food'), 0);
      assert.equal(await repo.countStores('books'), 1);
    }));

    it('setVertical moves a listed host to another vertical with its counts; unknown and delisted hosts are left alone', withRepo(async (repo) => {
      await save(repo, 'a.example', { score: 90, vertical: 'apparel' });
      const b = await save(repo, 'b.example', { score: 80, vertical: 'apparel' });
      await save(repo, 'c.example', { score: 70, vertical: 'beauty' });
      await save(repo, 'd.example', { score: 60, vertical: 'pets' });
      await repo.setDelisted('d.example', true);

      assert.equal(await repo.setVertical('b.example', 'beauty'), true);
      const latest = await repo.latestByHost('b.example');
      assert.equal(latest?.vertical, 'beauty');
      assert.equal(latest?.scanId, b.id, 'the row keeps its scan, score and instant');
      assert.equal(latest?.score, 80);
      assert.equal(await repo.countStores('apparel'), 1);
      assert.equal(await repo.countStores('beauty'), 2);
      assert.equal(await repo.countStores(), 3);
      assert.deepEqual(brief(await repo.topStores({ vertical: 'beauty', limit: 10 })), ['b.example:80#1', 'c.example:70#2']);
      assert.deepEqual(brief(await repo.topStores({ vertical: 'apparel', limit: 10 })), ['a.example:90#1']);
      assert.deepEqual(windowOf(await repo.rankWindow('b.example', { vertical: 'beauty' })), {
        rank: 1,
        total: 2,
        rows: ['b.example:80#1', 'c.example:70#2'],
      });
      assert.equal(await repo.rankWindow('b.example', { vertical: 'apparel' }), null, 'no longer in its old vertical');
      assert.equal(await repo.setVertical('b.example', 'beauty'), true, 'the same vertical again is a no-op');
      assert.equal(await repo.countStores('beauty'), 2);

      assert.equal(await repo.setVertical('nobody.example', 'beauty'), false, 'unknown host');
      assert.equal(await repo.latestByHost('nobody.example'), null);
      assert.equal(await repo.setVertical('d.example', 'beauty'), false, 'delisted host');
      assert.equal(await repo.latestByHost('d.example'), null, 'still delisted');
      await assert.rejects(repo.setVertical('a.example', 'fashion'), (err: Error & { code?: string }) => err.code === 'INVALID_PARAMS' && /vertical must be one of/.test(err.message));
      assert.equal((await repo.latestByHost('a.example'))?.vertical, 'apparel', 'a refused vertical changes nothing');
      assert.equal(await repo.countStores('beauty'), 2);
      assert.equal(await repo.countStores('pets'), 0);
    }));

    it('a vertical set on a listed host survives a delist and relist (the relist rebuilds the row from its scans)', withRepo(async (repo) => {
      await save(repo, 'moved.example', { score: 75, vertical: 'apparel', minutes: 0 });
      await save(repo, 'moved.example', { score: 80, vertical: 'apparel', minutes: 1 });
      assert.equal(await repo.setVertical('moved.example', 'beauty'), true);
      await repo.setDelisted('moved.example', true);
      await repo.setDelisted('moved.example', false);
      const latest = await repo.latestByHost('moved.example');
      assert.equal(latest?.vertical, 'beauty');
      assert.equal(latest?.score, 80);
      assert.equal(await repo.countStores('beauty'), 1);
      assert.equal(await repo.countStores('apparel'), 0);
    }));

    it('unique host in latest: two saves of one host leave one row', withRepo(async (repo) => {
      await save(repo, 'one.example', { score: 40, minutes: 1 });
      await save(repo, 'one.example', { score: 45, minutes: 2 });
      assert.equal(await repo.countStores(), 1);
      const top = await repo.topStores({ limit: 10 });
      assert.deepEqual(brief(top), ['one.example:45#1']);
      assert.equal((await repo.rankWindow('one.example'))?.total, 1);
    }));

    it('latestByHosts returns present hosts only, and an operator-looking string is plain data', withRepo(async (repo) => {
      await saveLadder(repo);
      const got = await repo.latestByHosts(['a.example', 'missing.example', 'g.example', 'a.example']);
      assert.deepEqual([...got.keys()].sort(), ['a.example', 'g.example']);
      assert.equal(got.get('g.example')?.score, 50);
      assert.equal((await repo.latestByHosts([])).size, 0);
      assert.equal((await repo.latestByHosts(['{"$gt":""}'])).size, 0);
      assert.equal((await repo.latestByHosts(['$where', '{"$ne":null}'])).size, 0);
      assert.equal(await repo.latestByHost('{"$gt":""}'), null);
      assert.equal(await repo.latestByHost('missing.example'), null);

      const many = Array.from({ length: 100 }, (_, i) => `bulk${i}.example`);
      for (const host of many.slice(0, 30)) await save(repo, host, { score: 5 });
      assert.equal((await repo.latestByHosts(many)).size, 30);
    }));

    it('hostsByPrefix: hosts of a prefix range, best score first, delisted left out, at most 100', withRepo(async (repo) => {
      for (const [host, score] of [['shop.example', 40], ['shoes.example', 90], ['shore.example', 90], ['shop2.example', 60], ['show.test', 10], ['sh', 5], ['ashop.example', 99]] as const) {
        await save(repo, host, { score });
      }
      assert.deepEqual(await repo.hostsByPrefix('sho'), ['shoes.example', 'shore.example', 'shop2.example', 'shop.example', 'show.test']);
      assert.deepEqual(await repo.hostsByPrefix('shop'), ['shop2.example', 'shop.example']);
      assert.deepEqual(await repo.hostsByPrefix('shop.example'), ['shop.example']); // the whole host is its own prefix
      assert.deepEqual(await repo.hostsByPrefix('sho', 2), ['shoes.example', 'shore.example']);
      assert.deepEqual(await repo.hostsByPrefix('sho', 0), []);
      assert.deepEqual(await repo.hostsByPrefix('x'), []);
      assert.deepEqual(await repo.hostsByPrefix('{"$gt":""}'), []);
      assert.deepEqual(await repo.hostsByPrefix('.*'), []); // a prefix, never a pattern
      await repo.setDelisted('shoes.example', true);
      assert.deepEqual(await repo.hostsByPrefix('sho'), ['shore.example', 'shop2.example', 'shop.example', 'show.test']);
      await repo.setDelisted('shoes.example', false);
      assert.equal((await repo.hostsByPrefix('sho'))[0], 'shoes.example');
      assert.equal((await repo.hostsByPrefix('')).length, 7);

      for (let i = 0; i < 120; i++) await save(repo, `bulk${String(i).padStart(3, '0')}.example`, { score: i % 50 });
      const bulk = await repo.hostsByPrefix('bulk', 500);
      assert.equal(bulk.length, HOST_PREFIX_MAX);
      assert.deepEqual(bulk.slice(0, 3), ['bulk049.example', 'bulk099.example', 'bulk048.example']);
    }));

    it('rankWindow at the top, middle, bottom and in ties', withRepo(async (repo) => {
      await saveLadder(repo);
      assert.deepEqual(windowOf(await repo.rankWindow('a.example')), {
        rank: 1,
        total: 7,
        rows: ['a.example:90#1', 'b.example:80#2', 'c.example:80#2'],
      });
      assert.deepEqual(windowOf(await repo.rankWindow('c.example')), {
        rank: 2,
        total: 7,
        rows: ['a.example:90#1', 'b.example:80#2', 'c.example:80#2', 'd.example:80#2', 'e.example:70#5'],
      });
      assert.deepEqual(windowOf(await repo.rankWindow('d.example')), {
        rank: 2,
        total: 7,
        rows: ['b.example:80#2', 'c.example:80#2', 'd.example:80#2', 'e.example:70#5', 'f.example:60#6'],
      });
      assert.deepEqual(windowOf(await repo.rankWindow('e.example')), {
        rank: 5,
        total: 7,
        rows: ['c.example:80#2', 'd.example:80#2', 'e.example:70#5', 'f.example:60#6', 'g.example:50#7'],
      });
      assert.deepEqual(windowOf(await repo.rankWindow('g.example')), {
        rank: 7,
        total: 7,
        rows: ['e.example:70#5', 'f.example:60#6', 'g.example:50#7'],
      });
      assert.deepEqual(windowOf(await repo.rankWindow('c.example', { above: 1, below: 0 })), {
        rank: 2,
        total: 7,
        rows: ['b.example:80#2', 'c.example:80#2'],
      });
      assert.deepEqual(windowOf(await repo.rankWindow('b.example', { above: 0, below: 4 })), {
        rank: 2,
        total: 7,
        rows: ['b.example:80#2', 'c.example:80#2', 'd.example:80#2', 'e.example:70#5', 'f.example:60#6'],
      });
      assert.equal(await repo.rankWindow('unknown.example'), null);

      const top = await repo.rankWindow('a.example');
      assert.equal(top?.rows[0].host, 'a.example', 'the top host has no rows above');
      const bottom = await repo.rankWindow('g.example');
      assert.equal(bottom?.rows.at(-1)?.host, 'g.example', 'the bottom host has no rows below');
    }));

    it('rankWindow with a tie at the very top', withRepo(async (repo) => {
      await save(repo, 'y.example', { score: 99 });
      await save(repo, 'x.example', { score: 99 });
      await save(repo, 'z.example', { score: 98 });
      assert.deepEqual(windowOf(await repo.rankWindow('y.example')), {
        rank: 1,
        total: 3,
        rows: ['x.example:99#1', 'y.example:99#1', 'z.example:98#3'],
      });
      assert.deepEqual(windowOf(await repo.rankWindow('x.example')), {
        rank: 1,
        total: 3,
        rows: ['x.example:99#1', 'y.example:99#1', 'z.example:98#3'],
      });
    }));

    it('rankWindow rows carry full entries', withRepo(async (repo) => {
      const s = await save(repo, 'solo.example', { score: 77, vertical: 'garden', agentReady: true, minutes: 3 });
      const w = await repo.rankWindow('solo.example');
      assert.deepEqual(w, {
        host: 'solo.example',
        rank: 1,
        total: 1,
        rows: [
          {
            host: 'solo.example',
            scanId: s.id,
            vertical: 'garden',
            score: 77,
            grade: 'C',
            capped: false,
            agentReady: true,
            updatedAt: at(3),
            rank: 1,
          },
        ],
      });
    }));

    for (const [label, scoreOf] of [
      ['few distinct scores, many ties', (r: number) => Math.floor(r * 6) * 10],
      ['fractional scores across the whole range', (r: number) => Math.round(r * 1000) / 10],
    ] as const) {
      it(`rankWindow and topStores match the plain ranking rule on random data (${label})`, withRepo(async (repo) => {
        let seed = 12345;
        const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
        const entries: { host: string; score: number; vertical: string }[] = [];
        for (let i = 0; i < 40; i++) {
          const host = `r${Math.floor(rand() * 1000)}-${i}.example`;
          const entry = { host, score: scoreOf(rand()), vertical: rand() < 0.5 ? 'food' : 'toys' };
          entries.push(entry);
          // An earlier, different score first, so that histograms also see moves.
          await save(repo, host, { score: scoreOf(rand()), vertical: 'toys', minutes: 0 });
          await save(repo, host, { score: entry.score, vertical: entry.vertical, minutes: 1 });
        }
        const food = entries.filter((e) => e.vertical === 'food');
        for (const { host, vertical } of entries) {
          for (const [above, below] of [[2, 2], [3, 1], [0, 5]]) {
            assert.deepEqual(
              windowOf(await repo.rankWindow(host, { above, below })),
              referenceWindow(entries, host, above, below),
              `${host} ${above}/${below}`,
            );
          }
          if (vertical === 'food') {
            assert.deepEqual(windowOf(await repo.rankWindow(host, { vertical: 'food' })), referenceWindow(food, host, 2, 2), `${host} in food`);
          }
        }
        const all = referenceWindow(entries, entries[0].host, 100, 100).rows;
        assert.deepEqual(brief(await repo.topStores({ limit: 100 })), all);
        assert.deepEqual(brief(await repo.topStores({ limit: 7, offset: 11 })), all.slice(11, 18));
        assert.equal(await repo.countStores('food'), food.length);
      }));
    }

    it('rankWindow with vertical ranks within that vertical only', withRepo(async (repo) => {
      await save(repo, 'a.example', { score: 90, vertical: 'food' });
      await save(repo, 'b.example', { score: 85, vertical: 'toys' });
      await save(repo, 'c.example', { score: 80, vertical: 'food' });
      await save(repo, 'd.example', { score: 80, vertical: 'food' });
      await save(repo, 'e.example', { score: 70, vertical: 'toys' });
      await save(repo, 'f.example', { score: 60 });
      await save(repo, 'g.example', { score: 50, vertical: 'food' });
      assert.deepEqual(windowOf(await repo.rankWindow('d.example', { vertical: 'food' })), {
        rank: 2,
        total: 4,
        rows: ['a.example:90#1', 'c.example:80#2', 'd.example:80#2', 'g.example:50#4'],
      });
      assert.deepEqual(windowOf(await repo.rankWindow('d.example')), {
        rank: 3,
        total: 7,
        rows: ['b.example:85#2', 'c.example:80#3', 'd.example:80#3', 'e.example:70#5', 'f.example:60#6'],
      });
      assert.deepEqual(windowOf(await repo.rankWindow('e.example', { vertical: 'toys', above: 5, below: 5 })), {
        rank: 2,
        total: 2,
        rows: ['b.example:85#1', 'e.example:70#2'],
      });
      assert.equal(await repo.rankWindow('b.example', { vertical: 'food' }), null, 'not in that vertical');
      assert.equal(await repo.rankWindow('f.example', { vertical: 'food' }), null);
      assert.equal(await repo.rankWindow('a.example', { vertical: 'nothing' }), null);
      assert.deepEqual(windowOf(await repo.rankWindow('a.example', { vertical: null })), windowOf(await repo.rankWindow('a.example')));
    }));

    it('rankWindow asIf ranks a new host as if it had that score and includes it', withRepo(async (repo) => {
      await saveLadder(repo);
      const w = await repo.rankWindow('new.example', { asIf: { score: 85, grade: 'B' } });
      assert.deepEqual(windowOf(w), {
        rank: 2,
        total: 8,
        rows: ['a.example:90#1', 'new.example:85#2', 'b.example:80#3', 'c.example:80#3'],
      });
      const self = w?.rows.find((r) => r.host === 'new.example');
      assert.equal(self?.grade, 'B');
      assert.equal(await repo.latestByHost('new.example'), null, 'nothing was saved');

      assert.deepEqual(windowOf(await repo.rankWindow('bb.example', { asIf: { score: 80, grade: 'B' } })), {
        rank: 2,
        total: 8,
        rows: ['a.example:90#1', 'b.example:80#2', 'bb.example:80#2', 'c.example:80#2', 'd.example:80#2'],
      });
      assert.deepEqual(windowOf(await repo.rankWindow('zz.example', { asIf: { score: 10, grade: 'F' } })), {
        rank: 8,
        total: 8,
        rows: ['f.example:60#6', 'g.example:50#7', 'zz.example:10#8'],
      });
      assert.deepEqual(windowOf(await repo.rankWindow('top.example', { asIf: { score: 100, grade: 'A' }, vertical: 'fresh' })), {
        rank: 1,
        total: 1,
        rows: ['top.example:100#1'],
      });
    }));

    it('rankWindow asIf re-scores an existing host, ignoring its current row', withRepo(async (repo) => {
      await saveLadder(repo);
      assert.deepEqual(windowOf(await repo.rankWindow('g.example', { asIf: { score: 95, grade: 'A' } })), {
        rank: 1,
        total: 7,
        rows: ['g.example:95#1', 'a.example:90#2', 'b.example:80#3'],
      });
      assert.deepEqual(windowOf(await repo.rankWindow('a.example', { asIf: { score: 55, grade: 'F' } })), {
        rank: 6,
        total: 7,
        rows: ['e.example:70#4', 'f.example:60#5', 'a.example:55#6', 'g.example:50#7'],
      });
      assert.deepEqual(windowOf(await repo.rankWindow('c.example', { asIf: { score: 80, grade: 'B' } })), windowOf(await repo.rankWindow('c.example')));
      assert.deepEqual(windowOf(await repo.rankWindow('d.example', { asIf: { score: 80, grade: 'B' }, above: 3, below: 0 })), {
        rank: 2,
        total: 7,
        rows: ['a.example:90#1', 'b.example:80#2', 'c.example:80#2', 'd.example:80#2'],
      });
      const w = await repo.rankWindow('e.example', { asIf: { score: 85, grade: 'B' } });
      assert.equal(w?.rows.filter((r) => r.host === 'e.example').length, 1, 'the stored row is not listed beside the hypothetical one');
      assert.equal(w?.rows.find((r) => r.host === 'e.example')?.grade, 'B');
      assert.equal((await repo.latestByHost('e.example'))?.score, 70, 'nothing was saved');
    }));

    it('rankWindow asIf within a vertical', withRepo(async (repo) => {
      await save(repo, 'a.example', { score: 90, vertical: 'food' });
      await save(repo, 'b.example', { score: 80, vertical: 'toys' });
      await save(repo, 'c.example', { score: 70, vertical: 'food' });
      assert.deepEqual(windowOf(await repo.rankWindow('n.example', { vertical: 'food', asIf: { score: 75, grade: 'C' } })), {
        rank: 2,
        total: 3,
        rows: ['a.example:90#1', 'n.example:75#2', 'c.example:70#3'],
      });
      // b is stored in toys; ranked as if in food, its toys row does not count there.
      assert.deepEqual(windowOf(await repo.rankWindow('b.example', { vertical: 'food', asIf: { score: 95, grade: 'A' } })), {
        rank: 1,
        total: 3,
        rows: ['b.example:95#1', 'a.example:90#2', 'c.example:70#3'],
      });
      // a is stored in food: re-scored within food, its stored row is discounted.
      assert.deepEqual(windowOf(await repo.rankWindow('a.example', { vertical: 'food', asIf: { score: 60, grade: 'D' } })), {
        rank: 2,
        total: 2,
        rows: ['c.example:70#1', 'a.example:60#2'],
      });
    }));

    it('topStores overall, by vertical, with offset, agentReadyOnly and since', withRepo(async (repo) => {
      await save(repo, 'a.example', { score: 90, vertical: 'food', agentReady: true, minutes: 1 });
      await save(repo, 'b.example', { score: 80, vertical: 'toys', agentReady: true, minutes: 2 });
      await save(repo, 'c.example', { score: 80, vertical: 'food', minutes: 3 });
      await save(repo, 'd.example', { score: 80, vertical: 'food', agentReady: true, minutes: 4 });
      await save(repo, 'e.example', { score: 70, vertical: 'toys', agentReady: true, minutes: 5 });
      await save(repo, 'f.example', { score: 60, minutes: 6 });
      await save(repo, 'g.example', { score: 50, vertical: 'food', agentReady: true, minutes: 7 });

      assert.deepEqual(brief(await repo.topStores({ limit: 3 })), ['a.example:90#1', 'b.example:80#2', 'c.example:80#2']);
      assert.deepEqual(brief(await repo.topStores({ limit: 100 })), [
        'a.example:90#1',
        'b.example:80#2',
        'c.example:80#2',
        'd.example:80#2',
        'e.example:70#5',
        'f.example:60#6',
        'g.example:50#7',
      ]);
      assert.deepEqual(brief(await repo.topStores({ limit: 3, offset: 2 })), ['c.example:80#2', 'd.example:80#2', 'e.example:70#5']);
      assert.deepEqual(brief(await repo.topStores({ limit: 2, offset: 4 })), ['e.example:70#5', 'f.example:60#6']);
      assert.deepEqual(await repo.topStores({ limit: 3, offset: 50 }), []);
      assert.deepEqual(await repo.topStores({ limit: 0 }), []);

      assert.deepEqual(brief(await repo.topStores({ vertical: 'food', limit: 10 })), [
        'a.example:90#1',
        'c.example:80#2',
        'd.example:80#2',
        'g.example:50#4',
      ]);
      assert.deepEqual(brief(await repo.topStores({ vertical: 'food', limit: 10, offset: 2 })), ['d.example:80#2', 'g.example:50#4']);
      assert.deepEqual(brief(await repo.topStores({ vertical: null, limit: 1 })), ['a.example:90#1']);
      assert.deepEqual(await repo.topStores({ vertical: 'nothing', limit: 10 }), []);

      // Ranks count only the entries that pass the same filters.
      assert.deepEqual(brief(await repo.topStores({ agentReadyOnly: true, limit: 10 })), [
        'a.example:90#1',
        'b.example:80#2',
        'd.example:80#2',
        'e.example:70#4',
        'g.example:50#5',
      ]);
      assert.deepEqual(brief(await repo.topStores({ agentReadyOnly: true, limit: 2, offset: 2 })), ['d.example:80#2', 'e.example:70#4']);
      assert.deepEqual(brief(await repo.topStores({ agentReadyOnly: true, vertical: 'toys', limit: 10 })), [
        'b.example:80#1',
        'e.example:70#2',
      ]);
      assert.deepEqual(brief(await repo.topStores({ since: at(4), limit: 10 })), [
        'd.example:80#1',
        'e.example:70#2',
        'f.example:60#3',
        'g.example:50#4',
      ]);
      assert.deepEqual(brief(await repo.topStores({ since: at(4), agentReadyOnly: true, vertical: 'food', limit: 10 })), [
        'd.example:80#1',
        'g.example:50#2',
      ]);
      assert.deepEqual(brief(await repo.topStores({ since: at(2), agentReadyOnly: true, limit: 10, offset: 1 })), [
        'd.example:80#1',
        'e.example:70#3',
        'g.example:50#4',
      ]);
      const [first] = await repo.topStores({ limit: 1 });
      assert.equal(first.agentReady, true);
      assert.deepEqual(first.updatedAt, at(1));
      assert.equal(first.vertical, 'food');
    }));

    it('countStores overall and by vertical', withRepo(async (repo) => {
      assert.equal(await repo.countStores(), 0);
      await save(repo, 'a.example', { score: 90, vertical: 'food' });
      await save(repo, 'b.example', { score: 80, vertical: 'toys' });
      await save(repo, 'c.example', { score: 70, vertical: 'food' });
      await save(repo, 'd.example', { score: 60 });
      assert.equal(await repo.countStores(), 4);
      assert.equal(await repo.countStores(null), 4);
      assert.equal(await repo.countStores('food'), 2);
      assert.equal(await repo.countStores('toys'), 1);
      assert.equal(await repo.countStores('nothing'), 0);
    }));

    it('50 concurrent incrementUsage calls → 50', withRepo(async (repo) => {
      const results = await Promise.all(Array.from({ length: 50 }, () => repo.incrementUsage('k1', '2025-03')));
      assert.equal(await repo.getUsage('k1', '2025-03'), 50);
      assert.deepEqual([...results].sort((x, y) => x - y), Array.from({ length: 50 }, (_, i) => i + 1));
      assert.equal(await repo.incrementUsage('k1', '2025-03', 5), 55);
      assert.equal(await repo.getUsage('k1', '2025-04'), 0);
      assert.equal(await repo.getUsage('k2', '2025-03'), 0);
      assert.equal(await repo.getUsage('{"$gt":""}', '2025-03'), 0);
    }));

    it('sumUsage over several periods', withRepo(async (repo) => {
      await repo.incrementUsage('k1', '2025-03-01', 3);
      await repo.incrementUsage('k1', '2025-03-02', 4);
      await repo.incrementUsage('k1', '2025-03-04', 10);
      await repo.incrementUsage('k2', '2025-03-02', 100);
      assert.equal(await repo.sumUsage('k1', ['2025-03-01', '2025-03-02', '2025-03-03']), 7);
      assert.equal(await repo.sumUsage('k1', ['2025-03-01', '2025-03-02', '2025-03-03', '2025-03-04']), 17);
      assert.equal(await repo.sumUsage('k2', ['2025-03-01', '2025-03-02']), 100);
      assert.equal(await repo.sumUsage('k3', ['2025-03-01']), 0);
      assert.equal(await repo.sumUsage('k1', []), 0);
    }));

    it('pruneUsage drops the periods before the given one', withRepo(async (repo) => {
      for (const period of ['2025-01', '2025-02', '2025-03', '2025-04']) {
        await repo.incrementUsage('k1', period, 1);
        await repo.incrementUsage('k2', period, 2);
      }
      await repo.pruneUsage('2025-03');
      assert.equal(await repo.getUsage('k1', '2025-01'), 0);
      assert.equal(await repo.getUsage('k2', '2025-02'), 0);
      assert.equal(await repo.getUsage('k1', '2025-03'), 1);
      assert.equal(await repo.getUsage('k2', '2025-04'), 2);
      assert.equal(await repo.sumUsage('k2', ['2025-01', '2025-02', '2025-03', '2025-04']), 4);
    }));

    it('api keys: unknown → null; put, find, list, revoke', withRepo(async (repo) => {
      assert.equal(await repo.findApiKey('0'.repeat(64)), null);
      assert.equal(await repo.findApiKey('{"$gt":""}'), null);
      assert.deepEqual(await repo.listApiKeys(), []);
      const k1 = { id: 'key_1', keyHash: 'a'.repeat(64), owner: 'ann@example.com', plan: 'pro', createdAt: at(1), revokedAt: null };
      const k2 = { id: 'key_2', keyHash: 'b'.repeat(64), owner: 'bob@example.com', plan: 'pro', createdAt: at(2), revokedAt: null };
      await repo.putApiKey(k2);
      await repo.putApiKey(k1);
      assert.deepEqual(await repo.findApiKey(k1.keyHash), k1);
      assert.deepEqual(await repo.listApiKeys(), [k1, k2]);

      assert.equal(await repo.revokeApiKey('key_unknown', at(3)), false);
      assert.equal(await repo.revokeApiKey('{"$gt":""}', at(3)), false);
      assert.equal(await repo.revokeApiKey('key_1', at(3)), true);
      assert.deepEqual(await repo.findApiKey(k1.keyHash), { ...k1, revokedAt: at(3) });
      assert.equal(await repo.revokeApiKey('key_1', at(9)), true);
      assert.deepEqual((await repo.findApiKey(k1.keyHash))?.revokedAt, at(3), 'the first revocation instant stays');
      assert.equal((await repo.findApiKey(k2.keyHash))?.revokedAt, null);

      await repo.putApiKey({ ...k2, plan: 'team' });
      assert.equal((await repo.findApiKey(k2.keyHash))?.plan, 'team');
      assert.equal((await repo.listApiKeys()).length, 2);
    }));

    it('a delisted host is hidden from every read but its scans; relist brings it back', withRepo(async (repo) => {
      await saveLadder(repo);
      const cScan = await save(repo, 'c.example', { score: 85, minutes: 1, vertical: 'food' });
      assert.equal(await repo.isDelisted('c.example'), false);
      await repo.setDelisted('c.example', true);
      assert.equal(await repo.isDelisted('c.example'), true);

      assert.equal(await repo.latestByHost('c.example'), null);
      assert.deepEqual([...(await repo.latestByHosts(['b.example', 'c.example'])).keys()], ['b.example']);
      assert.equal(await repo.rankWindow('c.example'), null);
      assert.equal(await repo.rankWindow('c.example', { asIf: { score: 50, grade: 'F' } }), null);
      assert.deepEqual(windowOf(await repo.rankWindow('b.example')), {
        rank: 2,
        total: 6,
        rows: ['a.example:90#1', 'b.example:80#2', 'd.example:80#2', 'e.example:70#4'],
      });
      assert.deepEqual(windowOf(await repo.rankWindow('n.example', { asIf: { score: 85, grade: 'B' } })), {
        rank: 2,
        total: 7,
        rows: ['a.example:90#1', 'n.example:85#2', 'b.example:80#3', 'd.example:80#3'],
      });
      assert.ok(!(await repo.topStores({ limit: 100 })).some((r) => r.host === 'c.example'));
      assert.equal((await repo.topStores({ limit: 100 })).length, 6);
      assert.equal(await repo.countStores(), 6);
      assert.equal(await repo.countStores('food'), 0);
      assert.equal((await repo.getScan(cScan.id))?.host, 'c.example', 'its scans stay stored');

      // A scan while delisted is stored and stays hidden.
      const later = await save(repo, 'c.example', { score: 40, minutes: 2 });
      assert.equal(await repo.latestByHost('c.example'), null);
      assert.equal(await repo.countStores(), 6);
      assert.equal((await repo.getScan(later.id))?.score, 40);
      await repo.setDelisted('c.example', true); // idempotent
      assert.equal(await repo.countStores(), 6);

      await repo.setDelisted('c.example', false);
      assert.equal(await repo.isDelisted('c.example'), false);
      const back = await repo.latestByHost('c.example');
      assert.equal(back?.scanId, later.id, 'relisted with its newest scan');
      assert.equal(back?.score, 40);
      assert.equal(back?.vertical, 'food', 'and the vertical it had');
      assert.equal(await repo.countStores(), 7);
      assert.equal(await repo.countStores('food'), 1);
      assert.deepEqual(windowOf(await repo.rankWindow('c.example', { above: 1, below: 1 })), {
        rank: 7,
        total: 7,
        rows: ['g.example:50#6', 'c.example:40#7'],
      });
      await repo.setDelisted('c.example', false); // idempotent
      assert.equal(await repo.countStores(), 7);
    }));

    it('delisting a host never scanned hides it once it is scanned; relisting shows it', withRepo(async (repo) => {
      await repo.setDelisted('future.example', true);
      assert.equal(await repo.isDelisted('future.example'), true);
      await save(repo, 'future.example', { score: 70 });
      assert.equal(await repo.latestByHost('future.example'), null);
      assert.equal(await repo.countStores(), 0);
      await repo.setDelisted('future.example', false);
      assert.equal((await repo.latestByHost('future.example'))?.score, 70);
      await repo.setDelisted('never.example', true);
      await repo.setDelisted('never.example', false);
      assert.equal(await repo.latestByHost('never.example'), null);
      assert.equal(await repo.countStores(), 1);
    }));

    runConcurrencyCases(makeRepo, opts.sibling);
  });
}
