// The item's own price and stock, not another's: an out-of-stock offer is no price to pay, the markup's amount yields
// to the buy box only where the page says what that amount is, prices split across elements or ranges read whole,
// and stock wording about a picture, a shop's shelf or a hidden notice says nothing about the item. Each case is a
// run of text or markup from a page of the shared corpus (product-extraction-benchmark, MIT, © 2021 Zyte; file named
// at each case), cut where shown with "…"; written cases say so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage } from '../../../scan/documents/html.js';
import { extractProduct } from '../../../scan/products/product.js';
import { agreeingStatus } from '../../../scan/products/availability.js';
import { buyBoxAvailability, productStatements } from '../../../scan/products/buy-box.js';
import { choosePrice } from '../../../scan/products/price-choice.js';
import { priceMentions, sellingPrice } from '../../../scan/products/price.js';
import consistency from '../../../scan/checks/product_data/product_data_consistency.js';
import productPrice from '../../../scan/checks/product_data/product_price.js';
import { makeArtifacts, makePdp } from '../../helpers/artifacts.js';
import { assertLinear } from '../../helpers/timing.js';

const URL = 'https://shop.example/p/lace-up-ankle-boots-graphit';

function pageWith(head: string, body: string, title = 'Lace-up ankle boots') {
  return parsePage(`<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body><h1>${title}</h1>${body}</body></html>`, URL);
}

const ld = (offers: object[]) =>
  `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Lace-up ankle boots', offers })}</script>`;

test('of several offers the price is the lowest one a buyer can take now, not an out-of-stock size', () => {
  // peb-c3ed0221b7d1.html (zalando.ie): one offer per size; the cheapest size is sold out, the page says "From €70.50".
  const offers = [
    { '@type': 'Offer', availability: 'http://schema.org/OutOfStock', price: '62.95', priceCurrency: 'EUR' },
    { '@type': 'Offer', availability: 'http://schema.org/InStock', price: '70.5', priceCurrency: 'EUR' },
    { '@type': 'Offer', availability: 'http://schema.org/InStock', price: '80.5', priceCurrency: 'EUR' },
  ];
  assert.equal(extractProduct(pageWith(ld(offers), '<p>From €70.50</p>'))?.price?.value, 70.5);
  // Every offer sold out: the lowest is still the item's price.
  const gone = offers.map((o) => ({ ...o, availability: 'http://schema.org/OutOfStock' }));
  assert.equal(extractProduct(pageWith(ld(gone), ''))?.price?.value, 62.95);
});

test('a discount printed between the regular and the sale price still pairs them', () => {
  // peb-89d10150b9d1.html (elkor.lv)
  assert.deepEqual(sellingPrice('Soma MONNALISA Rosso\nEUR219.99 -50%\nEUR110.00\nPieejamība: 1 gab'), {
    value: 110,
    text: 'EUR110.00',
    currency: 'EUR',
    regular: 219.99,
  });
});

test('the markup\'s amount yields to the buy box only where the page says what that amount is', () => {
  // peb-89d10150b9d1.html: the microdata gives the crossed-out 219.99; the buy box sells at 110.
  const elkor = pageWith(
    '<div itemscope itemtype="http://schema.org/Product"><meta itemprop="name" content="Lace-up ankle boots"><div itemprop="offers" itemscope itemtype="http://schema.org/Offer"><meta itemprop="priceCurrency" content="EUR"><meta itemprop="price" content="219.99"></div></div>',
    '<p>EUR219.99 -50%</p><p>EUR110.00</p><button>Add to cart</button>',
  );
  const product = extractProduct(elkor);
  assert.deepEqual(product?.price, { value: 110, source: 'html' });
  assert.equal(product?.markupPrice?.value, 219.99);
  assert.equal(product?.markupPrice?.read, 'page');
  // The checks judge the markup: its price is there, and it disagrees with the page.
  const artifacts = makeArtifacts({ pdps: [makePdp(elkor, product ?? {})] });
  assert.match(productPrice.run(artifacts).evidence, /price 219\.99 \(microdata\)/);
  assert.match(consistency.run(artifacts).evidence, /the page shows the markup's 219\.99 as the crossed-out price beside a discount and sells at EUR110\.00/);

  // peb-9d939d48bcf7.html (liveauctioneers.com): the JSON-LD price is the starting price; the current bid is $400.
  const auction = 'Vintage Chanel Double Flap Leather Bag\nEstimate $600 - $1,600\n10d\n$400 5 bids\nStarting Price $90\nYour Maximum Bid: Secure\n$500\nPlace Bid';
  const mentions = priceMentions(auction, new Set(['USD']), true);
  assert.deepEqual(mentions.map((m) => m.role), ['other', 'other', 'selling', 'other', 'selling']);
  const bid = sellingPrice(auction, new Set(['USD']));
  assert.equal(bid?.value, 400);
  assert.equal(choosePrice(90, bid ? { selling: bid, mentions } : undefined, auction).take, 'page');

  // Written: the buy box shows another amount and the markup's nowhere. Nothing decides, so no price is read.
  const box = 'Lace-up ankle boots\n€59.00\nAdd to bag';
  const sold = sellingPrice(box);
  const none = choosePrice(64.5, sold ? { selling: sold, mentions: priceMentions(box, undefined, true) } : undefined, box);
  assert.equal(none.take, 'none');
  const unread = extractProduct(pageWith(ld([{ '@type': 'Offer', price: '64.50', priceCurrency: 'EUR' }]), '<p>€59.00</p><button>Add to bag</button>'));
  assert.equal(unread?.price, null);
  assert.match(unread?.markupPrice?.why ?? '', /markup says 64\.5, the buy box shows €59\.00/);
  // The markup's amount anywhere on the page keeps it (a second price in the box may be a bundle's).
  const shown = extractProduct(pageWith(ld([{ '@type': 'Offer', price: '64.50', priceCurrency: 'EUR' }]), '<p>€59.00</p><p>Price €64.50</p>'));
  assert.deepEqual(shown?.price, { value: 64.5, source: 'json-ld' });
});

test('prices split across elements read whole; a number beside a price stays a number of its own', () => {
  // peb-2fa16d14a9e3.html (emag.ro): cents in <sup>.
  const emag = pageWith('', '<p class="product-new-price">173<sup>34</sup> <span>Lei</span></p><button>Adaugă în coș</button>', 'Whiskey Jack Daniel\'S Single Barrel');
  assert.match(emag.visibleText, /173\.34 Lei/);
  assert.equal(extractProduct(emag)?.price?.value, 173.34);
  // Dot-grouped thousands take a decimal comma: "1.299<sup>99</sup> €".
  assert.match(pageWith('', '<p>1.299<sup>99</sup> €</p>').visibleText, /1\.299,99 €/);
  // peb-9d939d48bcf7.html: "$400" then "5 bids"; peb-d8ae57c78bf2.html (olx.com.pk): "Rs 635,000" then the year "2010".
  assert.match(pageWith('', '<p><span>$400</span><span>5 bids</span></p>').visibleText, /\$400 5 bids/);
  assert.match(pageWith('', '<p><span>Rs 635,000</span><span>2010 - 89,000 km</span></p>').visibleText, /Rs 635,000 2010/);
});

test('a range printed with one marker after its high end is in that currency, and reads its low end', () => {
  // peb-f86ea57a5481.html (dom.1k.by): Belarusian roubles written "б.р.".
  const range = 'Набор посуды TalleR TR-1047\n352,00 – 376,45 б.р.\nСравнить все цены (4)';
  assert.deepEqual(priceMentions(range).map((m) => [m.value, m.currency]), [[352, 'б.р.'], [376.45, 'б.р.']]);
  assert.equal(sellingPrice(range)?.value, 352);
});

test('a buy box printed above the title gives the price when the text after the title shows none', () => {
  // peb-0d1c8923ac06.html (olx.com.pk, stripped of markup): the ad's price over its heading, other ads' cards before it.
  const olx = parsePage(
    '<!doctype html><html lang="en"><head><title>INFINIX HOT 10 6/128 WALA BOX PACK WARRANTY WALA - Mobile Phones - 1021493409</title></head><body><ul><li>Rs 23,000Infinix hot 10 4gb 128gb sb ok hai</li><li>Sialkot, Punjab Nov 11</li></ul><p>Rs 23,450</p><h1>INFINIX HOT 10 6/128 WALA BOX PACK WARRANTY WALA</h1><p>Sialkot, Punjab, Pakistan</p><p>Seller description</p></body></html>',
    'https://www.olx.com.pk/item/infinix-hot-10-6128-wala-box-pack-warranty-wala-iid-1021493409',
  );
  const product = extractProduct(olx);
  assert.equal(product?.price?.value, 23450);
  assert.equal(product?.currency?.value, 'PKR');
  assert.deepEqual(product?.sku, { value: '1021493409', source: 'url' });
  // peb-e51c765cb622.html (jumbo.ch, stripped): the price column, then "in den Warenkorb", then the heading.
  const jumbo = parsePage(
    '<!doctype html><html lang="de"><head><title>Servietten BUNTE EIER kaufen - jumbo.ch</title></head><body><p>Art.1357247</p><p>-50%</p><p>statt 4.50<span>CHF 2.25</span></p><button>in den Warenkorb</button><h1>Servietten BUNTE EIER</h1><p>20 Stück, 33 x 33 cm</p></body></html>',
    'https://www.jumbo.ch/de/servietten-bunte-eier-28110?sku=1357247',
  );
  assert.equal(extractProduct(jumbo)?.price?.value, 2.25);
});

test('of several h1 headings the main one is the one the document title names', () => {
  // peb-3ae14333546c.html (kiabi.com): an account menu and an empty basket are h1 headings too.
  const kiabi = parsePage(
    '<!doctype html><html lang="fr"><head><title>Brassière de sport post-opératoire microfibre Lingerie du s au xxl - noir - Kiabi - 20,00€</title></head><body><h1>Mon compte</h1><h1>Votre panier est vide :(</h1><h1>Brassière de sport post-opératoire microfibre - noir</h1><p>dès 20,00€ Kiabi En stock</p></body></html>',
    'https://www.kiabi.com/brassiere_P496380C496379',
  );
  assert.equal(kiabi.h1, 'Brassière de sport post-opératoire microfibre - noir');
  assert.equal(extractProduct(kiabi)?.price?.value, 20);
  // One h1, or none sharing two words with the title: the first, as before.
  assert.equal(parsePage('<title>Shop</title><h1>Kettle</h1><h1>Basket</h1>', URL).h1, 'Kettle');
});

test('"unavailable" about a picture or a shop\'s shelf says nothing about the item', () => {
  // peb-c01d200ba542.html (amazon.co.uk), peb-14dc707ee184.html (amazon.it), peb-4b3a17058e72.html (leroymerlin.pl)
  const amazon = 'Only 2 left in stock.\nAdd to Basket\n…\nImage Unavailable\nImage not available for\nColour:';
  assert.deepEqual(productStatements(amazon).map((s) => s.status), ['LimitedAvailability']);
  assert.deepEqual(productStatements('Immagine non disponibile\nImmagine non disponibile per\nDisponibile presso questi venditori.').map((s) => s.status), ['InStock']);
  assert.equal(buyBoxAvailability('Dodaj do koszyka\nw sklepie Produkt niedostępny', agreeingStatus), null);
});

test('stock wording the page keeps hidden until a script shows it is not the item\'s state', () => {
  // mobly-br-bed-jsonld-js-loaded-price-gr-rdfa.html: "sold out" notices in display:none blocks and a dialog.
  const body = [
    '<p>R$ 1.759,99</p><button>Comprar</button>',
    '<div class="grid_4 unavailable-alert" style="display: none;"><p class="right mt-20">Produto esgotado :(</p></div>',
    '<div class="modal fade" id="notifyModal" role="dialog"><h2 class="modal-title text-center">Produto Indisponível :(</h2></div>',
  ].join('');
  const product = extractProduct(pageWith('', body, 'Cama Box Queen Size Manhattan'));
  assert.equal(product?.availability?.value, 'InStock');
  // The same words shown, not hidden, are the item's.
  const shown = extractProduct(pageWith('', '<p>R$ 1.759,99</p><p>Produto esgotado :(</p>', 'Cama Box Queen Size Manhattan'));
  assert.equal(shown?.availability?.value, 'OutOfStock');
  // A long hidden block (a closed menu) is not a notice: it does not hide the lines it shares with the page.
  const menu = `<nav style="display:none">${'<a href="/x">Sold out</a> '.repeat(80)}</nav>`;
  const open = extractProduct(pageWith('', `${menu}<p>R$ 1.759,99</p><p>Sold out</p>`, 'Cama Box Queen Size Manhattan'));
  assert.equal(open?.availability?.value, 'OutOfStock');
});

test('the new price and stock patterns stay linear on long hostile input', () => {
  const signals = new Set(['EUR']);
  assertLinear('ranges sharing a marker', 3_000, (n) => '1,00 – 2,00 б.р. '.repeat(n), (t) => priceMentions(t, signals, true));
  assertLinear('auction roles', 3_000, (n) => 'Estimate $600 - $1,600 Starting Price $90 '.repeat(n), (t) => priceMentions(t, signals, true));
  assertLinear('discount between a pair', 3_000, (n) => 'EUR219.99 -50% EUR110.00\n'.repeat(n), (t) => sellingPrice(t, signals));
  assertLinear('side-service lines', 3_000, (n) => 'Image Unavailable w sklepie niedostępny\n'.repeat(n), (t) => productStatements(t));
  assertLinear('digits across inline elements', 1_000, (n) => `<p>${'<span>12</span><sup>99</sup><span>5 bids</span>'.repeat(n)}</p>`, (h) => parsePage(h, URL));
  assertLinear('prices above the title', 2_000, (n) => `${'<p>Rs 23,000 Card</p>'.repeat(n)}<p>Rs 23,450</p><h1>Item</h1>`, (h) => extractProduct(parsePage(h, URL)));
  assertLinear('many h1 headings', 2_000, (n) => `<title>Item one two</title>${'<h1>Menu entry</h1>'.repeat(n)}<h1>Item one two</h1>`, (h) => parsePage(h, URL));
  assertLinear('hidden notices', 1_000, (n) => `<div style="display: none">Sold out</div>${'<div role="dialog"><p>Out of stock</p></div>'.repeat(n)}`, (h) => parsePage(h, URL));
});
