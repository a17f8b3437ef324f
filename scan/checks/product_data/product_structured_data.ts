// Does every sampled product page carry a parseable JSON-LD Product (or ProductGroup)? Microdata/RDFa, or broken
// JSON-LD with only og:type=product, earn the partial grade: JSON-LD is what most agents parse first.
import { defineCheck } from '../../check.js';
import { aggregatePdps } from '../product-pages.js';

export default defineCheck({
  id: 'product_structured_data',
  pillar: 'product_data',
  order: 1,
  points: 5,
  partialPoints: 2,
  label: 'Product structured data',
  title: 'Product pages carry Product JSON-LD',
  failureTitle: 'Add Product JSON-LD to every product page',
  why: 'Agents read price, stock and identifiers from Product structured data; without it they guess from page text or skip the product.',
  how: 'Emit a `<script type="application/ld+json">` block with `"@type": "Product"` (or `ProductGroup` with `hasVariant` for variants) in the server-rendered HTML. Microdata works for Google but JSON-LD is what most agents parse first; make sure the block is valid JSON (no trailing commas).',
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
