// scan/products/availability.ts: schema.org ItemAvailability in every spelling, feed and OpenGraph words, the most purchasable
// of several offers, and visible stock statements in the languages of the stores we audit (negatives before positives,
// refinements such as "only 2 left", delivery estimates), and linear time on hostile input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  availabilityKind,
  bestAvailability,
  isItemAvailability,
  normaliseAvailability,
  schemaAvailability,
  stockStatements,
  textAvailability,
} from '../../../scan/products/availability.js';
import { assertLinear } from '../../helpers/timing.js';

test('normaliseAvailability: schema.org URL, prefix or short name in any case, feed and OpenGraph words', () => {
  for (const [raw, expected] of [
    ['https://schema.org/InStock', 'InStock'], ['http://schema.org/SoldOut', 'SoldOut'], ['https://www.schema.org/PreOrder', 'PreOrder'],
    ['http://schema.org/InStock/', 'InStock'], ['instock', 'InStock'], ['INSTOCK', 'InStock'], ['  http://schema.org/OutOfStock', 'OutOfStock'],
    ['schema:BackOrder', 'BackOrder'], ['in stock', 'InStock'], ['In Stock', 'InStock'], ['in_stock', 'InStock'], ['out of stock', 'OutOfStock'],
    ['out_of_stock', 'OutOfStock'], ['oos', 'OutOfStock'], ['preorder', 'PreOrder'], ['pre-order', 'PreOrder'], ['backorder', 'BackOrder'],
    ['available for order', 'BackOrder'], ['discontinued', 'Discontinued'], ['Sold out!', 'SoldOut'], ['limited_availability', 'LimitedAvailability'],
  ] as const) {
    assert.equal(normaliseAvailability(raw), expected, raw);
  }
  for (const unknown of ['ships in 3 weeks', 'http://example.com/InStock', 'constructor', 'toString', '']) {
    assert.equal(normaliseAvailability(unknown), null, unknown);
  }
});

test('isItemAvailability: schema.org terms only, not feed words', () => {
  for (const ok of ['InStock', 'http://schema.org/SoldOut', 'https://schema.org/InStock', 'schema:PreOrder', 'instock']) {
    assert.equal(isItemAvailability(ok), true, ok);
  }
  for (const bad of ['in stock', 'Dobavljivo', 'in_stock', 'http://example.com/InStock', '']) assert.equal(isItemAvailability(bad), false, bad);
  assert.equal(schemaAvailability('HTTPS://SCHEMA.ORG/LimitedAvailability'), 'LimitedAvailability');
});

test('availabilityKind and bestAvailability: buy now, later, or not at all; the most purchasable offer wins', () => {
  assert.equal(availabilityKind('https://schema.org/InStock'), 'available');
  assert.equal(availabilityKind('LimitedAvailability'), 'available');
  assert.equal(availabilityKind('pre-order'), 'later');
  assert.equal(availabilityKind('BackOrder'), 'later');
  assert.equal(availabilityKind('sold out'), 'unavailable');
  assert.equal(availabilityKind('Discontinued'), 'unavailable');
  assert.equal(availabilityKind('maybe'), null);
  assert.equal(bestAvailability(['http://schema.org/OutOfStock', 'InStock']), 'InStock');
  assert.equal(bestAvailability(['OutOfStock', 'PreOrder']), 'PreOrder');
  assert.equal(bestAvailability(['ships soon']), 'ships soon');
  assert.equal(bestAvailability([]), undefined);
});

// Statements per language: [text, status]. Negatives contain the positive words on purpose.
const STATEMENTS: [string, string][] = [
  // en
  ['In stock', 'InStock'], ['Out of stock', 'OutOfStock'], ['Sold out', 'OutOfStock'], ['Currently unavailable', 'OutOfStock'],
  ['Not available', 'OutOfStock'], ['Not in stock', 'OutOfStock'], ['Pre-order now', 'PreOrder'], ['On backorder', 'BackOrder'],
  ['Discontinued', 'Discontinued'], ['No longer available', 'Discontinued'], ['Only 3 left in stock', 'LimitedAvailability'],
  ['Ships in 2-3 days', 'InStock'], ['Available in 4-6 weeks', 'BackOrder'], ['Notify me when available', 'OutOfStock'],
  ['Made to order', 'MadeToOrder'],
  // de
  ['Auf Lager', 'InStock'], ['Sofort lieferbar', 'InStock'], ['Nicht lieferbar', 'OutOfStock'], ['Ausverkauft', 'OutOfStock'],
  ['Derzeit nicht verfügbar', 'OutOfStock'], ['Nicht mehr lieferbar', 'Discontinued'], ['Vorbestellbar', 'PreOrder'],
  ['Nur noch 2 Stück auf Lager', 'LimitedAvailability'], ['Lieferzeit: 2-3 Werktage', 'InStock'], ['Lieferbar in 3 Wochen', 'BackOrder'],
  // fr
  ['En stock', 'InStock'], ['Épuisé', 'OutOfStock'], ['Rupture de stock', 'OutOfStock'], ['Indisponible', 'OutOfStock'],
  ["Ce produit n'est plus disponible", 'Discontinued'], ['Précommande', 'PreOrder'], ['Plus que 2 en stock', 'LimitedAvailability'],
  ['Expédié sous 24 h', 'InStock'],
  // es
  ['Disponible', 'InStock'], ['No disponible', 'OutOfStock'], ['Agotado', 'OutOfStock'], ['Sin stock', 'OutOfStock'],
  ['Descatalogado', 'Discontinued'], ['Preventa', 'PreOrder'], ['Solo quedan 2 unidades', 'LimitedAvailability'],
  ['Disponible en 15 días', 'BackOrder'],
  // it
  ['Disponibile', 'InStock'], ['Non disponibile', 'OutOfStock'], ['Esaurito', 'OutOfStock'], ['Fuori produzione', 'Discontinued'],
  ['Disponibile in 3 giorni', 'InStock'], ['Ultimi pezzi', 'LimitedAvailability'],
  // nl
  ['Op voorraad', 'InStock'], ['Niet op voorraad', 'OutOfStock'], ['Uitverkocht', 'OutOfStock'], ['Niet meer leverbaar', 'Discontinued'],
  ['Nog 2 op voorraad', 'LimitedAvailability'], ['Voorbestellen', 'PreOrder'],
  // pt
  ['Em estoque', 'InStock'], ['Esgotado', 'OutOfStock'], ['Indisponível', 'OutOfStock'], ['Fora de linha', 'Discontinued'],
  ['Pré-venda', 'PreOrder'], ['Sob encomenda', 'MadeToOrder'],
  // pl
  ['Dostępny', 'InStock'], ['Niedostępny', 'OutOfStock'], ['Brak w magazynie', 'OutOfStock'], ['Wyprzedany', 'OutOfStock'],
  ['Przedsprzedaż', 'PreOrder'], ['Wycofany ze sprzedaży', 'Discontinued'],
  // sv
  ['I lager', 'InStock'], ['Finns i lager', 'InStock'], ['Slut i lager', 'OutOfStock'], ['Tillfälligt slut', 'OutOfStock'],
  ['Utgått', 'Discontinued'], ['Endast 2 kvar', 'LimitedAvailability'], ['Restnoterad', 'BackOrder'],
  // da
  ['På lager', 'InStock'], ['Ikke på lager', 'OutOfStock'], ['Udsolgt', 'OutOfStock'], ['Udgået', 'Discontinued'],
  ['Kun 2 tilbage', 'LimitedAvailability'],
  // ja (no spaces between words)
  ['在庫あり', 'InStock'], ['商品在庫なし', 'OutOfStock'], ['売り切れ', 'OutOfStock'], ['販売終了', 'Discontinued'],
  ['予約受付中', 'PreOrder'], ['残りわずか', 'LimitedAvailability'], ['お取り寄せ', 'BackOrder'], ['3日以内に発送', 'InStock'],
  // zh
  ['現貨供應', 'InStock'], ['有库存', 'InStock'], ['缺貨中', 'OutOfStock'], ['已售完', 'OutOfStock'], ['停產', 'Discontinued'],
  ['預購商品', 'PreOrder'], ['僅剩2件', 'LimitedAvailability'],
  // cs, sk, sl, et
  ['Skladem', 'InStock'], ['Není skladem', 'OutOfStock'], ['Dobavljivo', 'InStock'], ['Ni na zalogi', 'OutOfStock'], ['Pole laos', 'OutOfStock'],
];

test('textAvailability reads stock statements in en, de, fr, es, it, nl, pt, pl, sv, da, ja, zh and more', () => {
  const wrong = STATEMENTS.filter(([text, status]) => textAvailability(text) !== status).map(
    ([text, status]) => `${text}: ${textAvailability(text)} (expected ${status})`,
  );
  assert.deepEqual(wrong, []);
});

test('statements of the real pages: Slovak "cannot be bought", Estonian "not available", ended listings', () => {
  // naysk-weatherstation-jsonld-instock-vs-visible-oos.html, krauta-ee-remote-jsonld-soldout.html (product-extraction-benchmark, MIT)
  assert.equal(textAvailability('Momentálne nie je možné produkt kúpiť, ale je možné ho rezervovať'), 'OutOfStock');
  assert.equal(textAvailability('Vabandame, antud toode pole hetkel saadaval.'), 'OutOfStock');
  // The wording marketplaces and classifieds put on a listing that is gone.
  for (const text of ['This item has been sold', 'This listing has ended', 'Bidding has ended', 'Angebot beendet', 'Annonce expirée', 'Inserzione terminata']) {
    assert.equal(textAvailability(text), 'OutOfStock', text);
  }
});

test('textAvailability: negatives before positives, refinements, contradictions and non-statements', () => {
  assert.equal(textAvailability('Add to cart. Not available in your size.'), 'OutOfStock');
  assert.equal(textAvailability('Out of stock — available for back-order'), 'BackOrder');
  assert.equal(textAvailability('Sold out. Pre-order the next batch'), 'PreOrder');
  assert.equal(textAvailability('In stock. Only 2 left!'), 'LimitedAvailability');
  assert.equal(textAvailability('In stock online, out of stock in store'), null);
  assert.equal(textAvailability('Brand new for 2020, available in 3 colours'), null);
  assert.equal(textAvailability('unavailability notice'), null); // a longer word is not the statement
  assert.equal(textAvailability(''), null);
});

test('stockStatements gives each statement with its status and where it is', () => {
  assert.deepEqual(stockStatements('Colour: red. Sold out in M, in stock in L'), [
    { status: 'OutOfStock', text: 'Sold out', index: 13 },
    { status: 'InStock', text: 'in stock', index: 28 },
  ]);
});

test('linear time on long runs of stock words, digits and CJK text', () => {
  const shapes: [string, (n: number) => string][] = [
    ['sold out', (n) => 'Sold out '.repeat(n / 9)],
    ['not not', (n) => 'not '.repeat(n / 4)],
    ['digits', (n) => '1'.repeat(n)],
    ['only digits', (n) => 'only 1234 '.repeat(n / 10)],
    ['delivery', (n) => 'ships in 1-2 '.repeat(n / 13)],
    ['cjk', (n) => '在庫'.repeat(n / 2)],
  ];
  for (const [label, make] of shapes) assertLinear(`textAvailability ${label}`, 1_000, make, (t) => textAvailability(t));
});
