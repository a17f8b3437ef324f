// Pro API keys: "srk_" + 192 random bits + a CRC so typos are refused without a lookup. Only the SHA-256 of a
// key is stored; the key itself is shown once, at creation.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { ApiKeyRecord, Repository } from '../db/repo.js';

const PREFIX = 'srk_';
const KEY_SHAPE = /^srk_([A-Za-z0-9_-]{32})_([0-9a-f]{8})$/;

const hashKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

const checksum = (body: string): string => crc32(body).toString(16).padStart(8, '0');

/** True when the string has the shape of one of our keys (prefix, length, checksum). */
export function isWellFormedKey(key: string): boolean {
  const m = KEY_SHAPE.exec(key);
  return m !== null && checksum(m[1]) === m[2];
}

export async function createApiKey(
  db: Repository,
  owner: string,
  now = new Date(),
): Promise<{ key: string; record: ApiKeyRecord }> {
  const body = randomBytes(24).toString('base64url');
  const key = `${PREFIX}${body}_${checksum(body)}`;
  const keyHash = hashKey(key);
  const record: ApiKeyRecord = { id: keyHash.slice(0, 12), keyHash, owner, plan: 'pro', createdAt: now, revokedAt: null };
  await db.putApiKey(record);
  return { key, record };
}

/** The active key record for a presented key, or null (malformed, unknown or revoked look the same). */
export async function verifyApiKey(db: Repository, key: string): Promise<ApiKeyRecord | null> {
  if (!isWellFormedKey(key)) return null;
  const keyHash = hashKey(key);
  const record = await db.findApiKey(keyHash);
  if (!record || record.revokedAt) return null;
  const same = timingSafeEqual(Buffer.from(record.keyHash, 'hex'), Buffer.from(keyHash, 'hex'));
  return same ? record : null;
}
