// Webhook secrets: `whsec_` + base64 of 32 random bytes (the Standard Webhooks form). They must be recoverable to
// sign, so they are stored encrypted with AES-256-GCM under SECRETS_KEY, the endpoint id bound in as associated
// data (a ciphertext copied onto another endpoint does not decrypt). Never logged.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
const VERSION = 'v1';
/** GCM's full tag: a shorter one would still open (GCM checks only the bytes it is given) and is easier to forge. */
const TAG_BYTES = 16;

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** The HMAC key inside a whsec_ secret. */
export function secretKeyBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** SECRETS_KEY as 32 bytes (hex or base64). */
export function parseSecretsKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes');
  return key;
}

export interface SecretBox {
  seal(plain: string, boundTo: string): string;
  open(sealed: string, boundTo: string): string;
}

export function secretBox(key: Buffer): SecretBox {
  return {
    seal(plain, boundTo) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(boundTo, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
    },
    open(sealed, boundTo) {
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('unknown secret format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(boundTo, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}
