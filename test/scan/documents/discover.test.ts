// scan/documents/discover.ts: the PDP URL patterns of docs/checks.md §2, the politeness filter, candidate order from
// the homepage, product URLs from sitemaps, and platform detection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cleanCandidates,
  detectPlatform,
  isForbiddenPath,
  looksLikeProductUrl,
  otherLinksFromHome,
  productUrlsFromHome,
  productUrlsFromSitemap,
} from '../../../scan/documents/discover.js';
import { parsePage } from '../../../scan/documents/html.js';
import { htmlPage, jsonLd } from '../../fixtures/stores.js';

test('PDP URL patterns of §2', () => {
  const yes = [
    'https://s.test/products/trail-jacket',
    'https://s.test/product/trail-jacket',
    'https://s.test/collections/men/products/trail-jacket',
    'https://s.test/p/12345',
    'https://s.test/item/abc',
    'https://s.test/items/abc',
    'https://s.test/Trail-Jacket/dp/B00X4WHP5E',
    'https://s.test/trail-jacket-p-1234',
    'https://s.test/trail-jacket-p-1234.html',
    'https://s.test/catalog/trail-jacket-123456.html',
    'https://s.test/itm/302474151804',
    'https://s.test/Prod/144432/',
    'https://s.test/origins-moisturiser-spf-40/p3182808',
    'https://s.test/Tommy-Jeans-OFLEKI-x3410048.php',
    'https://s.test/index.php?route=product/product&product_id=42',
    'https://s.test/store/122725?pid=260591',
    'https://s.test/deal/4548094738',
    'https://s.test/brassiere-noir_P496380C496379',
  ];
  const no = [
    'https://s.test/',
    'https://s.test/products/',
    'https://s.test/products',
    'https://s.test/collections/men',
    'https://s.test/pages/about',
    'https://s.test/blog/why-products-matter',
    'https://s.test/about.html',
    'https://s.test/search?q=/products/x',
    'https://s.test/blog/2024/05/our-story',
    'https://s.test/pages/contact?ref=footer',
  ];
  for (const u of yes) assert.equal(looksLikeProductUrl(u), true, u);
  for (const u of no) assert.equal(looksLikeProductUrl(u), false, u);
});

test('cart, checkout and account paths are never requested (§1.6)', () => {
  const forbidden = [
    'https://s.test/cart',
    'https://s.test/cart/add',
    'https://s.test/en/cart',
    'https://s.test/checkout',
    'https://s.test/checkouts/c/123',
    'https://s.test/account',
    'https://s.test/account/login',
    'https://s.test/my-account/',
    'https://s.test/customer/account/',
    'https://s.test/basket',
    'https://s.test/cart.php',
    'https://s.test/products/a?add-to-cart=12',
    'https://s.test/%63art',
    'not a url',
  ];
  const allowed = ['https://s.test/products/cart-organizer', 'https://s.test/products/account-book', 'https://s.test/', 'https://s.test/p/checkout-stand'];
  for (const u of forbidden) assert.equal(isForbiddenPath(u), true, u);
  for (const u of allowed) assert.equal(isForbiddenPath(u), false, u);
});

test('homepage candidates: JSON-LD Product/ItemList URLs first, then matching links; same store only', () => {
  const origin = 'https://shop.test';
  const html = htmlPage({
    title: 'Home',
    head: jsonLd({
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, url: `${origin}/catalog/featured-one` },
        { '@type': 'ListItem', position: 2, item: { '@type': 'Product', name: 'Two', url: `${origin}/catalog/featured-two` } },
      ],
    }),
    body: `
      <a href="/products/linked-one">One</a>
      <a href="/products/linked-one#reviews">One again</a>
      <a href="https://www.shop.test/p/linked-two">Two</a>
      <a href="https://other.test/products/elsewhere">Elsewhere</a>
      <a href="/cart/add?id=1">Add</a>
      <a href="javascript:alert(1)">Bad</a>
      <a href="/pages/about">About</a>`,
  });
  const page = parsePage(html, `${origin}/`);
  assert.deepEqual(productUrlsFromHome(page, new URL(`${origin}/`)), [
    `${origin}/catalog/featured-one`,
    `${origin}/catalog/featured-two`,
    `${origin}/products/linked-one`,
    'https://www.shop.test/p/linked-two',
  ]);
});

test('cleanCandidates resolves, filters and de-duplicates, never returning the homepage', () => {
  const store = new URL('http://127.0.0.1:4000/');
  assert.deepEqual(
    cleanCandidates(['/', '/products/a', 'http://127.0.0.1:4000/products/a#x', 'http://127.0.0.1:4001/products/b', '/checkout'], store, store),
    ['http://127.0.0.1:4000/products/a'],
  );
});

test('other homepage links, most product-like first, when none looks like a product URL', () => {
  const home = parsePage(
    `<a href="/about">About</a><a href="/blog/new-season">Blog</a><a href="/cart">Cart</a><a href="/terms">Terms</a>
     <a href="/mens/jackets/trail-runner-jacket-blue-10293">Jacket</a><a href="/mens">Men</a><a href="https://other.test/x-1234">Elsewhere</a>
     <a href="/logo.png">Logo</a>`,
    'https://s.test/',
  );
  assert.deepEqual(otherLinksFromHome(home, new URL('https://s.test/')), ['https://s.test/mens/jackets/trail-runner-jacket-blue-10293', 'https://s.test/mens']);
  assert.deepEqual(otherLinksFromHome(parsePage('<a href="/contact">Contact</a>', 'https://s.test/'), new URL('https://s.test/')), []);
});

test('product URLs from a sitemap: by pattern, or every page of a product sitemap', () => {
  const pages = ['https://s.test/', 'https://s.test/products/a', 'https://s.test/pages/about'];
  assert.deepEqual(productUrlsFromSitemap(pages, 'https://s.test/sitemap.xml'), ['https://s.test/products/a']);
  const slugs = ['https://s.test/', 'https://s.test/trail-jacket', 'https://s.test/merino-top', 'https://s.test/cart'];
  assert.deepEqual(productUrlsFromSitemap(slugs, 'https://s.test/sitemap_products_1.xml'), ['https://s.test/trail-jacket', 'https://s.test/merino-top']);
  assert.deepEqual(productUrlsFromSitemap(slugs, 'https://s.test/sitemap_pages_1.xml'), []);
});

test('platform detection from homepage HTML and headers', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['<link href="//cdn.shopify.com/s/files/1/theme.css">', {}, 'shopify'],
    ['<script>Shopify.theme = {"name":"Dawn"};</script>', {}, 'shopify'],
    ['<p>hi</p>', { 'x-shopid': '123' }, 'shopify'],
    ['<link href="/wp-content/plugins/woocommerce/assets/css/woocommerce.css">', {}, 'woocommerce'],
    ['<body class="home woocommerce-page woocommerce">', {}, 'woocommerce'],
    ['<script src="https://cdn11.bigcommerce.com/s-abc/stencil/1.0/theme.js"></script>', {}, 'bigcommerce'],
    ['<script type="text/x-magento-init">{"*": {"mage/cookies": {}}}</script>', {}, 'magento'],
    ['<div data-mage-init=\'{"Magento_Ui/js/core/app": {}}\'></div>', {}, 'magento'],
    ['<p>We sell stencils and image sets.</p>', {}, 'other'],
    // Visible prose about a platform is not the platform.
    ['<body class="home"><p>Why we moved from WooCommerce to our own shop; see wp-content/plugins/woocommerce/ and Shopify.theme.</p>', {}, 'other'],
    ['<a href="https://woocommerce.com/">WooCommerce</a> vs <a href="https://www.shopify.com/">Shopify</a>', {}, 'other'],
    ['<script>var wc_add_to_cart_params = {"ajax_url":"/wp-admin/admin-ajax.php"};</script>', {}, 'woocommerce'],
    ['<meta name="generator" content="WooCommerce 8.2.1">', {}, 'woocommerce'],
    ['', {}, 'other'],
  ];
  for (const [html, headers, expected] of cases) assert.equal(detectPlatform(html, headers), expected, html);
});
