// A loopback store with a whole catalog, for deep audits: robots.txt, a sitemap index over sitemaps of 1,000
// product URLs each, and product pages made from four templates (T0–T3: different markup structures, the same
// complete product data), one of which can leave the price out of its markup. It records every request with the
// instants it started and ended, so tests measure politeness where a store would: requests in flight at once and
// the gap between one answer and the next request.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface CatalogOptions {
  products: number;
  /** The template (0–3) whose markup has no price; none when unset. */
  priceless?: number;
  crawlDelaySeconds?: number;
  /** Answer this many product requests with 429 and this Retry-After (seconds) before serving. */
  throttle?: { times: number; retryAfter: number };
}

export interface Visit {
  path: string;
  start: number; // performance.now() when the request arrived
  end: number; // just before the answer was written
  headers: IncomingMessage['headers']; // as sent, for signatures checked at the store
}

export interface CatalogStore {
  origin: string;
  url: string;
  visits: Visit[];
  /** Most requests in flight at one instant. */
  maxInFlight(): number;
  /** The smallest gap between an answer's end and the next request's start (ms); Infinity with under two visits. */
  minGapMs(): number;
  /** The two visits around the smallest gap, for a failure message. */
  closestPair(): string;
  productPath(i: number): string;
  close(): Promise<void>;
}

/** A valid GTIN-13 for a number (check digit computed). */
export function gtin13(n: number): string {
  const body = `400${String(n).padStart(9, '0')}`;
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}

const TEMPLATES = [
  (inner: Inner) => `<main class="pdp classic"><div class="gallery"><img src="${inner.image}" alt=""></div><section class="info"><h1 class="title">${inner.name}</h1><p class="price">€19.99</p><form class="cart"><button type="submit">Add to cart</button></form></section></main>`,
  (inner: Inner) => `<div id="app" class="product-page modern"><header class="top"><nav class="crumbs"><a href="/">Home</a><span>/</span><a href="/t1/">Gear</a></nav></header><article class="product"><h1>${inner.name}</h1><div class="buy-box"><span class="amount">€19.99</span><div class="actions"><button class="btn primary">Add to cart</button><button class="btn wish">Wishlist</button></div></div><ul class="specs"><li class="spec">Cotton</li><li class="spec">Blue</li><li class="spec">Large</li></ul></article></div>`,
  (inner: Inner) => `<table class="layout"><tr><td class="left"><img class="photo" src="${inner.image}" alt=""></td><td class="right"><h1>${inner.name}</h1><table class="details"><tr><th>Price</th><td class="cost">€19.99</td></tr><tr><th>Stock</th><td>In stock</td></tr></table><input type="submit" value="Add to cart"></td></tr></table>`,
  (inner: Inner) => `<section class="hero wide"><figure class="media"><picture><source srcset="${inner.image}"><img src="${inner.image}" alt=""></picture><figcaption>${inner.name}</figcaption></figure></section><section class="detail narrow"><h1>${inner.name}</h1><dl class="facts"><dt>Price</dt><dd class="value">€19.99</dd><dt>Brand</dt><dd>Acme</dd></dl><p><a class="buy button" href="/t3/buy">Add to cart</a></p></section><aside class="reviews"><ol><li>Good</li><li>Fine</li></ol></aside>`,
];

type Answer = [status: number, headers: Record<string, string>, body: string];

interface Inner {
  name: string;
  image: string;
}

function productPage(origin: string, i: number, priceless: number | undefined): string {
  const t = i % 4;
  const name = `Catalog item ${i}`;
  const image = `${origin}/img/${i}.jpg`;
  const offer = t === priceless
    ? { '@type': 'Offer', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' }
    : { '@type': 'Offer', price: '19.99', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' };
  const ld = { '@context': 'https://schema.org', '@type': 'Product', name, image: [image], description: `A sturdy catalog item number ${i}, made of cotton, for everyday use.`, brand: { '@type': 'Brand', name: 'Acme' }, gtin13: gtin13(i), mpn: `ACM-${i}`, sku: `SKU-${i}`, offers: offer };
  return `<!doctype html><html lang="en"><head><title>${name}</title><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body class="template-${t}">${TEMPLATES[t]({ name, image })}</body></html>`;
}

export async function startCatalogStore(opts: CatalogOptions): Promise<CatalogStore> {
  const visits: Visit[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let throttled = 0;
  let origin = '';
  const productPath = (i: number) => `/t${i % 4}/item-${i}`;
  const perSitemap = 1000;
  const sitemaps = Math.ceil(opts.products / perSitemap);
  const xml = { 'content-type': 'application/xml' };

  // Every answer is made whole before a byte is written, so the server can date its end as it hands it over.
  const answer = (req: IncomingMessage): Answer => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/robots.txt') {
      const delay = opts.crawlDelaySeconds === undefined ? '' : `Crawl-delay: ${opts.crawlDelaySeconds}\n`;
      return [200, { 'content-type': 'text/plain' }, `User-agent: *\n${delay}Disallow: /cart\n\nSitemap: ${origin}/sitemap.xml\n`];
    } else if (path === '/sitemap.xml') {
      const children = Array.from({ length: sitemaps }, (_, k) => `<sitemap><loc>${origin}/sitemap-products-${k + 1}.xml</loc></sitemap>`).join('');
      return [200, xml, `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children}</sitemapindex>`];
    } else if (/^\/sitemap-products-\d+\.xml$/.test(path)) {
      const k = Number(/\d+/.exec(path)![0]) - 1;
      const urls = [];
      for (let i = k * perSitemap; i < Math.min(opts.products, (k + 1) * perSitemap); i++) urls.push(`<url><loc>${origin}${productPath(i)}</loc></url>`);
      return [200, xml, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`];
    } else if (/^\/t\d\/item-\d+$/.test(path)) {
      if (opts.throttle && throttled < opts.throttle.times) {
        throttled++;
        return [429, { 'retry-after': String(opts.throttle.retryAfter) }, 'slow down'];
      }
      return [200, { 'content-type': 'text/html; charset=utf-8' }, productPage(origin, Number(/\d+$/.exec(path)![0]), opts.priceless)];
    }
    return [404, {}, 'not found'];
  };

  const server: Server = createServer((req, res) => {
    const visit: Visit = { path: req.url ?? '/', start: performance.now(), end: Infinity, headers: req.headers };
    visits.push(visit);
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    const [status, headers, body] = answer(req);
    // The end is dated just before the answer is handed to the socket, in one synchronous step. Read after the write
    // (or at 'close'), the clock would include however long this process waited for a CPU meanwhile, while the client
    // already had the answer: on a loaded machine, gaps shorter than any the store could have seen.
    inFlight--;
    visit.end = performance.now();
    res.writeHead(status, headers).end(body);
  });
  const closest = () => {
    const sorted = [...visits].sort((a, b) => a.start - b.start);
    let best = { gap: Infinity, i: -1, sorted };
    for (let i = 1; i < sorted.length; i++) if (sorted[i].start - sorted[i - 1].end < best.gap) best = { gap: sorted[i].start - sorted[i - 1].end, i, sorted };
    return best;
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}/`,
    visits,
    maxInFlight: () => maxInFlight,
    minGapMs: () => closest().gap,
    closestPair() {
      const { gap, i, sorted } = closest();
      return i < 1 ? 'none' : `${gap.toFixed(1)} ms between ${JSON.stringify(sorted[i - 1])} and ${JSON.stringify(sorted[i])}`;
    },
    productPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
