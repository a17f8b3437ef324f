// scan/products/price.ts: amounts with thousands and decimal separators per locale and currency, price texts (ranges, "from",
// sale vs regular price, currency from the text or from what is printed near it), prices in running page text with
// their roles, every number on a page with all its readings, currency markers and the page's currency signals, a
// sample of price-parser's real-world price strings, and linear time on hostile input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage } from '../../../scan/documents/html.js';
import {
  amountReadings,
  currencySignals,
  findPrices,
  isCurrencyCode,
  normaliseCurrency,
  parsePrice,
  parsePriceText,
  parseStructuredPrice,
  priceMentions,
  sellingPrice,
  pricePositions,
  samePrice,
  visiblePrices,
} from '../../../scan/products/price.js';
import { PRICE_PARSER_EXAMPLES } from '../../fixtures/price-parser-examples.js';
import { assertLinear } from '../../helpers/timing.js';

// ---------------------------------------------------------------------------------------------------------------
// Amounts

test('parsePrice reads thousands and decimal separators the way shoppers do', () => {
  const cases: [string, number | null][] = [
    ['1.299,00', 1299], ['1,299.00', 1299], ['€ 12,50', 12.5], ['12,50 €', 12.5], ['12.50 €', 12.5], ['1 299,00 kr', 1299],
    ['1 299,00 zł', 1299], ['1\u00a0299,00 €', 1299], ['1\u202f299,00 €', 1299], ["1'299.50", 1299.5], ['1’299.50 CHF', 1299.5],
    ["CHF 1'299.–", 1299], ['50,- Kč', 50], ['2.449', 2449], ['1,299', 1299], ['24.990', 24990], ['¥1,280', 1280],
    ['10,75 € 11,95 €', 10.75], ['$0.99', 0.99], ['1.234.567,89', 1234567.89], ['$ 1.144.000', 1144000], ['₹1,00,000', 100000],
    ['109€109€109', 109], ['41.3', 41.3], ['฿ 3.3900', 3.39], ['34.992001', 34.992001], ['0.299', 0.299], ['1234.567', 1234.567],
    ['$119. 95', 119.95], ['1.837, 32 €', 1837.32], ['-20% 24,99 €', 24.99], ['40% OFF', null], ['Call us', null], ['', null],
  ];
  for (const [text, expected] of cases) assert.equal(parsePrice(text), expected, text);
});

test('the currency decides what a lone separator before three digits means', () => {
  assert.equal(parsePrice('1.250', 'KWD'), 1.25); // three-decimal currencies
  assert.equal(parsePrice('1.250', 'BHD'), 1.25);
  assert.equal(parsePrice('1.250', 'CLP'), 1250);
  assert.equal(parsePrice('1.250', 'EUR'), 1250);
  assert.equal(parsePrice('12,50', 'CLP'), 12.5); // two decimals are decimals everywhere
});

test('amountReadings gives every plausible reading of one amount, the likeliest first', () => {
  assert.deepEqual(amountReadings('1.299'), [1299, 1.299]);
  assert.deepEqual(amountReadings('1,299'), [1299, 1.299]);
  assert.deepEqual(amountReadings('1.299,00'), [1299]);
  assert.deepEqual(amountReadings('10.1400'), [10.14]);
  assert.deepEqual(amountReadings('0.299'), [0.299]);
  assert.deepEqual(amountReadings('24.990', 'CLP'), [24990]);
  assert.deepEqual(amountReadings('1.250', 'KWD'), [1.25]);
  assert.deepEqual(amountReadings('no number'), []);
});

test('structured prices are plain decimals, except "24.990" in a currency without minor units', () => {
  assert.equal(parseStructuredPrice('2.449'), 2.449); // schema.org decimals: a plain number is taken as written
  assert.equal(parseStructuredPrice('10.1400'), 10.14);
  assert.equal(parseStructuredPrice('1299'), 1299);
  assert.equal(parseStructuredPrice(' 10,75 € 11,95 € '), 10.75);
  assert.equal(parseStructuredPrice('€1.299,00'), 1299);
  assert.equal(parseStructuredPrice('24.990', 'CLP'), 24990);
  assert.equal(parseStructuredPrice('24.990', 'clp'), 24990);
  assert.equal(parseStructuredPrice('1.280', 'JPY'), 1280);
  assert.equal(parseStructuredPrice('24.99', 'CLP'), 24.99); // not a thousands pattern: taken as written
  assert.equal(parseStructuredPrice('24.990', 'EUR'), 24.99);
  assert.equal(parseStructuredPrice('Call for price'), null);
});

// ---------------------------------------------------------------------------------------------------------------
// Price texts

test('parsePriceText: selling price, currency marker, range and "from"', () => {
  assert.deepEqual(parsePriceText('€10 – €20'), { value: 10, currency: '€', text: '10', max: 20 });
  assert.deepEqual(parsePriceText('10 - 20 €'), { value: 10, currency: '€', text: '10', max: 20 });
  assert.deepEqual(parsePriceText('From 26 to 50 €'), { value: 26, currency: '€', text: '26', max: 50, from: true });
  assert.deepEqual(parsePriceText('from $5'), { value: 5, currency: '$', text: '5', from: true });
  assert.deepEqual(parsePriceText('ab 3,63 EUR'), { value: 3.63, currency: 'EUR', text: '3,63', from: true });
  assert.deepEqual(parsePriceText('à partir de 11,70 €'), { value: 11.7, currency: '€', text: '11,70', from: true });
  assert.equal(parsePriceText('€ 10.00 € 8.00')?.max, undefined); // two prices without a dash are not a range
  assert.equal(parsePriceText('No price'), null);
});

test('parsePriceText: a struck or was/RRP/UVP/statt/avant/antes/prima price is the regular price', () => {
  const cases: [string, number, number][] = [
    ['Was £30.00 Now £24.99', 24.99, 30], ['RRP £30.00 £24.99', 24.99, 30], ['UVP 39,99 € 29,99 €', 29.99, 39.99],
    ['statt 249,00 EUR nur 199,00 EUR', 199, 249], ['avant 45,00 € 39,00 €', 39, 45], ['Antes 59,90 € Ahora 49,90 €', 49.9, 59.9],
    ['Prima 20,00 € Ora 15,00 €', 15, 20], ['Før 299,- Nu 199,- kr', 199, 299], ['原價 $3200 特價 $2320', 2320, 3200],
    ['$24.99 (was $30)', 24.99, 30],
  ];
  for (const [text, value, regular] of cases) {
    const r = parsePriceText(text);
    assert.equal(r?.value, value, text);
    assert.equal(r?.regular, regular, text);
  }
  // A regular price alone is still the only price shown.
  assert.equal(parsePriceText('Statt 249,00 EUR')?.value, 249);
});

test('parsePriceText: currency from the text, from side-by-side markers, else from the text printed near it', () => {
  assert.equal(parsePriceText('US$:12.99')?.currency, 'US$');
  assert.equal(parsePriceText('SGD$4.90')?.currency, 'SGD'); // an ISO code says more than "$"
  assert.equal(parsePriceText('$ SGD4.90')?.currency, 'SGD');
  assert.equal(parsePriceText('AED 8000 (USD 2179)')?.currency, 'AED');
  assert.equal(parsePriceText('1 030 р.')?.currency, 'р.');
  assert.equal(parsePriceText('17 940,00 руб')?.currency, 'руб');
  assert.equal(parsePriceText('140,00 pln')?.currency, 'pln');
  assert.equal(parsePriceText('售價2320元起')?.currency, '元'); // no spaces between Chinese words
  assert.deepEqual(parsePriceText('690,00', { near: '€' }), { value: 690, currency: '€', text: '690,00' });
  assert.equal(parsePriceText('£54.17', { near: 'USD' })?.currency, '£'); // the text's own marker wins
  assert.equal(parsePriceText('690,00')?.currency, null);
});

test('parsePriceText: "35€ 99", a lone "Free", and codes that are not prices', () => {
  assert.equal(parsePriceText("35€ 99 dont 0,02 € d'éco-part")?.value, 35.99);
  assert.equal(parsePriceText('10€ 20€')?.value, 10); // two prices, not euros and cents
  assert.equal(parsePriceText('Free!')?.value, 0);
  assert.equal(parsePriceText('Free shipping on orders $49+')?.value, 49); // a number beats the word
  assert.equal(parsePriceText('MX924 IX 850 руб.')?.value, 850); // "MX924" is a code
  assert.equal(parsePriceText('RM50')?.value, 50); // glued to a currency marker it is a price
});

test('a sample of price-parser\'s real-world price strings: amount and currency agree on ≥ 97 %', () => {
  const misses: string[] = [];
  for (const [text, near, amount, currency] of PRICE_PARSER_EXAMPLES) {
    const r = text === null ? null : parsePriceText(text, near === null ? {} : { near });
    const amountOk = amount === null ? r === null : r !== null && samePrice(r.value, amount);
    const key = (s: string): string => s.toLowerCase().replace(/[.\s]/g, '');
    const currencyOk = currency === null || (r?.currency != null && key(r.currency) === key(currency));
    if (!amountOk || !currencyOk) misses.push(`${JSON.stringify(text)} → ${r?.value} ${r?.currency} (expected ${amount} ${currency})`);
  }
  const share = 1 - misses.length / PRICE_PARSER_EXAMPLES.length;
  assert.ok(share >= 0.97, `${(share * 100).toFixed(1)} % agree; misses:\n${misses.join('\n')}`);
});

// ---------------------------------------------------------------------------------------------------------------
// Running page text

test('findPrices: selling prices next to a currency marker; regular, shipping, unit and ex-VAT amounts skipped', () => {
  assert.deepEqual(findPrices('RRP £30.00\nNow £24.99 + £4.99 delivery').map((p) => p.value), [24.99]);
  assert.deepEqual(findPrices('Was £30.00 Now £24.99').map((p) => p.value), [24.99]);
  assert.deepEqual(findPrices('建議售價 $3200元\n一次付清特價 72 折 2320 元').map((p) => p.value), [2320]);
  assert.deepEqual(findPrices('Price: 2,190.00 ARS').map((p) => [p.value, p.currency]), [[2190, 'ARS']]);
  assert.deepEqual(findPrices('Size 42, 3 colours, 1,299 reviews'), []);
  assert.deepEqual(findPrices('kristall 12 kr').map((p) => p.currency), ['kr']);
  assert.deepEqual(findPrices('40.00€\nExcl. VAT: 36.53€').map((p) => [p.value, p.text]), [[40, '40.00€']]);
  assert.deepEqual(findPrices('12x de R$ 44,00 sem juros\nR$ 528,00').map((p) => p.value), [528]);
  assert.deepEqual(findPrices('2,49 €\n(4,98 € / kg)').map((p) => p.value), [2.49]);
  assert.deepEqual(findPrices('Finance from £20/month\n£499.00').map((p) => p.value), [499]);
  assert.deepEqual(findPrices('Free delivery on orders over £50\nFrom £24.99').map((p) => p.value), [24.99]);
  assert.deepEqual(findPrices('UVP 39,99 €\n29,99 €').map((p) => p.value), [29.99]);
  assert.deepEqual(findPrices('Top 10 gifts: TOP 5 for you').length, 0); // "TOP" is a code only after a number
  assert.deepEqual(findPrices('nach DIN 5008').length, 0);
});

test('findPrices reads each amount with its currency: "$ 24.990" in Chile, "KD 1.250" in Kuwait', () => {
  assert.equal(findPrices('$ 24.990', new Set(['CLP']))[0].value, 24990);
  assert.equal(findPrices('1.250 KWD')[0].value, 1.25);
  assert.equal(findPrices('¥1,280')[0].value, 1280);
});

test('priceMentions gives every marked amount with its role', () => {
  const roles = priceMentions('UVP 39,99 €\n29,99 €\nVersand 4,95 €').map((m) => [m.value, m.role]);
  assert.deepEqual(roles, [[39.99, 'regular'], [29.99, 'selling'], [4.95, 'selling']]);
  const shipping = priceMentions('29,99 € 4,95 € Versand').map((m) => m.role);
  assert.deepEqual(shipping, ['selling', 'other']);
  assert.deepEqual(priceMentions('50% off'), []);
  // Rewards, discounts and thresholds are not what the product costs.
  const promo = priceMentions('Earn $25 back in rewards for every $250 spent. Take $10 off. Up to $50 cash back.').map((m) => m.role);
  assert.deepEqual(promo, ['other', 'other', 'other', 'other']);
  assert.deepEqual(priceMentions('$120.00 offered today').map((m) => m.role), ['selling']); // "off" is a word of its own
  // A minus sign glued to an amount is a reduction; a dash glued to what comes before it joins a range.
  const roleOf = (text: string) => priceMentions(text).map((m) => `${m.value} ${m.role}`);
  assert.deepEqual(roleOf('Price 199 € -100 €'), ['199 selling', '100 other']);
  assert.deepEqual(roleOf('Rabatt\n-100 €\n399 €'), ['100 other', '399 selling']);
  assert.deepEqual(roleOf('was £30 now £24.99 −£5.01'), ['30 regular', '24.99 selling', '5.01 other']);
  assert.deepEqual(roleOf('€10-€20'), ['10 selling', '20 selling']);
  assert.deepEqual(roleOf('€10 - €20'), ['10 selling', '20 selling']);
  assert.deepEqual(roleOf('EUR 10-EUR 20'), ['10 selling', '20 selling']);
  assert.equal(sellingPrice('Blender\n-100 €\n399 €')?.value, 399);
  // An amount followed by a unit is a quantity, even with a currency sign beside it.
  assert.deepEqual(roleOf('€ 28,604 kms'), ['28604 other']);
  assert.deepEqual(roleOf('64 GB 899 €'), ['899 selling']);
});

test('sellingPrice: the lower of two prices side by side with a discount; a marker opening the next line is not a suffix', () => {
  assert.equal(sellingPrice('IBIZA LED8-Mini\n€ 99,00\n€ 88,00 -11%\nRisparmi € 11,00')?.value, 88);
  assert.equal(sellingPrice('16% off\n€41.30\n€49.10VAT included')?.value, 41.3);
  assert.equal(sellingPrice('Wool scarf\n€ 99,00\n€ 88,00\nSilk scarf')?.value, 99); // no discount: two products, the first
  assert.equal(sellingPrice('Camera\n1/9\n£34.99\nCredit plans available')?.value, 34.99);
  assert.deepEqual(priceMentions('12,99 € 14,99 €').map((m) => m.value), [12.99, 14.99]); // suffix markers on one line still bind
  assert.equal(sellingPrice('Nothing priced here'), null);
});

test('visiblePrices and pricePositions read every number with both conventions', () => {
  const text = 'Cardigan 1.299 kr, was 1 499,00 kr; 3 colours';
  const values = visiblePrices(text);
  for (const v of [1299, 1.3, 1499, 499, 3]) assert.ok(values.has(v), String(v));
  assert.deepEqual(pricePositions(text, 1299), [9]);
  assert.deepEqual(pricePositions(text, 1.299), [9]);
  assert.deepEqual(pricePositions(text, 1499), [23]);
  assert.deepEqual(pricePositions(text, 42), []);
});

// ---------------------------------------------------------------------------------------------------------------
// Currencies

test('normaliseCurrency: ISO codes pass; symbols map when unambiguous or when the page agrees, else stay raw', () => {
  const none = new Set<string>();
  assert.equal(normaliseCurrency('eur', none), 'EUR');
  assert.equal(normaliseCurrency('€', none), 'EUR');
  assert.equal(normaliseCurrency('R$', none), 'BRL');
  assert.equal(normaliseCurrency('£', none), 'GBP');
  assert.equal(normaliseCurrency('$', none), 'USD'); // nothing names another dollar
  assert.equal(normaliseCurrency('$', new Set(['CAD'])), 'CAD');
  assert.equal(normaliseCurrency('$', new Set(['CAD', 'USD'])), '$');
  assert.equal(normaliseCurrency('$', new Set(['EUR'])), 'USD'); // a signal that no "$" stands for does not help
  assert.equal(normaliseCurrency('kr', new Set(['SEK'])), 'SEK');
  assert.equal(normaliseCurrency('kr', none), 'kr');
  assert.equal(normaliseCurrency('¥', new Set(['JPY'])), 'JPY');
  assert.equal(normaliseCurrency('руб.', none), 'RUB');
  assert.equal(normaliseCurrency('zł', none), 'PLN');
  assert.equal(normaliseCurrency('ZŁ', none), 'PLN');
  assert.equal(normaliseCurrency('Kč', none), 'CZK');
  assert.equal(normaliseCurrency('Fr.', none), 'CHF');
  assert.equal(normaliseCurrency('Euro', none), 'EUR'); // a currency's English name reads as its code
  assert.equal(normaliseCurrency('dirhams', new Set(['MAD'])), 'MAD');
  assert.equal(normaliseCurrency('dirhams', none), 'dirhams'); // two countries' dirham: the page must say which
  assert.equal(normaliseCurrency('toString', none), 'toString');
});

test('isCurrencyCode: upper-case ISO 4217 codes only', () => {
  for (const ok of ['EUR', 'USD', 'CLP', 'KWD']) assert.equal(isCurrencyCode(ok), true, ok);
  for (const bad of ['eur', '€', 'XYZ', 'EURO', '']) assert.equal(isCurrencyCode(bad), false, bad);
});

test('currencySignals: markup codes, OG tags, the lang region or a one-country language, and the country TLD', () => {
  const signals = (html: string, url = 'https://shop.test/p'): string[] => [...currencySignals(parsePage(html, url))].sort();
  assert.deepEqual(signals('<html lang="en-AU"><body></body></html>'), ['AUD']);
  assert.deepEqual(signals('<html lang="ja"><body></body></html>'), ['JPY']);
  assert.deepEqual(signals('<html lang="de"><body></body></html>'), []); // German is spoken in three currencies
  assert.deepEqual(signals('<html lang="sv-FI"><body></body></html>'), ['EUR']); // the region beats the language
  assert.deepEqual(signals('<html><body></body></html>', 'https://shop.cl/p'), ['CLP']);
  assert.deepEqual(signals('<head><meta property="og:price:currency" content="nok"></head>'), ['NOK']);
  assert.deepEqual(signals('<html lang="en-constructor"><body></body></html>', 'https://shop.constructor/p'), []);
});

// ---------------------------------------------------------------------------------------------------------------
// Bounds

test('linear time on long runs of digits, separators, spaces and currency signs', () => {
  const shapes: [string, (n: number) => string][] = [
    ['digits', (n) => '1'.repeat(n)],
    ['digit-comma', (n) => '1,'.repeat(n / 2)],
    ['euro-digit-dot', (n) => '€1.'.repeat(n / 3)],
    ['digit-space', (n) => `${'1 '.repeat(n / 2)}€`],
    ['groups', (n) => '1 234.567,'.repeat(n / 10)],
    ['markers', (n) => 'US$ руб. kr '.repeat(n / 12)],
  ];
  for (const [label, make] of shapes) {
    assertLinear(`findPrices ${label}`, 3_000, make, (t) => findPrices(t));
    assertLinear(`priceMentions ${label}`, 3_000, make, (t) => priceMentions(t));
    assertLinear(`visiblePrices ${label}`, 3_000, make, (t) => visiblePrices(t));
    assertLinear(`parsePriceText ${label}`, 3_000, make, (t) => parsePriceText(t, { near: t }));
    assertLinear(`parsePrice ${label}`, 3_000, make, (t) => parsePrice(t));
  }
});
