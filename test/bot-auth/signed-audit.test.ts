// A deep audit's requests are signed as a scan's are: the crawler composed as main.ts composes it (the keyring of the
// instance's store), a small catalog audited through the API, and every request the store saw checked by the
// independent verifier against the key directory fetched from the service. Without a signer none is signed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { startApp, getJson, type TestApp } from '../helpers/start-app.js';
import { proKey, waitForAudit } from '../helpers/audits.js';
import { startCatalogStore, type CatalogStore } from '../helpers/catalog-store.js';
import { fetchDirectory, verifyRequest } from '../helpers/web-bot-auth-verifier.js';
import { createCrawl } from '../../server/crawl.js';
import { keyringOf } from '../../server/app.js';
import { secretBoxFor } from '../../server/monitoring.js';

const log = pino({ level: 'silent' });

async function audit(app: TestApp, store: CatalogStore, crawl: ReturnType<typeof createCrawl>): Promise<void> {
  const started = await getJson(`${app.url}/api/v1/audits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await proKey(app)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: store.url, max_pages: 6 }),
  });
  assert.equal(started.status, 202, JSON.stringify(started.body));
  crawl.start();
  const done = await waitForAudit(app, started.body.audit_id, 60_000);
  assert.equal(done.status, 'done', done.error ?? '');
  assert.equal(done.result?.pages_audited, 6);
}

describe('signed deep audits (Web Bot Auth)', () => {
  it('every request of a deep audit, plan and pages, carries a signature that verifies against our directory', { timeout: 90_000 }, async (t) => {
    const app = await startApp(t, { CRAWL_DELAY_MS: '10', CRAWL_POLL_MS: '20' }, { selfBaseUrl: true });
    const store = await startCatalogStore({ products: 12 });
    t.after(() => store.close());
    const keyring = keyringOf({ config: app.config, db: app.db, log }, secretBoxFor(app.config));
    const crawl = createCrawl({ config: app.config, db: app.db, log, requestSigner: keyring.signer });
    t.after(() => crawl.stop());
    await audit(app, store, crawl);

    const keys = await fetchDirectory(app.url);
    const paths = store.visits.map((v) => v.path);
    assert.ok(paths.includes('/robots.txt') && paths.includes('/sitemap.xml'), `the plan's requests: ${paths.join(' ')}`);
    assert.equal(paths.filter((p) => p.includes('/item-')).length, 6, `the pages: ${paths.join(' ')}`);
    for (const v of store.visits) {
      assert.ok(v.headers.signature, `${v.path} is signed`);
      assert.equal(verifyRequest(`${store.origin}${v.path}`, v.headers, keys).agent, app.url);
    }
  });

  it('a crawler without a signer (SIGN_REQUESTS=off) sends none', { timeout: 90_000 }, async (t) => {
    const app = await startApp(t, { SIGN_REQUESTS: 'off', CRAWL_DELAY_MS: '10', CRAWL_POLL_MS: '20' }, { selfBaseUrl: true });
    const store = await startCatalogStore({ products: 12 });
    t.after(() => store.close());
    const crawl = createCrawl({ config: app.config, db: app.db, log });
    t.after(() => crawl.stop());
    await audit(app, store, crawl);
    assert.ok(store.visits.length > 6);
    assert.ok(store.visits.every((v) => !v.headers.signature && !v.headers['signature-input'] && !v.headers['signature-agent']));
  });
});
