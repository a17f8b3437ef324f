// Every environment variable of the service, validated once by one zod schema (README.md "Configuration").
// An empty value counts as unset; a bad value stops start-up with a message naming the variable.
import { z } from 'zod';

const intIn = (min: number, max: number, dflt: number) => z.coerce.number().int().min(min).max(max).default(dflt);
const flag = z.enum(['1', '0', 'true', 'false']).optional().transform((v) => v === '1' || v === 'true');

export const ConfigSchema = z
  .object({
    PORT: intIn(0, 65535, 3000),
    HOST: z.string().min(1).default('127.0.0.1'),
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
    ANON_SCANS_PER_HOUR: intIn(0, 1_000_000, 5),
    PRO_SCANS_PER_HOUR: intIn(0, 1_000_000, 30),
    PRO_SCANS_PER_30_DAYS: intIn(0, 100_000_000, 1000),
    ANON_READS_PER_MINUTE: intIn(1, 10_000_000, 300),
    PRO_READS_PER_MINUTE: intIn(1, 10_000_000, 3000),
    TRUST_PROXY: z.string().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // Console mail: smtp:// or smtps:// with user and password in the URL; unset, mail goes to the log.
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
    MAIL_FROM: z.string().min(3).max(320).regex(/@/, 'must hold an address').optional(),
    SIGN_IN_MAILS_PER_ADDRESS_PER_HOUR: intIn(1, 1_000_000, 5),
    SIGN_IN_MAILS_PER_IP_PER_HOUR: intIn(1, 1_000_000, 20),
    MCP_ALLOWED_ORIGINS: z
      .string()
      .optional()
      .transform((v) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : [])),
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
