// Is there a sitemaps.org XML sitemap, declared in robots.txt where crawlers look for it? Validity is structural
// (a <urlset> or <sitemapindex> root with <loc> entries); the product URLs inside are discovery_product_urls' job.
import { defineCheck } from '../check.js';
import type { Resource } from '../../artifacts.js';
import { describe } from '../evidence.js';
import { is2xx, responseOf } from '../../documents/resources.js';

function sitemapKind(r: Resource): 'urlset' | 'sitemapindex' | null {
  const res = responseOf(r);
  if (!res || !is2xx(res.status)) return null;
  const head = res.body.slice(0, 200_000).toLowerCase();
  if (!head.includes('<loc')) return null;
  if (head.includes('<urlset')) return 'urlset';
  if (head.includes('<sitemapindex')) return 'sitemapindex';
  return null;
}

export default defineCheck({
  id: 'discovery_sitemap',
  label: 'XML sitemap',
  title: 'An XML sitemap is published and declared in robots.txt',
  failureTitle: 'Publish an XML sitemap and declare it',
  why: 'A sitemap is how crawlers and agents find every product without following links; declaring it in robots.txt is where they look first.',
  how: 'Serve a sitemap (or a sitemap index with a product sitemap) following sitemaps.org — absolute URLs, `lastmod`, ≤50,000 URLs per file — and add `Sitemap: https://your-store/sitemap.xml` to robots.txt.',
  fix: {
    plain: 'Give agents a list of all your product pages, so they find your whole catalogue and not just what the home page links to.',
    effort: 'a few minutes',
    steps: {
      shopify: 'Nothing to do: Shopify publishes /sitemap.xml for you. Check that robots.txt still points to it.',
      woocommerce: 'Turn on the sitemap of WordPress or of your SEO plugin (Yoast: SEO → Settings → XML sitemaps) and check it lists products.',
      bigcommerce: 'Nothing to do: BigCommerce publishes /xmlsitemap.php. Add it to robots.txt if it is missing.',
      custom: 'Generate a sitemap of every product URL and add the line below to robots.txt.',
    },
    snippet: 'Sitemap: https://your-store.example/sitemap.xml',
  },
  run(a) {
    const kind = sitemapKind(a.sitemap);
    const where = describe(a.sitemap);
    const declared = a.robots.sitemaps;
    if (!kind) {
      const note = declared.length > 0 ? ` (declared in robots.txt: ${declared[0]})` : ' (no Sitemap: line in robots.txt)';
      return { status: 'fail', evidence: `No valid sitemap: ${where}${note}.` };
    }
    if (a.sitemapDeclared) return { status: 'pass', evidence: `Declared sitemap ${where} is a valid <${kind}>.` };
    if (declared.length > 0) {
      return { status: 'partial', evidence: `Declared sitemap ${declared[0]} did not work, but ${where} is a valid <${kind}>.` };
    }
    return { status: 'partial', evidence: `${where} is a valid <${kind}>, but robots.txt has no Sitemap: line.` };
  },
});
