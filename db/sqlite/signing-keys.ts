// SigningKeyRepo on the embedded SQLite file, sharing SqliteRepo's connection: one table (schema step 3 of
// db/sqlite/repo.ts), one row a key.
import type Database from 'better-sqlite3';
import type { SigningKeyRecord, SigningKeyRepo } from '../signing-keys-repo.js';

export const SIGNING_KEYS_SCHEMA = `
CREATE TABLE IF NOT EXISTS signing_keys (
  generation INTEGER PRIMARY KEY,
  key_id TEXT NOT NULL,
  public_jwk TEXT NOT NULL,
  sealed_private_jwk TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  not_before INTEGER NOT NULL,
  retired_at INTEGER
);
`;

interface SigningKeyRow {
  generation: number;
  key_id: string;
  public_jwk: string;
  sealed_private_jwk: string;
  created_at: number;
  not_before: number;
  retired_at: number | null;
}

const toRecord = (r: SigningKeyRow): SigningKeyRecord => ({
  generation: r.generation,
  keyId: r.key_id,
  publicJwk: r.public_jwk,
  sealedPrivateJwk: r.sealed_private_jwk,
  createdAt: new Date(r.created_at),
  notBefore: new Date(r.not_before),
  retiredAt: r.retired_at === null ? null : new Date(r.retired_at),
});

export class SqliteSigningKeys implements SigningKeyRepo {
  private readonly listStmt: Database.Statement<[], SigningKeyRow>;
  private readonly insertStmt: Database.Statement<[SigningKeyRow], Database.RunResult>;
  private readonly retireStmt: Database.Statement<[number, number], Database.RunResult>;
  private readonly pruneStmt: Database.Statement<[number], Database.RunResult>;
  private readonly addTx: (row: SigningKeyRow) => boolean;

  constructor(db: Database.Database) {
    this.listStmt = db.prepare('SELECT * FROM signing_keys ORDER BY generation');
    this.insertStmt = db.prepare(
      `INSERT OR IGNORE INTO signing_keys (generation, key_id, public_jwk, sealed_private_jwk, created_at, not_before, retired_at)
       VALUES (@generation, @key_id, @public_jwk, @sealed_private_jwk, @created_at, @not_before, @retired_at)`,
    );
    this.retireStmt = db.prepare('UPDATE signing_keys SET retired_at = ? WHERE generation < ? AND retired_at IS NULL');
    this.pruneStmt = db.prepare('DELETE FROM signing_keys WHERE retired_at IS NOT NULL AND retired_at < ?');
    this.addTx = db.transaction((row: SigningKeyRow) => {
      if (this.insertStmt.run(row).changes === 0) return false;
      this.retireStmt.run(row.not_before, row.generation);
      return true;
    });
  }

  async list(): Promise<SigningKeyRecord[]> {
    return this.listStmt.all().map(toRecord);
  }

  async add(key: SigningKeyRecord): Promise<boolean> {
    return this.addTx({
      generation: key.generation,
      key_id: key.keyId,
      public_jwk: key.publicJwk,
      sealed_private_jwk: key.sealedPrivateJwk,
      created_at: key.createdAt.getTime(),
      not_before: key.notBefore.getTime(),
      retired_at: key.retiredAt?.getTime() ?? null,
    });
  }

  async pruneRetired(before: Date): Promise<number> {
    return this.pruneStmt.run(before.getTime()).changes;
  }
}
