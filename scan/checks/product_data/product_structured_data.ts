// Does every sampled product page carry a parseable JSON-LD Product (or ProductGroup)? Microdata/RDFa, or broken
// JSON-LD with only og:type=product, earn the partial grade: JSON-LD is what most agents parse first.
import { defineCheck } from '../check.js';
import { aggregatePdps } from '../product-pages.js';

export default defineCheck({
  id: 'product_structured_data',
  label: 'Product structured data',
  title: 'Product pages carry Product JSON-LD',
  failureTitle: 'Add Product JSON-LD to every product page',
  why: 'Agents read price, stock and identifiers from Product structured data; without it they guess from page text or skip the product.',
  how: 'Emit a `<script type="application/ld+json">` block with `"@type": "Product"` (or `ProductGroup` with `hasVariant` for variants) in the server-rendered HTML. Microdata works for Google but JSON-LD is what most agents parse first; make sure the block is valid JSON (no trailing commas).',
  fix: {
    plain: 'Describe each product in a form machines read (name, price, stock), so an agent does not have to guess from your page design.',
    effort: 'about an hour',
    steps: {
      shopify: 'Most current themes include it: switch to an up-to-date theme (Dawn or newer), or add a product structured data app.',
      woocommerce: 'WooCommerce adds it on product pages; make sure no plugin or theme removes it, or let your SEO plugin (Yoast, Rank Math) output it.',
      bigcommerce: 'Cornerstone-based themes include it; on an older or custom theme, add it to the product template.',
      custom: 'Add a JSON-LD Product block to your product page template, filled from the same data as the visible price and stock.',
    },
  },
  run(a) {
    return aggregatePdps(a, ({ product, page }) => {
      const markup = product?.markup ?? 'none';
      const invalid = page?.jsonLd.invalidBlocks ?? 0;
      const broken = invalid > 0 ? `, ${invalid} unparseable JSON-LD block${invalid > 1 ? 's' : ''}` : '';
      if (markup === 'json-ld') return { status: 'pass', evidence: `JSON-LD ${product?.product?.types.join('/') || 'Product'}` };
      if (markup === 'microdata' || markup === 'rdfa') return { status: 'partial', evidence: `Product only as ${markup}${broken}` };
      if (markup === 'opengraph' && invalid > 0) return { status: 'partial', evidence: `only og:type=product${broken}` };
      if (markup === 'opengraph') return { status: 'fail', evidence: 'only og:type=product, no Product entity' };
      if (product) return { status: 'fail', evidence: `product page without markup: no JSON-LD, microdata or RDFa Product${broken}; agents read it from the visible text only` };
      return { status: 'fail', evidence: `no Product entity${broken}` };
    });
  },
});
