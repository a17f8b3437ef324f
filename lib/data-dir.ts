// DATA_DIR holds the store, its backups and the local secrets key: whoever makes it first (the store or the secrets
// key, whichever start-up reaches first) makes it owner-only.
import { mkdirSync } from 'node:fs';

/** Creates `dir` (and any missing parent) with mode 0700; an existing folder keeps the mode its operator gave it. */
export function makeDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}
