// An address typed without a scheme is tried as https, then as http: a store that speaks plain HTTP is scanned,
// and the result says it answers in plain HTTP. One typed with https:// that meets a plain-HTTP server is refused
// with words that say so, not as an untrusted certificate.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startStoreFrom } from '../helpers/fixture-store.js';
import { completeStore } from '../fixtures/stores.js';
import { runScan } from '../../scan/index.js';
import { AppError } from '../../lib/errors.js';
import { getJson, startApp } from '../helpers/start-app.js';
import { plainError } from '../../pages/home-page.js';
import type { ScanResult } from '../../schemas/scan-result.js';

const OPTS = { allowPrivate: true, maxRequests: 20, timeoutMs: 15_000, baseUrl: 'http://localhost:3000' };

test('a scheme-less address of a plain-HTTP store is scanned over http and named as such', async (t) => {
  const store = await startStoreFrom(completeStore);
  t.after(() => store.close());
  const r = await runScan(`127.0.0.1:${store.port}`, OPTS);
  assert.equal(r.url, `${store.origin}/`);
  assert.match(r.address_note ?? '', new RegExp(`^No scheme was given and https://127\\.0\\.0\\.1:${store.port}/ did not answer over HTTPS \\(.+\\), so http://127\\.0\\.0\\.1:${store.port}/ was scanned: the store answers in plain HTTP\\.$`));
  assert.ok(r.fetched.length <= OPTS.maxRequests, 'the https attempt counts in the request budget');
  assert.equal(r.pillars.flatMap((p) => p.checks).find((c) => c.id === 'trust_https')?.status, 'fail');

  // The same through the API and the report a merchant opens.
  const app = await startApp(t, { SCAN_ALLOW_PRIVATE: '1' });
  const res = await getJson(`${app.url}/api/v1/scan?url=${encodeURIComponent(`127.0.0.1:${store.port}`)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  const report = res.body as ScanResult;
  assert.match(report.address_note ?? '', /the store answers in plain HTTP/);
  const page = await fetch(`${app.url}/r/${report.scan_id}`).then((p) => p.text());
  assert.match(page, /the store answers in plain HTTP/);
});

test('https:// typed for a plain-HTTP server: refused, and the words say plain HTTP, not a certificate', async (t) => {
  const store = await startStoreFrom(completeStore);
  t.after(() => store.close());
  const err = await runScan(`https://127.0.0.1:${store.port}/`, OPTS).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err instanceof AppError && err.code === 'STORE_UNREACHABLE', String(err));
  const shown = plainError(err, { url: `https://127.0.0.1:${store.port}/` });
  assert.match(shown.detail ?? '', /did not answer over HTTPS: a plain-HTTP server answers this way/);
  assert.doesNotMatch(shown.detail ?? '', /certificate/);
});
