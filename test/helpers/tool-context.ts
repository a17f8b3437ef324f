// A tool's context over a real in-memory SQLite store, for calling a handler directly in a test.
import { pino } from 'pino';
import { testConfig } from '../../lib/config.js';
import { SqliteRepo } from '../../db/sqlite/repo.js';
import type { ToolContext } from '../../tools/tool.js';
import { createAppState } from '../../tools/app-state.js';

export async function toolContextForTest(t: { after(fn: () => unknown): void }): Promise<{ db: SqliteRepo; ctx: ToolContext }> {
  const db = new SqliteRepo(':memory:');
  await db.init();
  t.after(() => db.close());
  const config = testConfig({ BASE_URL: 'http://localhost:3000' });
  const ctx: ToolContext = {
    db,
    config,
    log: pino({ level: 'silent' }),
    caller: { kind: 'anonymous', keyId: null, ip: '127.0.0.1' },
    baseUrl: config.BASE_URL,
    app: createAppState(config),
  };
  return { db, ctx };
}
