// `signing-key list | rotate [--now]` (README.md "Command line"): the scanner's Web Bot Auth keys in the configured
// store. A rotation publishes the new key in the directory at once and signs with it after ACTIVATION_DELAY_MS
// (`--now`: at once, for a key that must stop being used); the old key stays listed until its signatures expire.
import { pino } from 'pino';
import type { Config } from '../lib/config.js';
import type { Repository } from '../db/repo.js';
import { keyringOf } from './app.js';
import { secretBoxFor } from './monitoring.js';

type Out = { out: (s: string) => void; err: (s: string) => void };

export async function signingKeyCommand(config: Config, db: Repository, io: Out, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'list' && rest.length === 0) {
    const now = Date.now();
    for (const k of await db.signingKeys.list()) {
      const state = k.retiredAt && k.retiredAt.getTime() <= now ? `retired ${k.retiredAt.toISOString()}` : k.notBefore.getTime() > now ? `signs from ${k.notBefore.toISOString()}` : 'signing';
      io.out(`${k.generation}  ${k.keyId}  created ${k.createdAt.toISOString()}  ${state}`);
    }
    return 0;
  }
  if (sub === 'rotate' && (rest.length === 0 || (rest.length === 1 && rest[0] === '--now'))) {
    const keyring = keyringOf({ config, db, log: pino({ level: 'silent' }) }, secretBoxFor(config));
    await keyring.signer(); // a store without a key gets its first one before the rotation
    const key = await keyring.rotate({ immediate: rest[0] === '--now' });
    io.out(`New signing key ${key.keyId} (generation ${key.generation}): listed in the key directory now, signing from ${key.notBefore.toISOString()}. The previous key stays listed until its last signatures expire.`);
    return 0;
  }
  io.err('Usage: signing-key list | signing-key rotate [--now]');
  return 2;
}
