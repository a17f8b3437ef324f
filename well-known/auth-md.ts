// GET /auth.md: how to authenticate and what the limits are (docs/decisions.md "Limits and keys"), for people and
// agents. Which endpoints need a key comes from the route table; the numbers come from the running configuration, not
// from prose.
import type { Config } from '../lib/config.js';
import { ROUTES, type RouteDef } from '../rest/routes.js';
import { MCP_PATH } from '../lib/links.js';
import { FUNCTION_DEFS_PATHS } from '../lib/links.js';

const AUTH_WORDS = { none: 'no key', optional: 'optional: a valid key raises your quota', pro: '**Pro key required**' } as const;

export function authMd(config: Config, routes: RouteDef[] = ROUTES): string {
  const base = config.BASE_URL;
  return [
    '# Authentication and limits',
    '',
    'Store Readiness works without an account. A Pro API key raises quotas and unlocks the bulk read and the agent brief.',
    '',
    '## Anonymous use',
    '',
    `- Everything not marked **Pro key required** below works with no key, the MCP endpoint (${base}${MCP_PATH}) included.`,
    '- Anonymous callers are counted per client IP address.',
    '',
    '## Pro API keys',
    '',
    `- Get a key in the console: open ${base}/console/sign-in, enter your e-mail address and open the sign-in link we mail you (no password). On the **API keys** page (${base}/console/keys), name a key and press **Create key**. An account holds up to 10 active keys.`,
    '- The key is shown once, when it is created (only its hash is stored), so it cannot be looked up later: store it as a secret. A lost or leaked key is revoked on the same page (it stops working at once) and replaced with a new one.',
    '- The operator can also create a key of your account from the command line: `store-readiness keys create --owner <your e-mail>`.',
    '- Send it on every request as a header: `Authorization: Bearer <API_KEY>`. Keys in query strings are ignored.',
    '- Each scan made with a key is recorded with that key and listed on the console\'s **Scans** page. The Pro limits are per account: all keys of an account, and scans started from the site while signed in, share them. The console\'s overview shows what is used.',
    '- Signed in to the console, the report page\'s **Agent brief** button opens the brief without a key.',
    '- **The MCP endpoint needs no authentication.** A valid key sent there only raises the per-minute request limit; an invalid one is ignored.',
    '',
    '## Which endpoints need a key',
    '',
    ...routes.map((r) => `- \`${r.method.toUpperCase()} /api/v1${r.path}\`: ${AUTH_WORDS[r.auth]}.`),
    `- \`GET /api/v1\`, \`GET ${FUNCTION_DEFS_PATHS[0]}\`, \`GET /badge/{host}.svg\`, \`GET /verify/{host}\`, \`POST ${MCP_PATH}\`: no key.`,
    '',
    'Every path also answers under the unversioned `/api` alias.',
    '',
    '## Limits',
    '',
    '| Limit | Anonymous (per IP) | Pro (per account) |',
    '|---|---|---|',
    `| Scans | ${config.ANON_SCANS_PER_HOUR} per hour | ${config.PRO_SCANS_PER_HOUR} per hour, and ${config.PRO_SCANS_PER_30_DAYS} per rolling 30 days |`,
    `| Requests of any kind (reads, badges, MCP, …) | ${config.ANON_READS_PER_MINUTE} per minute | ${config.PRO_READS_PER_MINUTE} per minute |`,
    '| Hosts per bulk read | — | 100 |',
    '',
    'A scan runs synchronously and takes about 30 seconds.',
    '',
    '## Rate-limit headers',
    '',
    'Every response carries the IETF `RateLimit-Policy` and `RateLimit` headers (draft-8 syntax), for example',
    `\`RateLimit-Policy: "read"; q=${config.ANON_READS_PER_MINUTE}; w=60\` and \`RateLimit: "read"; r=${config.ANON_READS_PER_MINUTE - 1}; t=42\`: \`q\` is the quota, \`w\` the window in seconds,`,
    '`r` what remains and `t` the seconds until the window resets. Slow down before `r` reaches 0.',
    '',
    '## Handling 401 Unauthorized',
    '',
    '- `401` with code `UNAUTHORIZED` means the key is missing (on a Pro endpoint), malformed, unknown or revoked.',
    '- The response carries `WWW-Authenticate: Bearer realm="store-readiness"`, with `error="invalid_token"` when a key was sent but is not valid.',
    '- A bad key is an error on every `/api` endpoint, even where a key is optional: remove it or fix it, do not retry unchanged.',
    '',
    '## Handling 429 Too Many Requests',
    '',
    '- `429` with code `RATE_LIMITED`; the message says which limit was hit.',
    '- Wait the number of seconds in `Retry-After` (an integer) before retrying; the `RateLimit` header of the same response shows `r=0` and the reset time.',
    '- Retrying earlier only counts against you. Every endpoint is read-only and safe to retry after the wait.',
    '',
    '## Errors',
    '',
    'Every error is JSON: `{"code": "...", "message": "...", "error": "...", "next_action": {"method", "endpoint", "params", "description"}}`; `next_action` appears when there is a call that resolves the error.',
    '',
    `See also: [OpenAPI](${base}/openapi.json), [llms.txt](${base}/llms.txt).`,
    '',
  ].join('\n');
}
