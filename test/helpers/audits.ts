// Deep audits in tests: a Pro key of a console account, and waiting for an audit to end through the API.
import assert from 'node:assert/strict';
import { getJson, type TestApp } from './start-app.js';
import { createAccountKey } from '../../accounts/console-keys.js';
import type { DeepAudit } from '../../schemas/deep-audit.js';

export async function proKey(app: TestApp, email = 'owner@shop.example'): Promise<string> {
  const account = await app.db.accounts.ensureAccount(email, new Date(), `acct_${email.replace(/\W/g, '')}`);
  return (await createAccountKey(app.db, account, 'test')).key;
}

export async function waitForAudit(app: TestApp, id: string, timeoutMs: number, seen?: (a: DeepAudit) => void): Promise<DeepAudit> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    // A fresh connection each time: a kept-alive one may be closed by the server just as it is reused.
    const { status, body } = await getJson(`${app.url}/api/v1/audits/${id}`, { headers: { connection: 'close' } });
    assert.equal(status, 200, JSON.stringify(body));
    seen?.(body as DeepAudit);
    if (body.status === 'done' || body.status === 'failed') return body as DeepAudit;
    if (Date.now() > until) throw new Error(`audit ${id} still ${body.status} after ${timeoutMs} ms: ${JSON.stringify(body.progress)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

