// Does the Product expose at least two attributes an agent can filter on (color, size, material, pattern, category,
// additionalProperty, or a ProductGroup's variesBy)? The extractor lists which of them are present.
import { defineCheck } from '../../check.js';
import { aggregatePdps } from '../product-pages.js';

export default defineCheck({
  id: 'product_attributes',
  pillar: 'product_data',
  order: 9,
  points: 1,
  partialPoints: 0,
  label: 'Attributes agents can filter on',
  title: 'Products expose filterable attributes',
  failureTitle: 'Expose filterable attributes',
  why: 'Shoppers ask agents for "a waterproof jacket in size M"; attributes in the markup are how an agent filters without reading prose.',
  how: 'Add `color`, `size`, `material`, `pattern`, `category` (or `additionalProperty` name/value pairs) and, for variants, a `ProductGroup` with `variesBy`, so agents can answer "waterproof jacket in size M under €200".',
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
