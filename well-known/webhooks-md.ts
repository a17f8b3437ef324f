// GET /webhooks.md: the webhook format for the people and agents who receive them: headers and signatures
// (Standard Webhooks), the body, each event type, retries and what disables an endpoint. The event list and the
// retry numbers come from the code and the running configuration.
import type { Config } from '../lib/config.js';
import { EVENT_DESCRIPTIONS, EVENT_TYPES, TEST_EVENT_TYPE } from '../schemas/webhook-event.js';
import { rubricRow } from '../scan/checks/rubric.js';

export const WEBHOOKS_DOC_PATH = '/webhooks.md';

function duration(ms: number): string {
  const units: [number, string][] = [[86_400_000, 'd'], [3_600_000, 'h'], [60_000, 'min'], [1000, 's']];
  for (const [size, unit] of units) if (ms % size === 0) return `${ms / size} ${unit}`;
  return `${ms} ms`;
}

export function webhooksMd(config: Pick<Config, 'BASE_URL' | 'WEBHOOK_RETRY_SCHEDULE' | 'WEBHOOK_TIMEOUT_MS'>): string {
  const schedule = config.WEBHOOK_RETRY_SCHEDULE;
  const regressed = rubricRow('discovery_llms_txt'); // the example's check, with its real pillar and points
  const example = {
    type: 'check.regressed',
    timestamp: '2026-11-26T09:30:12.000Z',
    data: {
      host: 'shop.example.com',
      scan_id: 1234,
      report_url: `${config.BASE_URL}/r/1234`,
      scanned_at: '2026-11-26T09:30:12.000Z',
      score: 71,
      grade: 'B',
      agent_ready: true,
      previous_scan_id: 1201,
      previous_score: 74,
      previous_grade: 'B',
      previous_agent_ready: true,
      changed_checks: [
        { id: regressed.id, label: 'llms.txt for agents', pillar: regressed.pillar, from: 'pass', to: 'fail', points_from: regressed.points, points_to: 0, max: regressed.points, regressed: true },
      ],
      agents_changed: [{ agent: 'ChatGPT-User', page: 'product', from: 'served', to: 'challenged' }],
    },
  };
  return [
    '# Webhooks',
    '',
    'Store Readiness tells you when a store you own changes: every scan of it, by anyone, can send an event to your HTTPS endpoint. Webhooks follow the [Standard Webhooks](https://www.standardwebhooks.com/) specification, so its libraries (`standardwebhooks` on npm, PyPI, Go, …) verify them.',
    '',
    '## Setting up',
    '',
    '1. In the console, claim your store and prove you own it: put `<meta name="store-readiness-verification" content="TOKEN">` on your homepage, or the token on a line of `/.well-known/store-readiness.txt`.',
    '2. Add an endpoint: an `https://` URL on a public address (port 443), and the events you want. Its signing secret (`whsec_…`) is shown **once**: store it as a secret.',
    '3. Use **Send test event** to check your receiver; every attempt is listed with its status and duration (the last 100 per endpoint), with **Resend** for any of them.',
    '',
    'Events of a host go to the endpoints of every account that verified it.',
    '',
    '## Events',
    '',
    '| Type | Sent when |',
    '|---|---|',
    ...EVENT_TYPES.map((t) => `| \`${t}\` | ${EVENT_DESCRIPTIONS[t]} |`),
    `| \`${TEST_EVENT_TYPE}\` | You press **Send test event** (sent whatever events the endpoint picked). |`,
    '',
    'One scan can cause several events; each is a separate message with its own `webhook-id`. Order is not guaranteed: use `data.scanned_at` and `data.scan_id` (increasing) to order them.',
    '',
    '## Request',
    '',
    '`POST` to your URL with `Content-Type: application/json` and these headers:',
    '',
    '- `webhook-id`: the message id (`msg_…`). **The same on every retry** of a message: use it to ignore duplicates, since delivery is at least once.',
    '- `webhook-timestamp`: when this attempt was sent, in Unix seconds. Reject messages more than 5 minutes off your clock (replay protection).',
    '- `webhook-signature`: `v1,` followed by the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part of your secret after `whsec_`. During a secret rotation there are two, separated by a space; accept the message when any one matches.',
    '',
    'Body: `{type, timestamp, data}`, under 20 KB. `data` of every scan event:',
    '',
    '```json',
    JSON.stringify(example, null, 2),
    '```',
    '',
    '`changed_checks` lists every check whose status moved since `previous_scan_id` (empty for a first scan, when the `previous_*` fields are null); `regressed` marks the ones that moved down from pass or partial.',
    '',
    '`agents_changed` lists the pages whose answer changed for an AI agent (the report\'s agents matrix: `served`, `blocked`, `challenged`, `rate_limited`, `degraded` or `failed`); `agents.changed` is sent when it is not empty.',
    '',
    '## Verifying',
    '',
    '```js',
    "import { Webhook } from 'standardwebhooks';",
    'const wh = new Webhook(process.env.STORE_READINESS_WEBHOOK_SECRET); // "whsec_…"',
    '// Use the raw request body, byte for byte, not re-serialised JSON.',
    'const event = wh.verify(rawBody, headers); // throws when the signature or the timestamp is wrong',
    '```',
    '',
    '## Delivery and retries',
    '',
    `- Any 2xx answer within ${duration(config.WEBHOOK_TIMEOUT_MS)} is success; answer quickly and do the work afterwards. The answer body is not read beyond 4 KiB.`,
    `- Anything else (another status, a timeout, a connection error) is retried after ${schedule.map(duration).join(', ')} (${schedule.length + 1} attempts in all), always with the same \`webhook-id\` and body.`,
    '- Redirects are not followed: a 3xx counts as a failure. Give the final URL.',
    '- `410 Gone` disables the endpoint at once. When every delivery to an endpoint has failed for five days, it is disabled too. Either way the account owner gets an e-mail; turn it on again in the console once the receiver works.',
    '- Deliveries survive restarts of the service and are never sent twice at once by its instances.',
    '- Your endpoint gets one request at a time: the next message waits until the previous attempt has been answered or has timed out.',
    '- After 3 timeouts in a row the endpoint is paused for 5 min: messages wait (no attempt is used up), then one goes out; once your receiver answers, the rest follow.',
    '- **Send test event** and **Resend** together: at most 10 per account every 10 min.',
    '',
    '## Rotating the secret',
    '',
    'Rotate in the console: the new secret is shown once, and for 24 hours every message carries two signatures, one per secret, so you can deploy the new secret without missing a message.',
    '',
    '## Addresses',
    '',
    'Endpoint URLs must be `https://` on port 443, on a public address: private, loopback, link-local and cloud metadata addresses are refused, both when the endpoint is added and each time its name is resolved for a delivery.',
    '',
  ].join('\n');
}
