// The command line (README.md "Command line"): scan | serve | backup | keys create|list|revoke | delist | relist | vertical
// | seed | signing-key list|rotate.
// Keys, delisting and verticals act on the configured store directly; nothing here needs the HTTP server running.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../lib/config.js';
import { createAccountKey } from '../accounts/console-keys.js';
import { normaliseEmail } from '../accounts/sign-in.js';
import { newId } from '../accounts/secrets.js';
import { AppError } from '../lib/errors.js';
import { serve } from './main.js';
import { createRepo } from '../db/index.js';
import type { Repository } from '../db/repo.js';
import { VERTICALS } from '../schemas/params.js';
import { indexHost } from '../lib/hosts.js';
import { runScanCommand } from './cli-scan.js';
import { signingKeyCommand } from './cli-signing-key.js';
import { join, resolve } from 'node:path';
import { BackupError, backupSqlite } from '../db/sqlite/backup.js';
import { readFileSync } from 'node:fs';
import { queueSeeds, seedStatus } from '../crawl/seed.js';

const USAGE = `Usage: store-readiness <command>
  scan <url> [options]                  audit a store: text, JSON, Markdown or JUnit, CI gates (scan --help)
  serve                                 run the service (same as npm start)
  backup <file>                         copy the SQLite store to a new file while the service runs (online, consistent)
  keys create --owner <email> [--name N] create a Pro key of that address's console account; prints it once
  keys list                             list keys (id, owner, created, revoked)
  keys revoke <key-id>                  revoke a key
  delist <host> | relist <host>         hide a store from (or return it to) the public index
  vertical <host> <vertical>            set a listed store's vertical (${VERTICALS.join(', ')})
  seed <file>                           queue root scans of the stores listed (one root a line), drained by every instance
  seed status                           seeded stores queued, done and failed, and the pace of the last hour
  signing-key list                      the scanner's Web Bot Auth keys (generation, key id, state)
  signing-key rotate [--now]            a new signing key: listed at once, signing after the directory's cache time (--now: at once)`;

type Out = { out: (s: string) => void; err: (s: string) => void };
const stdio: Out = { out: (s) => process.stdout.write(`${s}\n`), err: (s) => process.stderr.write(`${s}\n`) };

export async function runCli(argv: string[], env = process.env, io: Out = stdio): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'scan') return runScanCommand(rest, env);
  if (command === 'serve') {
    const running = await serve(loadConfig(env));
    const stop = () => void running.stop().then(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    return -1; // keep running
  }
  if (command === 'backup') return backup(rest, env, io);
  if (command === 'keys' || command === 'delist' || command === 'relist' || command === 'vertical' || command === 'seed' || command === 'signing-key') return withStore(env, io, command, rest);
  io.err(USAGE);
  return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
}

async function withStore(env: NodeJS.ProcessEnv, io: Out, command: string, rest: string[]): Promise<number> {
  const config = loadConfig(env);
  const db = await createRepo(config);
  try {
    if (command === 'signing-key') return await signingKeyCommand(config, db, io, rest);
    if (command === 'delist' || command === 'relist') {
      if (rest.length !== 1) return usage(io);
      const host = indexHost(rest[0]);
      await db.setDelisted(host, command === 'delist');
      io.out(`${host} ${command === 'delist' ? 'delisted: hidden from the index, badge, verify and MCP reads' : 'relisted'}`);
      return 0;
    }
    if (command === 'vertical') return await setVertical(db, io, rest);
    if (command === 'seed') return await seed(db, io, rest, loadConfig(env).SCAN_ALLOW_PRIVATE);
    const [sub, ...args] = rest;
    if (sub === 'create') {
      const { values } = parseArgs({ args, options: { owner: { type: 'string' }, name: { type: 'string' } }, strict: true });
      const email = normaliseEmail(values.owner);
      if (!email) {
        io.err('keys create needs --owner <email>');
        return 2;
      }
      // The key belongs to the console account of that address (made now if needed), like a key made there.
      const account = await db.accounts.ensureAccount(email, new Date(), newId('acct'));
      let created;
      try {
        created = await createAccountKey(db, account, values.name?.trim() || 'Command line');
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        io.err(err.message);
        return 1;
      }
      const { key, record } = created;
      io.out(`Created Pro key ${record.id} for ${record.owner}. Store it now: it is shown only once.`);
      io.out(key); // alone on the last line, for scripts
      return 0;
    }
    if (sub === 'list') {
      for (const k of await db.listApiKeys()) {
        io.out(`${k.id}  ${k.owner}  created ${k.createdAt.toISOString()}${k.revokedAt ? `  revoked ${k.revokedAt.toISOString()}` : ''}`);
      }
      return 0;
    }
    if (sub === 'revoke' && args.length === 1) {
      const done = await db.revokeApiKey(args[0], new Date());
      io[done ? 'out' : 'err'](done ? `Revoked ${args[0]}` : `No key with id ${args[0]}`);
      return done ? 0 : 1;
    }
    return usage(io);
  } finally {
    await db.close();
  }
}

// The operator's way to set a store's vertical (scans never rewrite it): 1 when the host is not listed.
async function setVertical(db: Repository, io: Out, args: string[]): Promise<number> {
  if (args.length !== 2) return usage(io);
  const host = indexHost(args[0]);
  let done;
  try {
    done = await db.setVertical(host, args[1]);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    io.err(err.message);
    return 2;
  }
  io[done ? 'out' : 'err'](done ? `${host} is now listed in ${args[1]}` : `${host} is not in the index (never scanned, or delisted): nothing changed`);
  return done ? 0 : 1;
}

// The seeded index: queue a file of store roots, or say where the queue stands.
async function seed(db: Repository, io: Out, args: string[], allowPrivate: boolean): Promise<number> {
  if (args.length !== 1) return usage(io);
  if (args[0] === 'status') {
    const s = await seedStatus(db, new Date());
    io.out(`seeded stores: ${s.queued} queued, ${s.done} done, ${s.failed} failed; ${s.perMinute} scans a minute over the last hour`);
    io.out(JSON.stringify(s));
    return 0;
  }
  let text: string;
  try {
    text = readFileSync(args[0], 'utf8');
  } catch (err) {
    io.err(`cannot read ${args[0]}: ${(err as Error).message}`);
    return 1;
  }
  const result = await queueSeeds(db, text, { allowPrivate, now: new Date() });
  for (const r of result.refused) io.err(`line ${r.line} refused (${r.why}): ${r.text}`);
  io.out(`queued ${result.queued} store roots (${result.already} already seeded, ${result.refused.length} refused)`);
  return result.refused.length > 0 && result.queued === 0 ? 1 : 0;
}

function backup(args: string[], env: NodeJS.ProcessEnv, io: Out): number {
  if (args.length !== 1) return usage(io);
  const config = loadConfig(env);
  if (config.MONGODB_URI) {
    io.err('backup copies the embedded SQLite store; with MONGODB_URI, back up the database with mongodump (docs/deployment.md)');
    return 2;
  }
  try {
    const summary = backupSqlite(join(config.DATA_DIR, 'store.db'), resolve(args[0]));
    io.out(JSON.stringify(summary));
    return 0;
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    io.err(err.message);
    return 1;
  }
}

function usage(io: Out): number {
  io.err(USAGE);
  return 2;
}

/** The process's entry: bin/store-readiness.js calls it, and so does `tsx server/cli.ts` (npm run cli). */
export async function main(argv = process.argv.slice(2)): Promise<void> {
  try {
    const code = await runCli(argv);
    if (code >= 0) process.exit(code);
  } catch (err) {
    process.stderr.write(`${err instanceof ConfigError ? err.message : (err as Error).message}\n`);
    process.exit(2);
  }
}

if (/cli\.[tj]s$/.test(process.argv[1] ?? '')) await main();
