// Compression through the real app: a real scan's report as HTML, JSON and Markdown comes gzip- or
// brotli-encoded when the client accepts it (and decodes to the same bytes as the plain answer), plain when it
// does not; tiny and binary answers stay as they are. The sizes of the report page are printed.
import '../support/loopback-guard.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startApp } from '../helpers/start-app.js';
import { startCompleteStore } from '../fixtures/stores.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET that leaves the body as sent (fetch would decode it). */
function rawGet(url: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

test('HTML, JSON and Markdown are compressed when the client accepts it, and only then', { timeout: 60_000 }, async (t) => {
  const shop = await startCompleteStore(t);
  const app = await startApp(t);
  const scan = (await (await fetch(`${app.url}/api/v1/scan?url=${encodeURIComponent(shop.url)}`)).json()) as { scan_id: number };
  const id = scan.scan_id;

  const cases: [string, Record<string, string>, RegExp][] = [
    [`/r/${id}`, {}, /^text\/html/],
    [`/api/v1/scan/${id}.json`, {}, /^application\/json/],
    [`/r/${id}`, { accept: 'text/markdown' }, /^text\/markdown/],
    ['/', {}, /^text\/html/],
    ['/index', {}, /^text\/html/],
  ];
  for (const [path, headers, type] of cases) {
    const plain = await rawGet(`${app.url}${path}`, headers);
    assert.equal(plain.status, 200, path);
    assert.match(String(plain.headers['content-type']), type);
    assert.equal(plain.headers['content-encoding'], undefined, `${path}: not compressed without Accept-Encoding`);
    assert.match(String(plain.headers.vary), /Accept-Encoding/, `${path}: a cache keeps the plain copy apart`);

    const gzip = await rawGet(`${app.url}${path}`, { ...headers, 'accept-encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip', path);
    assert.match(String(gzip.headers.vary), /Accept-Encoding/);
    const unzipped = gunzipSync(gzip.body);
    assert.ok(gzip.body.length < unzipped.length, `${path}: ${gzip.body.length} bytes gzip for ${unzipped.length}`);
    // The home page names the signed-in account and the index moves: compare the report only byte for byte.
    if (path.startsWith('/r/') || path.startsWith('/api/')) assert.deepEqual(unzipped, plain.body, `${path}: the same bytes`);

    const brotli = await rawGet(`${app.url}${path}`, { ...headers, 'accept-encoding': 'br' });
    assert.equal(brotli.headers['content-encoding'], 'br', path);
    assert.ok(brotliDecompressSync(brotli.body).length > brotli.body.length);
    if (path === `/r/${id}` && !headers.accept) {
      assert.ok(gzip.body.length * 3 < plain.body.length, 'the report page shrinks to under a third');
      console.log(`report page: ${plain.body.length} bytes plain, ${gzip.body.length} gzip, ${brotli.body.length} brotli`);
    }
  }

  // Small answers are not worth it; images are already what they are.
  const health = await rawGet(`${app.url}/healthz`, { 'accept-encoding': 'gzip' });
  assert.equal(health.headers['content-encoding'], undefined);
  const icon = await rawGet(`${app.url}/assets/favicon.svg`, { 'accept-encoding': 'gzip' });
  assert.equal(icon.headers['content-encoding'], undefined);
});
