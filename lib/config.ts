// Every environment variable of the service, validated once by one zod schema (README.md "Configuration").
// An empty value counts as unset; a bad value stops start-up with a message naming the variable.
import { z } from 'zod';
import ipaddr from 'ipaddr.js';

const intIn = (min: number, max: number, dflt: number) => z.coerce.number().int().min(min).max(max).default(dflt);
/** "5s,5m,30m,2h" → milliseconds; each step 1 s to 7 days, at most 20 steps. */
const durationList = z
  .string()
  .regex(/^\s*\d+(ms|s|m|h|d)\s*(,\s*\d+(ms|s|m|h|d)\s*)*$/, 'must be a comma-separated list of durations such as 5s,5m,30m,2h')
  .transform((v) => v.split(',').map((d) => parseDuration(d.trim())))
  .refine((list) => list.length <= 20 && list.every((ms) => ms >= 1000 && ms <= 7 * 86_400_000), 'at most 20 steps, each between 1s and 7d');
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
function parseDuration(d: string): number {
  const [, n, unit] = /^(\d+)(ms|s|m|h|d)$/.exec(d)!;
  return Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS];
}
const flag = z.enum(['1', '0', 'true', 'false']).optional().transform((v) => v === '1' || v === 'true');
/** An address or a CIDR range, as ipaddr.js reads them. */
function isAddressOrRange(v: string): boolean {
  if (ipaddr.isValid(v)) return true;
  try {
    ipaddr.parseCIDR(v);
    return true;
  } catch {
    return false;
  }
}
/** Express's names for address ranges, accepted in TRUST_PROXY. */
const PROXY_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);
const addressList = (what: string, extra: (v: string) => boolean = () => false) =>
  z
    .string()
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .refine((list) => list.length > 0 && list.every((v) => isAddressOrRange(v) || extra(v)), `must be ${what}`);
/** A host name (RFC 1123 labels) or an IP address to listen on. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export const ConfigSchema = z
  .object({
    PORT: intIn(0, 65535, 3000),
    HOST: z
      .string()
      .refine((v) => ipaddr.isValid(v) || HOST_NAME.test(v), 'must be an IP address or a host name to listen on, e.g. 127.0.0.1 or 0.0.0.0')
      .default('127.0.0.1'),
    BASE_URL: z
      .url({ protocol: /^https?$/ })
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
    MONGODB_URI: z.string().regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://').optional(),
    MONGODB_DB: z.string().regex(/^[A-Za-z0-9_-]{1,63}$/).default('store_readiness'),
    DATA_DIR: z.string().min(1).default('./data'),
    SCAN_TIMEOUT_MS: intIn(1000, 600_000, 30_000),
    SCAN_MAX_REQUESTS: intIn(1, 200, 20),
    SCAN_ALLOW_PRIVATE: flag,
    SCAN_CONCURRENCY: intIn(1, 256, 4),
    SCAN_QUEUE: intIn(0, 1024, 4),
    // The browser view: renders at once on this instance (0 = off), and the Chromium it drives when present.
    RENDER_CONCURRENCY: intIn(0, 32, 2),
    RENDER_TIMEOUT_MS: intIn(3000, 120_000, 15_000),
    CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
    // Web Bot Auth: the scanner signs its requests (on by default; off: unsigned, and no key directory).
    SIGN_REQUESTS: z.enum(['on', 'off', '1', '0', 'true', 'false']).default('on').transform((v) => v === 'on' || v === '1' || v === 'true'),
    // The agents matrix of a root scan: its own request cap, apart from SCAN_MAX_REQUESTS (0 = not run).
    AGENTS_MAX_REQUESTS: intIn(0, 60, 24),
    ANON_SCANS_PER_HOUR: intIn(0, 1_000_000, 5),
    PRO_SCANS_PER_HOUR: intIn(0, 1_000_000, 30),
    PRO_SCANS_PER_30_DAYS: intIn(0, 100_000_000, 1000),
    ANON_READS_PER_MINUTE: intIn(1, 10_000_000, 300),
    PRO_READS_PER_MINUTE: intIn(1, 10_000_000, 3000),
    // How many proxies stand in front (a hop count), or which addresses are proxies; `true` trusts any sender.
    TRUST_PROXY: z
      .string()
      .refine(
        (v) => /^\d{1,2}$/.test(v) || v === 'true' || v === 'false' || v.split(',').every((a) => isAddressOrRange(a.trim()) || PROXY_PRESETS.has(a.trim())),
        'must be a hop count (e.g. 1), a comma-separated list of proxy addresses or ranges (e.g. 10.0.0.0/8, loopback), true or false',
      )
      .optional(),
    // Who may read GET /metrics: addresses or ranges of the connecting socket (never X-Forwarded-For).
    METRICS_ALLOW: addressList('a comma-separated list of addresses or CIDR ranges, e.g. 127.0.0.1,10.0.0.0/8').prefault('127.0.0.1/8,::1/128'),
    // On SIGTERM: /readyz answers 503 for this long before the listener closes, so a load balancer stops sending.
    SHUTDOWN_DRAIN_MS: intIn(0, 120_000, 0),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    NODE_ENV: z.string().optional(),
    MONITOR: z.enum(['on', 'off']).default('on'),
    MONITOR_POLL_MS: intIn(100, 3_600_000, 15_000),
    WEBHOOK_RETRY_SCHEDULE: durationList.prefault(['5s', '5m', '30m', '2h', '5h', '10h', '10h'].join(',')),
    WEBHOOK_TIMEOUT_MS: intIn(100, 60_000, 10_000),
    /** 32 bytes, base64 or hex: encrypts webhook secrets at rest. Required in production. */
    SECRETS_KEY: z
      .string()
      .refine((v) => /^[0-9a-f]{64}$/i.test(v) || Buffer.from(v, 'base64').length === 32, 'must be 32 bytes in base64 or 64 hex digits (e.g. `openssl rand -base64 32`)')
      .optional(),
    // Console mail: smtp:// or smtps:// with user and password in the URL; unset, mail goes to the log.
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
    // Mail to the log on purpose (no SMTP server): allowed in production only when said explicitly.
    MAIL_TO_LOG: flag,
    MAIL_FROM: z.string().min(3).max(320).regex(/@/, 'must hold an address').optional(),
    SIGN_IN_MAILS_PER_ADDRESS_PER_HOUR: intIn(1, 1_000_000, 5),
    SIGN_IN_MAILS_PER_IP_PER_HOUR: intIn(1, 1_000_000, 20),
    // Background crawling on the queue (deep audits, the seeded index): page slots of this instance (0 = it takes
    // none), the spacing between two requests to one store (and whether the per-host rule applies at all), seeding.
    CRAWL_WORKERS: intIn(0, 64, 4),
    CRAWL_DELAY_MS: intIn(0, 60_000, 1000),
    CRAWL_POLITENESS: z.enum(['on', 'off']).default('on'),
    CRAWL_POLL_MS: intIn(20, 60_000, 1000),
    SEED_RATE_PER_MINUTE: intIn(1, 60_000, 30),
    SEED_CONCURRENCY: intIn(0, 64, 1),
    SEED_RESCAN_DAYS: intIn(1, 365, 7),
    MCP_ALLOWED_ORIGINS: z
      .string()
      .optional()
      .transform((v) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : [])),
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.SECRETS_KEY !== undefined, {
    path: ['SECRETS_KEY'],
    message: 'is required in production: it encrypts webhook secrets at rest (generate one with `openssl rand -base64 32`)',
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.BASE_URL !== undefined, {
    path: ['BASE_URL'],
    message: 'is required in production: the public address of the service, used in links, the server card and llms.txt (e.g. https://readiness.example.com)',
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.SMTP_URL !== undefined || c.MAIL_TO_LOG, {
    path: ['SMTP_URL'],
    message: 'is required in production: sign-in links are credentials and must not go to the log (set MAIL_TO_LOG=1 to write mail to the log anyway)',
  })
  // Below the public rule (one request a second per store) only on loopback and private networks: tests, benchmarks.
  .refine((c) => c.SCAN_ALLOW_PRIVATE || (c.CRAWL_DELAY_MS >= 1000 && c.CRAWL_POLITENESS === 'on'), {
    path: ['CRAWL_DELAY_MS'],
    message: 'below 1000, or CRAWL_POLITENESS=off, is allowed only with SCAN_ALLOW_PRIVATE=1 (loopback tests and benchmarks): stores are never asked more than once a second',
  })
  .transform((c) => {
    const BASE_URL = c.BASE_URL ?? `http://localhost:${c.PORT}`;
    return { ...c, BASE_URL, MAIL_FROM: c.MAIL_FROM ?? `Store Readiness <no-reply@${new URL(BASE_URL).hostname}>` };
  });

export type Config = z.output<typeof ConfigSchema>;

export class ConfigError extends Error {}

/** Parses an environment (process.env in production, a plain object in tests). */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(ConfigSchema.in.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') cleaned[key] = value;
  }
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return parsed.data;
}

/** Test helper default: a config with the given overrides and nothing read from the environment. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ SCAN_ALLOW_PRIVATE: '1', LOG_LEVEL: 'silent', ...overrides });
}
