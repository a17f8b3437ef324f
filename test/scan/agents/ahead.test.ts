// The agents matrix's product-page requests go out as soon as the scan's first product-like link has answered, while
// the scan still reads that page, and are the ones reported when it is the product page; when it is not, the page
// that is gets asked as before and the requests sent ahead are counted. The matrix's requests share two kept-alive
// connections, closed when the scan ends. All measured at a loopback store.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runScan } from '../../../scan/index.js';
import { readInline, type BodyReader } from '../../../scan/parser-threads/page-pool.js';
import { startStoreFrom, type FixtureStore } from '../../helpers/fixture-store.js';
import { completeStore, page } from '../../fixtures/stores.js';

const BASE = 'http://localhost:3000';
const JACKET = '/products/trail-runner-jacket';
const MERINO = '/products/merino-base-layer';
const opts = { allowPrivate: true, maxRequests: 20, timeoutMs: 30_000, baseUrl: BASE, agentsMaxRequests: 24 };

const isMatrix = (r: FixtureStore['requests'][number]) => String(r.headers['user-agent']).endsWith(`store-readiness-agents/1.0 (+${BASE}/bot)`);
const matrixAsks = (store: FixtureStore, path: string) => store.requests.filter((r) => r.path === path && isMatrix(r)).length;

describe('the agents matrix asks the product page ahead', () => {
  it("sends the product page's requests while the scan still reads it, and reports them", async (t) => {
    const store = await startStoreFrom(completeStore);
    t.after(() => store.close());
    // The scan's read of the first product page waits until the store has seen an agent ask for it (5 s at most).
    let askedBeforeRead = false;
    const read: BodyReader = async (task) => {
      if (task.kind === 'page' && task.url.endsWith(JACKET)) {
        for (let waited = 0; waited < 5_000 && matrixAsks(store, JACKET) === 0; waited += 10) await new Promise((r) => setTimeout(r, 10));
        askedBeforeRead ||= matrixAsks(store, JACKET) > 0;
      }
      return readInline(task);
    };
    const result = await runScan(store.url, { ...opts, read });
    assert.ok(askedBeforeRead, 'an agent asked the product page before the scan had read it');
    const agents = result.agents!;
    assert.equal(agents.status, 'checked');
    assert.equal(agents.baseline?.product?.url, `${store.origin}${JACKET}`);
    assert.equal(matrixAsks(store, JACKET), 6, '4 user fetchers and 2 crawlers, each once');
    assert.equal(agents.requests, 10, 'unsigned scan: no browser-like twin; 4 × 2 pages and 2 crawlers, nothing asked twice');
    assert.equal(agents.requests, store.requests.filter(isMatrix).length);
    assert.ok(agents.rows.filter((r) => r.kind === 'user_fetcher').every((r) => r.got_page && r.same_facts), JSON.stringify(agents.rows));
  });

  it('a first product-like link that is not a product page: the product page is asked as before, the requests ahead counted', async (t) => {
    const store = await startStoreFrom((origin) => ({ ...completeStore(origin), [JACKET]: page('<title>Size guide</title><h1>Size guide</h1><p>Measure your chest.</p>') }));
    t.after(() => store.close());
    const result = await runScan(store.url, opts);
    const agents = result.agents!;
    assert.equal(agents.baseline?.product?.url, `${store.origin}${MERINO}`);
    assert.equal(matrixAsks(store, JACKET), 6, 'sent ahead for the first link');
    assert.equal(matrixAsks(store, MERINO), 6, 'asked again for the product page');
    assert.equal(agents.requests, 16);
    assert.equal(agents.requests, store.requests.filter(isMatrix).length, 'the report counts what the store saw');
    assert.ok(agents.rows.filter((r) => r.kind === 'user_fetcher').every((r) => r.product?.status === 200 && r.same_facts), JSON.stringify(agents.rows));
  });

  it("the matrix's requests share two connections, none left open when the scan ends", async (t) => {
    const store = await startStoreFrom(completeStore);
    t.after(() => store.close());
    await runScan(store.url, { ...opts, agentsMaxRequests: 0 });
    const withoutMatrix = { connections: store.connections, requests: store.requests.length };
    await runScan(store.url, opts);
    const matrixRequests = store.requests.filter(isMatrix).length;
    assert.ok(matrixRequests >= 10, `${matrixRequests} matrix requests`);
    const scanConnections = store.connections - withoutMatrix.connections;
    const scanOwnRequests = store.requests.length - withoutMatrix.requests - matrixRequests;
    assert.ok(scanConnections <= scanOwnRequests + 2, `${scanConnections} connections for ${scanOwnRequests} requests of the scan and ${matrixRequests} of the matrix`);
    for (let waited = 0; waited < 2_000 && store.openSockets() > 0; waited += 20) await new Promise((r) => setTimeout(r, 20));
    assert.equal(store.openSockets(), 0, 'every connection closed');
  });
});
