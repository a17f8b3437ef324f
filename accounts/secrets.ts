// Secrets of the console (sign-in tokens, session ids, CSRF tokens): 256 random bits, stored only as SHA-256.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 bytes from the CSPRNG, base64url (43 characters). */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** A random public id (accounts): not a secret, but not guessable either. */
export const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('base64url')}`;

export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** The shape every secret of ours has; anything else is refused before a lookup. */
export const isSecretShaped = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);

/** Equality of two short strings without an early exit on the first difference. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
