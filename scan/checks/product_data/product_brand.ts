// Is the brand given as a Brand/Organization node with a name? A plain string is partial: it is readable but
// ambiguous ("Apple" the brand or a fruit), and Google's merchant listings ask for the node.
import { defineCheck } from '../check.js';
import { quote } from '../evidence.js';
import { aggregatePdps } from '../product-pages.js';

export default defineCheck({
  id: 'product_brand',
  label: 'Brand',
  title: 'Products name their brand',
  failureTitle: 'Name the brand',
  why: 'Shoppers ask agents for brands by name; the brand is also half of the MPN + brand identifier.',
  how: 'Add `"brand": {"@type": "Brand", "name": "…"}` to each Product (your own name for private-label goods).',
  fix: {
    plain: 'Name each product’s brand in the machine-readable product data (your own name for your own goods), because shoppers ask assistants for brands by name.',
    effort: 'a few minutes',
    steps: {
      shopify: 'Fill in the Vendor field of each product; most up-to-date themes publish it as the brand.',
      woocommerce: 'Set the brand of each product (WooCommerce Brands, or your SEO plugin’s brand setting) so it appears in the product data.',
      bigcommerce: 'Set the Brand of each product; Cornerstone-based themes publish it in the product data.',
      custom: 'Add the brand to the product data of your product template, as below.',
    },
    snippet: '"brand": {"@type": "Brand", "name": "Your brand"}',
  },
  run(a) {
    return aggregatePdps(a, ({ product }) => {
      const brand = product?.brand && product.brand.source !== 'html' && product.brand.value.trim() !== '' ? product.brand : null;
      if (!brand) return { status: 'fail', evidence: 'no brand' };
      if (product?.brandIsEntity) return { status: 'pass', evidence: `Brand ${quote(brand.value, 60)} (${brand.source})` };
      return { status: 'partial', evidence: `brand ${quote(brand.value, 60)} is a plain string` };
    });
  },
});
