// A deep audit end to end on loopback: a catalog of 2,000 product pages in four templates, one of which leaves the
// price out of its markup, audited 200 pages deep through the API with the real store, the real crawler and the
// real parser threads. The result has coverage with intervals and one finding for the template without a price;
// the store itself saw one request at a time, never two closer than the rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { startApp, getJson } from '../helpers/start-app.js';
import { proKey, waitForAudit } from '../helpers/audits.js';
import { startCatalogStore } from '../helpers/catalog-store.js';
import { createCrawl } from '../../server/crawl.js';

const DELAY_MS = 60;

test('a deep audit of 200 of 2,000 pages: coverage with intervals, the priceless template as one finding, polite at the store', { timeout: 240_000 }, async (t) => {
  const store = await startCatalogStore({ products: 2000, priceless: 3 });
  t.after(() => store.close());
  const app = await startApp(t, { CRAWL_DELAY_MS: String(DELAY_MS), CRAWL_POLL_MS: '50' });
  const key = await proKey(app);
  const crawl = createCrawl({ config: app.config, db: app.db, log: pino({ level: 'silent' }) });
  t.after(() => crawl.stop());

  const started = await getJson(`${app.url}/api/v1/audits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: store.url, max_pages: 200 }),
  });
  assert.equal(started.status, 202, JSON.stringify(started.body));
  assert.match(started.body.audit_id, /^aud_[A-Za-z0-9_-]{22}$/);
  assert.equal(started.headers.get('location'), `/api/v1/audits/${started.body.audit_id}`);
  assert.equal(started.body.status, 'queued');

  crawl.start();
  let sawProgress = false;
  const audit = await waitForAudit(app, started.body.audit_id, 200_000, (a) => {
    if (a.status === 'running' && a.progress.done > 10 && a.progress.pages_per_minute > 0 && a.progress.seconds_left !== null) sawProgress = true;
  });
  assert.equal(audit.status, 'done', audit.error ?? '');
  assert.ok(sawProgress, 'progress with a pace and the time left while it ran');
  const r = audit.result!;
  assert.deepEqual([r.pages_found, r.pages_audited, r.pages_not_read, r.sampled], [2000, 200, 0, true]);

  // The sample is drawn at random within even stretches of the list: what each template got is read at the store.
  const asked = store.visits.filter((v) => v.path.includes('/item-')).map((v) => v.path);
  const perTemplate = [0, 1, 2, 3].map((k) => asked.filter((p) => p.startsWith(`/t${k}/`)).length);
  assert.ok(perTemplate.every((n) => n >= 30), `every template sampled: ${perTemplate}`);
  const price = r.coverage.find((c) => c.fact === 'price')!;
  const priced = 200 - perTemplate[3];
  assert.deepEqual([price.pages, price.of, price.percent], [priced, 200, priced / 2], JSON.stringify(r.findings));
  assert.ok(price.interval && price.interval.low < price.percent && price.interval.high > price.percent && price.interval.high - price.interval.low < 15, JSON.stringify(price.interval));
  for (const c of r.coverage.filter((x) => x.fact !== 'price' && x.fact !== 'currency')) assert.equal(c.percent, 100, `${c.fact}: ${JSON.stringify(c)}`);

  assert.deepEqual(r.templates.map((tpl) => tpl.pages).sort(), [...perTemplate].sort(), JSON.stringify(r.templates));
  assert.equal(r.findings.length, 1, JSON.stringify(r.findings));
  const [finding] = r.findings;
  assert.deepEqual([finding.url_pattern, finding.pages_failing, finding.of], ['/t3/*', perTemplate[3], perTemplate[3]]);
  const missingPrice = finding.missing.find((m) => m.fact === 'price')!;
  assert.equal(missingPrice.pages_failing, perTemplate[3]);
  assert.match(missingPrice.reason, /no price in the markup/);
  assert.ok(finding.example_urls.every((u) => u.includes('/t3/')));
  assert.equal(r.worst_pages.length, 20);
  assert.ok(r.worst_pages.every((p) => p.missing.includes('price') && p.url.includes('/t3/')));

  // Politeness, measured at the store: one request in flight, never two closer than the rule.
  assert.equal(store.maxInFlight(), 1);
  assert.ok(store.minGapMs() >= DELAY_MS - 2, `closest gap ≥ ${DELAY_MS} ms: ${store.closestPair()}`);
  assert.equal(new Set(asked).size, 200, 'each planned page asked once');
  assert.equal(asked.length, 200);

  const csv = await fetch(audit.csv_url!.replace('http://localhost:3000', app.url));
  assert.equal(csv.status, 200);
  assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
  const lines = (await csv.text()).trim().split('\n');
  assert.equal(lines.length, 201);
  assert.match(lines[0], /^url,status,read,product_page,template,name,name,price,/);
});
