// The command line against a real store file: keys create/list/revoke, delist/relist and vertical.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../server/cli.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import { saveFakeScan } from '../helpers/scans.js';

function setup(t: { after(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'srk-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s) };
  const env = { DATA_DIR: dir, LOG_LEVEL: 'silent' };
  return { dir, out, err, io, env, run: (...argv: string[]) => runCli(argv, env, io) };
}

test('keys create prints the key alone on the last line; only its hash is stored; list and revoke work', async (t) => {
  const cli = setup(t);
  assert.equal(await cli.run('keys', 'create', '--owner', 'owner@shop.test'), 0);
  const key = cli.out.at(-1)!;
  assert.match(key, /^srk_/);
  const repo = new SqliteRepo(join(cli.dir, 'store.db'));
  await repo.init();
  // Found by the SHA-256 of the key: the stored record holds the hash, never the key.
  const record = await repo.findApiKey(createHash('sha256').update(key, 'utf8').digest('hex'));
  await repo.close();
  assert.equal(record?.owner, 'owner@shop.test');

  cli.out.length = 0;
  assert.equal(await cli.run('keys', 'list'), 0);
  assert.equal(cli.out.length, 1);
  assert.match(cli.out[0], new RegExp(`^${record!.id}  owner@shop.test`));
  assert.equal(await cli.run('keys', 'revoke', record!.id), 0);
  assert.equal(await cli.run('keys', 'revoke', 'nope'), 1);
  cli.out.length = 0;
  await cli.run('keys', 'list');
  assert.match(cli.out[0], /revoked/);
});

test('keys create refuses a missing or malformed owner', async (t) => {
  const cli = setup(t);
  assert.equal(await cli.run('keys', 'create'), 2);
  assert.equal(await cli.run('keys', 'create', '--owner', 'not-an-email'), 2);
});

test('delist hides a host from index reads; relist brings it back; scans stay stored', async (t) => {
  const cli = setup(t);
  const repo = new SqliteRepo(join(cli.dir, 'store.db'));
  await repo.init();
  const report = await saveFakeScan(repo, { host: 'shop.test', score: 80 });
  await repo.close();
  assert.equal(await cli.run('delist', 'https://www.Shop.test/'), 0);
  const check = async () => {
    const r = new SqliteRepo(join(cli.dir, 'store.db'));
    await r.init();
    const state = { latest: await r.latestByHost('shop.test'), scan: await r.getScan(report.scan_id) };
    await r.close();
    return state;
  };
  let state = await check();
  assert.equal(state.latest, null);
  assert.ok(state.scan);
  assert.equal(await cli.run('relist', 'shop.test'), 0);
  state = await check();
  assert.equal(state.latest?.scanId, report.scan_id);
});

test('vertical sets a listed store\'s vertical; an unknown vertical, an unknown or delisted host change nothing', async (t) => {
  const cli = setup(t);
  const open = async () => {
    const r = new SqliteRepo(join(cli.dir, 'store.db'));
    await r.init();
    return r;
  };
  let repo = await open();
  await saveFakeScan(repo, { host: 'shop.test', score: 80, vertical: 'apparel' });
  await saveFakeScan(repo, { host: 'gone.test', score: 70, vertical: 'apparel' });
  await repo.setDelisted('gone.test', true);
  await repo.close();

  assert.equal(await cli.run('vertical', 'https://www.Shop.test/', 'beauty'), 0);
  assert.match(cli.out.at(-1)!, /^shop\.test is now listed in beauty$/);
  assert.equal(await cli.run('vertical', 'shop.test', 'fashion'), 2);
  assert.match(cli.err.at(-1)!, /vertical must be one of: apparel, beauty/);
  assert.equal(await cli.run('vertical', 'nobody.test', 'pets'), 1);
  assert.match(cli.err.at(-1)!, /nobody\.test is not in the index/);
  assert.equal(await cli.run('vertical', 'gone.test', 'pets'), 1);
  assert.equal(await cli.run('vertical', 'shop.test'), 2, 'the vertical is required');

  repo = await open();
  t.after(() => repo.close());
  assert.equal((await repo.latestByHost('shop.test'))?.vertical, 'beauty');
  assert.equal(await repo.countStores('beauty'), 1);
  assert.equal(await repo.countStores('apparel'), 0);
  assert.equal(await repo.countStores('pets'), 0);
  assert.equal(await repo.latestByHost('nobody.test'), null);
  assert.equal(await repo.latestByHost('gone.test'), null, 'still delisted');
});

test('unknown commands print the usage and fail', async (t) => {
  const cli = setup(t);
  assert.equal(await cli.run('frobnicate'), 2);
  assert.match(cli.err.join('\n'), /Usage: store-readiness/);
});

test('keys create --owner makes a key of that address\'s console account, created when needed, and listed there', async (t) => {
  const cli = setup(t);
  assert.equal(await cli.run('keys', 'create', '--owner', 'Console@Shop.test', '--name', 'deploy'), 0);
  assert.equal(await cli.run('keys', 'create', '--owner', 'console@shop.test'), 0);
  const repo = new SqliteRepo(join(cli.dir, 'store.db'));
  await repo.init();
  t.after(() => repo.close());
  const account = await repo.accounts.findAccountByEmail('console@shop.test');
  assert.ok(account, 'the account was created');
  const keys = await repo.accounts.listAccountKeys(account.id);
  assert.deepEqual(keys.map((k) => k.name).sort(), ['Command line', 'deploy']);
  await repo.close();
  const before = cli.out.length;
  assert.equal(await cli.run('keys', 'list'), 0);
  assert.equal(cli.out.slice(before).filter((l) => l.includes('console@shop.test')).length, 2, 'list shows the owner');
});
