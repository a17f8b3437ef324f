// Can an agent reach product pages from raw HTML and sitemaps, without running JavaScript? Pass needs product URLs in
// the sitemap and a sampled one that really is a product page (2xx with Product markup or og:type=product).
import { defineCheck } from '../check.js';
import { describe } from '../evidence.js';
import { is2xx, statusOf } from '../../documents/resources.js';

export default defineCheck({
  id: 'discovery_product_urls',
  label: 'Product pages discoverable without JS',
  title: 'Product pages are listed in the sitemap and linked in the HTML',
  failureTitle: 'List product pages where agents can find them',
  why: 'Agents do not run your scripts; product pages that are only reachable through client-side navigation or search never get read.',
  how: 'Put every product detail URL in a product sitemap (e.g. `sitemap_products_1.xml`) and link products from the homepage or collection pages with plain `<a href>` links rendered in the HTML, not only through JavaScript.',
  fix: {
    plain: 'Make every product reachable through ordinary links and your sitemap, because agents do not run the scripts that build your menus or search results.',
    effort: 'about an hour',
    steps: {
      shopify: 'Shopify lists products in its sitemap for you; also link collections and products from the home page and menus, not only through a script-driven search or carousel.',
      woocommerce: 'Make sure your sitemap (WordPress’s or your SEO plugin’s) includes products, and link categories and products from menus and the shop page.',
      bigcommerce: 'BigCommerce lists products in its sitemap for you; also link categories and products from the home page and menus.',
      custom: 'List every product address in a product sitemap, and render links to products as plain links in the page’s HTML, not only through JavaScript.',
    },
  },
  run(a) {
    const fromSitemap = a.productUrlsFromSitemap.length;
    const fromHome = a.productUrlsFromHome.length;
    const self = a.pdps.some((p) => p.foundVia === 'self');
    const counts = `${fromSitemap} product URL${fromSitemap === 1 ? '' : 's'} in the sitemap, ${fromHome} linked from the homepage`;
    if (fromSitemap === 0 && fromHome === 0 && !self && a.pdps.length === 0) {
      return { status: 'fail', evidence: `No product URL found (${counts}).` };
    }
    const confirmed = a.pdps.find((p) => is2xx(statusOf(p.resource)) && p.product !== null && p.product.markup !== 'none');
    const sample = a.pdps.map((p) => describe(p.resource)).join(', ') || 'no page sampled';
    if (!confirmed) {
      return { status: 'partial', evidence: `${counts}${self ? ' (the homepage is the product page)' : ''}, but no sampled page carries Product markup (${sample}).` };
    }
    const url = confirmed.page?.url ?? confirmed.product?.url ?? '';
    if (fromSitemap >= 2) return { status: 'pass', evidence: `${counts}; ${url} has ${confirmed.product?.markup} Product markup.` };
    return {
      status: 'partial',
      evidence: `${counts}${self ? ' (the homepage is the product page)' : ''}: fewer than 2 product pages are listed in a sitemap; ${url} has ${confirmed.product?.markup} Product markup.`,
    };
  },
});
