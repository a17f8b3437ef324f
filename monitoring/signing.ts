// Standard Webhooks signatures: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the
// secret's key bytes; during a rotation one signature per live secret, space-separated, so receivers holding
// either secret accept the message.
import { createHmac } from 'node:crypto';
import { secretKeyBytes } from './secrets.js';

export function signature(secret: string, messageId: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretKeyBytes(secret)).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers of one attempt. */
export function webhookHeaders(secrets: string[], messageId: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signature(s, messageId, timestamp, body)).join(' '),
  };
}
