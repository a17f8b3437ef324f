// Does every sampled product page name itself as canonical with an absolute URL on the store's host? Agents cite one
// URL per product; the query string is ignored because variant and tracking parameters are expected to differ.
import { defineCheck } from '../check.js';
import { aggregatePdps } from '../product-pages.js';

function bare(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host.toLowerCase()}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

export default defineCheck({
  id: 'discovery_canonical',
  label: 'Canonical product URLs',
  title: 'Product pages declare themselves canonical',
  failureTitle: 'Add canonical links to product pages',
  why: 'A self-referencing canonical tells agents which URL to cite and deduplicates filtered or tracking variants of the same product.',
  how: 'Emit `<link rel="canonical" href="https://your-store/products/slug">` on each product page, absolute and self-referencing, so agents cite one URL per product instead of filtered or tracking variants.',
  fix: {
    plain: 'Tell agents which address is the real one for each product, so they quote one link instead of filtered or tracking copies.',
    effort: 'a few minutes',
    steps: {
      shopify: 'Most themes already have it; if yours does not, add the line below inside <head> of theme.liquid with {{ canonical_url }} as the address.',
      woocommerce: 'WordPress and SEO plugins add it for you; check that no plugin removes it or points it to another page.',
      bigcommerce: 'Most themes already have it; on an older or custom theme, add the line below to the page head in the theme.',
      custom: 'Add the line below to the head of each product page, with that product’s own full address.',
    },
    snippet: '<link rel="canonical" href="https://your-store.example/products/your-product">',
  },
  run(a) {
    return aggregatePdps(
      a,
      ({ page, url }) => {
        if (!page) return { status: 'fail', evidence: 'page not parsed' };
        const written = page.headLinks.find((l) => l.rel.includes('canonical'))?.href ?? page.canonical;
        if (!written) return { status: 'fail', evidence: 'no rel=canonical' };
        if (!/^https?:\/\//i.test(written.trim())) return { status: 'fail', evidence: `relative canonical "${written.slice(0, 120)}"` };
        const target = bare(written.trim());
        const self = bare(page.url || url);
        if (target === null || self === null) return { status: 'fail', evidence: `unreadable canonical "${written.slice(0, 120)}"` };
        if (target !== self) return { status: 'fail', evidence: `canonical points elsewhere: ${written.slice(0, 160)}` };
        return { status: 'pass', evidence: `canonical ${written.slice(0, 160)}` };
      },
      { partial: false },
    );
  },
});
