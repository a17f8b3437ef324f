// Does the Product expose at least two attributes an agent can filter on (color, size, material, pattern, category,
// additionalProperty, or a ProductGroup's variesBy)? The extractor lists which of them are present.
import { defineCheck } from '../check.js';
import { aggregatePdps } from '../product-pages.js';

export default defineCheck({
  id: 'product_attributes',
  label: 'Attributes agents can filter on',
  title: 'Products expose filterable attributes',
  failureTitle: 'Expose filterable attributes',
  why: 'Shoppers ask agents for "a waterproof jacket in size M"; attributes in the markup are how an agent filters without reading prose.',
  how: 'Add `color`, `size`, `material`, `pattern`, `category` (or `additionalProperty` name/value pairs) and, for variants, a `ProductGroup` with `variesBy`, so agents can answer "waterproof jacket in size M under €200".',
  fix: {
    plain: 'List the details shoppers filter by (colour, size, material) in the machine-readable product data, so agents can answer "a blue jacket in size M".',
    effort: 'about an hour',
    steps: {
      shopify: 'Use product options and category metafields for colour, size and material; a developer or a structured data app adds them to the product data.',
      woocommerce: 'Add them as product attributes (Products → Attributes) and variations; a developer or your SEO plugin adds them to the product data.',
      bigcommerce: 'Use variant options and custom fields for colour, size and material; a developer adds them to the product data in the theme.',
      custom: 'Add color, size, material and category to the product data, as below.',
    },
    snippet: '"color": "Blue", "size": "M", "material": "Recycled polyester", "category": "Clothing > Jackets"',
  },
  run(a) {
    return aggregatePdps(
      a,
      ({ product }) => {
        const attrs = product?.attributes ?? [];
        const list = attrs.length > 0 ? attrs.join(', ') : 'none';
        return attrs.length >= 2 ? { status: 'pass', evidence: `attributes: ${list}` } : { status: 'fail', evidence: `attributes: ${list} (2 needed)` };
      },
      { partial: false },
    );
  },
});
