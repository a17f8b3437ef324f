// Sample bodies each page-pool thread reads once as it starts (scan/parser-threads/page-worker.ts), so every parser module is
// loaded and every pattern compiled before a thread takes a store's page: the first scan after start, and a scan
// on a thread that replaced one, then run as fast as any other. One page with product markup (the extraction
// path), one without (recognition from visible text: price, stock wording, a buy button) and a sitemap.
import type { BodyTask } from './page-work.js';

const MARKUP_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Linen Shirt – Sample Shop</title>
<meta name="description" content="A linen shirt."><link rel="canonical" href="https://shop.example/products/linen-shirt">
<meta property="og:type" content="product"><meta property="product:price:amount" content="49.00">
<meta property="product:price:currency" content="EUR"><meta property="product:availability" content="in stock">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Linen Shirt",
"sku":"LS-1","gtin13":"4006381333931","brand":{"@type":"Brand","name":"Sample"},"image":"https://shop.example/a.jpg",
"offers":{"@type":"Offer","price":"49.00","priceCurrency":"EUR","availability":"https://schema.org/InStock",
"url":"https://shop.example/products/linen-shirt"},"aggregateRating":{"@type":"AggregateRating","ratingValue":"4.5","reviewCount":"12"}}</script>
</head><body><nav><a href="/collections/all">Shop</a> <a href="/policies/shipping-policy">Shipping</a></nav>
<main><h1>Linen Shirt</h1><p class="price">€49,00 <s>$59.99</s> 1.299,00 kr</p><p>In stock – ships in 2-3 days.
Auf Lager. En stock. Disponible. Op voorraad. 在庫あり. 有货. Nur noch 2 Stück. Sold out in blue.</p>
<form action="/cart/add" method="post"><select name="size"><option>M</option></select>
<button type="submit" name="add">Add to cart</button></form><p>Colour: Blue · Material: Linen · GTIN 4006381333931</p>
</main><footer><a href="/pages/contact">Contact</a> <a href="/policies/refund-policy">Returns</a></footer></body></html>`;

const PLAIN_PAGE = MARKUP_PAGE.replace(/<script type="application\/ld\+json">[\s\S]*?<\/script>/, '').replace(/<meta property="(og|product):[^>]*>/g, '');

const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://shop.example/products/linen-shirt</loc><lastmod>2026-01-01</lastmod></url></urlset>`;

export const WARM_UP_TASKS: readonly BodyTask[] = [
  { kind: 'page', html: MARKUP_PAGE, url: 'https://shop.example/products/linen-shirt', opts: { status: 200 }, recognise: true },
  { kind: 'page', html: PLAIN_PAGE, url: 'https://shop.example/products/linen-shirt-2', opts: { status: 200 }, recognise: true },
  { kind: 'page', html: MARKUP_PAGE, url: 'https://shop.example/', opts: { status: 200 }, recognise: false },
  { kind: 'sitemap', xml: SITEMAP },
];
