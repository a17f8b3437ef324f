// Does each Product have a name, at least one absolute image URL and a description of 50+ characters? Values read
// only from visible HTML do not count: this check is about what the markup tells an agent.
import { defineCheck } from '../check.js';
import { quote } from '../evidence.js';
import { aggregatePdps } from '../product-pages.js';

const MIN_DESCRIPTION = 50;

export default defineCheck({
  id: 'product_core_fields',
  label: 'Name, image, description',
  title: 'Products have a name, image and description',
  failureTitle: 'Complete name, image and description',
  why: 'An agent needs a name to match the shopper\'s request, an image to show, and a description to compare products.',
  how: 'Give each Product a `name` matching the page title, at least one absolute `image` URL (several angles help), and a factual `description` of 50+ characters naming material, dimensions and use.',
  fix: {
    plain: 'Give every product a clear name, a photo and a factual description in the machine-readable product data, so agents can match, show and compare it.',
    effort: 'about an hour',
    steps: {
      shopify: 'Fill in the title, images and a description of at least a few sentences for each product; an up-to-date theme puts them in the product data for you.',
      woocommerce: 'Fill in the name, product image and description for each product; WooCommerce puts them in the product data for you.',
      bigcommerce: 'Fill in the name, images and description for each product; Cornerstone-based themes put them in the product data for you.',
      custom: 'Add name, image (full address) and description to the product data of your product template, from the same fields as the visible page.',
    },
  },
  run(a) {
    return aggregatePdps(a, ({ product }) => {
      const name = product?.name && product.name.source !== 'html' && product.name.value.trim() !== '' ? product.name.value.trim() : null;
      if (!name) return { status: 'fail', evidence: 'no product name in the markup' };
      const images = (product?.images?.source !== 'html' ? (product?.images?.value ?? []) : []).filter((u) => /^https?:\/\//i.test(u));
      const description = product?.description && product.description.source !== 'html' ? product.description.value.trim() : '';
      const parts = [`name ${quote(name, 60)}`, `${images.length} image${images.length === 1 ? '' : 's'}`, `description ${description.length} chars`];
      if (images.length > 0 && description.length >= MIN_DESCRIPTION) return { status: 'pass', evidence: parts.join(', ') };
      if (images.length > 0 || description.length > 0) return { status: 'partial', evidence: parts.join(', ') };
      return { status: 'fail', evidence: `${parts.join(', ')}: name only` };
    });
  },
});
