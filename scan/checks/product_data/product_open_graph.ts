// Do product pages carry OpenGraph product tags (og:type product, a price with currency, og:image)? Many link
// fetchers and lightweight agents read these head tags before, or instead of, JSON-LD.
import { defineCheck } from '../check.js';
import { aggregatePdps } from '../product-pages.js';

function meta(m: Record<string, string[]>, key: string): string | null {
  return m[key]?.find((v) => v.trim() !== '')?.trim() ?? null;
}

export default defineCheck({
  id: 'product_open_graph',
  label: 'OpenGraph product tags',
  title: 'Product pages carry OpenGraph product tags',
  failureTitle: 'Add OpenGraph product tags',
  why: 'Link previews and many agent fetchers read OpenGraph tags in the <head> first; a product type with price and image gives them the essentials cheaply.',
  how: 'In the `<head>` of product pages set `og:type` to `product`, `og:title`, `og:image`, `og:url`, `product:price:amount`, `product:price:currency` and `product:availability`; many fetchers read these before JSON-LD.',
  fix: {
    plain: 'Add the small set of share tags (title, image, price) that link previews and many assistants read first from every product page.',
    effort: 'a few minutes',
    steps: {
      shopify: 'Most themes add them for you; if yours does not, a developer adds the tags below to the head of theme.liquid for product pages.',
      woocommerce: 'Yoast and Rank Math add them; the price tags may need their WooCommerce add-on or a few lines from a developer.',
      bigcommerce: 'Most themes add them for you; on an older or custom theme, add the tags below to the page head of the product template.',
      custom: 'Add the tags below to the head of each product page, with that product’s values.',
    },
    snippet: '<meta property="og:type" content="product">\n<meta property="og:title" content="Your product">\n<meta property="og:image" content="https://your-store.example/images/your-product.jpg">\n<meta property="og:url" content="https://your-store.example/products/your-product">\n<meta property="product:price:amount" content="189.00">\n<meta property="product:price:currency" content="EUR">\n<meta property="product:availability" content="in stock">',
  },
  run(a) {
    return aggregatePdps(
      a,
      ({ page }) => {
        if (!page) return { status: 'fail', evidence: 'page not parsed' };
        const type = (meta(page.meta, 'og:type') ?? '').toLowerCase();
        // Facebook's catalogue types (product.item, product.group) are products too.
        const isProduct = type === 'product' || type === 'og:product' || type.startsWith('product.');
        const amount = meta(page.meta, 'product:price:amount') ?? meta(page.meta, 'og:price:amount');
        const currency = meta(page.meta, 'product:price:currency') ?? meta(page.meta, 'og:price:currency');
        const image = meta(page.meta, 'og:image');
        const missing: string[] = [];
        if (!isProduct) missing.push(type ? `og:type is "${type.slice(0, 40)}"` : 'no og:type');
        if (!amount || !currency) missing.push('no product:price:amount/currency');
        if (!image) missing.push('no og:image');
        if (missing.length > 0) return { status: 'fail', evidence: missing.join(', ') };
        return { status: 'pass', evidence: `og:type ${type}, price ${amount} ${currency}, og:image` };
      },
      { partial: false },
    );
  },
});
