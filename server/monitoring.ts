// Composition of the monitoring worker: the secret box from SECRETS_KEY, the scheduled scan (the scan_store tool
// called through tools/invoke.ts under the account's quota: the monitoring layer does not know the tools) and the owner mail. main.ts starts it
// unless MONITOR=off.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ConfigError, type Config } from '../lib/config.js';
import { makeDataDir } from '../lib/data-dir.js';
import type { Repository } from '../db/repo.js';
import { parseSecretsKey, secretBox, type SecretBox } from '../monitoring/secrets.js';
import { createMonitoringWorker, type MonitorScan, type MonitoringWorker, type SendMail, type WorkerDeps } from '../monitoring/worker.js';
import { scanStore } from '../tools/scan-store.js';
import { spendProScan } from '../accounts/quota.js';
import { createMailer, type Mailer } from '../accounts/mailer.js';
import type { Caller, ToolContext } from '../tools/tool.js';
import { invoke } from '../tools/invoke.js';
import { toolContext, type AppParts } from '../tools/context.js';
import type { AppState } from '../tools/app-state.js';
import type { ServiceMetrics } from '../lib/metrics.js';

const DEV_KEY_FILE = 'secrets.key';

/**
 * SECRETS_KEY, or for local use a random key kept in DATA_DIR (created once, owner-only): `npm start` needs no
 * set-up and no key is ever written in the code. Production (and MongoDB, whose instances must share the key)
 * needs SECRETS_KEY.
 */
export function secretBoxFor(config: Pick<Config, 'SECRETS_KEY' | 'MONGODB_URI' | 'DATA_DIR'>): SecretBox {
  if (config.SECRETS_KEY) return secretBox(parseSecretsKey(config.SECRETS_KEY));
  if (config.MONGODB_URI) {
    throw new ConfigError('Invalid configuration:\n  SECRETS_KEY: is required with MONGODB_URI: every instance must encrypt webhook secrets with the same key (generate one with `openssl rand -base64 32`)');
  }
  const file = join(config.DATA_DIR, DEV_KEY_FILE);
  if (!existsSync(file)) {
    makeDataDir(config.DATA_DIR);
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another process made it first
    }
  }
  return secretBox(parseSecretsKey(readFileSync(file, 'utf8').trim()));
}

/**
 * A monitor's scan: a call of scan_store through the one invoke path, on the account's Pro quota, with the instance's
 * browser like any other scan, so a scheduled scan carries the same browser view as one asked for on the site.
 */
export function monitorScan(deps: AppParts): MonitorScan {
  return async ({ origin, accountId }) => {
    // The scan is the account's: its scans page lists it, and it never joins a running scan started by someone else.
    const caller: Caller = { kind: 'pro', keyId: null, accountId, ip: 'monitor', monitor: true };
    try {
      const { value } = await invoke(scanStore, { url: origin }, {
        context: () => toolContext(deps, { caller }),
        // The account's own Pro quota: the counter its keys and console scans spend too.
        count: async () => {
          if (!(await spendProScan(deps.db, deps.config.PRO_SCANS_PER_30_DAYS, accountId))) throw new QuotaUsedUp();
        },
      });
      return { scanId: (value as { scan_id: number }).scan_id };
    } catch (err) {
      if (err instanceof QuotaUsedUp) return { skipped: `the account's ${deps.config.PRO_SCANS_PER_30_DAYS} scans per 30 days are used up` };
      throw err;
    }
  };
}

/** The account's scans of the last 30 days are used up: the scheduled scan is skipped, not failed. */
class QuotaUsedUp extends Error {}

/** Owner mail through the console's mailer, to the account's address; a deleted account gets none. */
export const accountMail = (db: Repository, mailer: Mailer): SendMail => async ({ accountId, subject, text }) => {
  const account = await db.accounts.getAccount(accountId);
  if (account) await mailer.send({ to: account.email, subject, text });
};

export function createMonitoring(
  deps: {
    config: Config;
    db: Repository;
    log: Logger;
    state: AppState;
    mailer?: Mailer;
    metrics?: ServiceMetrics;
    scanOverrides?: ToolContext['scanOverrides'];
    requestSigner?: ToolContext['requestSigner'];
    renderer?: ToolContext['renderer'];
  } & Partial<
    Pick<WorkerDeps, 'sendMail' | 'now' | 'box' | 'runScan' | 'lookup' | 'allowIPAddressList'>
  >,
): MonitoringWorker {
  return createMonitoringWorker({
    db: deps.db,
    config: deps.config,
    log: deps.log,
    box: deps.box ?? secretBoxFor(deps.config),
    runScan: deps.runScan ?? monitorScan(deps),
    sendMail: deps.sendMail ?? accountMail(deps.db, deps.mailer ?? createMailer(deps.config, deps.log)),
    now: deps.now,
    metrics: deps.metrics,
    lookup: deps.lookup,
    allowIPAddressList: deps.allowIPAddressList,
  });
}
