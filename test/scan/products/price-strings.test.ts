// Price strings as shops print them, each shown as the only price of a plain product page and read back the way a
// scan reads the page (parsePage → extractProduct). One list per class of string; strings taken from a public
// shop page name it, the others are written in the forms the class covers. An amount read as a different number is
// worse than none, so every list also says which strings must give no price at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage } from '../../../scan/documents/html.js';
import { extractProduct } from '../../../scan/products/product.js';
import { priceMentions, sellingPrice } from '../../../scan/products/price.js';
import { assertLinear } from '../../helpers/timing.js';

interface Case {
  text: string;
  value: number | null;
  currency?: string | null;
  /** The page's language (lang attribute), when the string needs it to tell its currency. */
  lang?: string;
}

function productPage(priceHtml: string, lang = 'en'): string {
  return `<!doctype html><html lang="${lang}"><head><title>Enamel kettle 1.7 l</title></head><body>
<nav><a href="/">Home</a> <a href="/kitchen">Kitchen</a></nav>
<h1>Enamel kettle 1.7 l</h1>
<p>A stove-top kettle in enamelled steel.</p>
${priceHtml}
<form action="/cart/add" method="post"><input type="hidden" name="id" value="k17"><button type="submit">Add to cart</button></form>
</body></html>`;
}

function read(priceHtml: string, lang?: string) {
  return extractProduct(parsePage(productPage(priceHtml, lang), 'https://shop.example/products/enamel-kettle'));
}

function check(cases: readonly Case[], wrap: (text: string) => string = (t) => `<div>${t}</div>`): void {
  const misses: string[] = [];
  for (const c of cases) {
    const product = read(wrap(c.text), c.lang);
    const value = product?.price?.value ?? null;
    const currency = product?.currency?.value ?? null;
    const valueOk = c.value === null ? value === null : value !== null && Math.abs(value - c.value) < 0.005;
    const currencyOk = c.currency === undefined || currency === c.currency;
    if (!valueOk || !currencyOk) misses.push(`${JSON.stringify(c.text)} → ${value} ${currency} (expected ${c.value} ${c.currency ?? ''})`);
  }
  assert.deepEqual(misses, []);
}

test('currencies with their local signs and words, across Africa, the Balkans, Asia, the Gulf and the Pacific', () => {
  check([
    { text: 'KSh 1,250', value: 1250, currency: 'KES' },
    { text: 'TSh 15,000', value: 15000, currency: 'TZS' },
    { text: 'USh 45,000', value: 45000, currency: 'UGX' },
    { text: '1 250 ден.', value: 1250, currency: 'MKD' },
    { text: '2 400 Lekë', value: 2400, currency: 'ALL' },
    { text: '֏ 12,500', value: 12500, currency: 'AMD' },
    { text: '4 500 сом', value: 4500, currency: 'KGS', lang: 'ky-KG' },
    { text: '350 ብር', value: 350, currency: 'ETB' },
    { text: 'FBu 5 000', value: 5000, currency: 'BIF' },
    { text: 'Fdj 2 000', value: 2000, currency: 'DJF' },
    { text: '120 000 soʻm', value: 120000, currency: 'UZS' },
    { text: '15 000 FCFA', value: 15000, currency: 'XAF', lang: 'fr-CM' },
    { text: '15 000 F CFA', value: 15000, currency: 'XOF', lang: 'fr-SN' },
    { text: '৳ 1,200', value: 1200, currency: 'BDT' },
    { text: '1,500 টাকা', value: 1500, currency: 'BDT' },
    { text: 'ر.ق. 250', value: 250, currency: 'QAR' },
    { text: '250 د.م.', value: 250, currency: 'MAD' },
    { text: '12.500 د.ك.', value: 12.5, currency: 'KWD' },
    { text: '199 درهم', value: 199, currency: 'MAD', lang: 'ar-MA' },
    { text: '199 درهم', value: 199, currency: 'AED', lang: 'ar-AE' },
    { text: '450 ريال', value: 450, currency: 'SAR', lang: 'ar-SA' },
    { text: '1,200 ₾', value: 1200, currency: 'GEL' },
    { text: '85 лв.', value: 85, currency: 'BGN' },
    { text: '25 ₼', value: 25, currency: 'AZN' },
    { text: '199 dirhams', value: 199, currency: 'MAD', lang: 'fr-MA' },
    { text: '2,500 naira', value: 2500, currency: 'NGN' },
    { text: '1 500 гривня', value: 1500, currency: 'UAH' },
    { text: 'K 25.00', value: 25, currency: 'ZMW', lang: 'en-ZM' },
    { text: 'R 199.00', value: 199, currency: 'ZAR' },
    { text: 'T$ 45.00', value: 45, currency: 'TOP' },
  ]);
});

test('old national currencies still printed on pages', () => {
  check([
    { text: '49,90 DM', value: 49.9, currency: 'DEM', lang: 'de' },
    { text: '1.250 ₧', value: 1250, currency: 'ESP', lang: 'es' },
    { text: '120,00 kn', value: 120, currency: 'HRK', lang: 'hr' },
    { text: '35.000 Lit', value: null }, // no sign CLDR knows: no price rather than a guess
    { text: 'DEM 49,90', value: 49.9, currency: 'DEM' },
  ]);
});

test('one or two letters are a currency only when the page names it or cents follow', () => {
  check([
    { text: 'Size L 12', value: null },
    { text: '150 KM', value: null },
    { text: 'R 199', value: 199, currency: 'ZAR', lang: 'en-ZA' },
    { text: 'R 199', value: null },
  ]);
});

test('amounts: a spaced decimal part, a leading decimal mark and every grouping mark, never read as another number', () => {
  check([
    { text: '$249. 99', value: 249.99, currency: 'USD' },
    { text: '2.450, 10 €', value: 2450.1, currency: 'EUR' },
    { text: '1.837, 32 €', value: 1837.32, currency: 'EUR' },
    { text: '.50 €', value: 0.5, currency: 'EUR' },
    { text: '€ ,99', value: 0.99, currency: 'EUR' },
    { text: '£ .75', value: 0.75, currency: 'GBP' },
    { text: '1 299,00 €', value: 1299, currency: 'EUR' },
    { text: '1\u202f299,00\u00a0€', value: 1299, currency: 'EUR' },
    { text: '1\u2009299,00 €', value: 1299, currency: 'EUR' },
    { text: "CHF 1'299.50", value: 1299.5, currency: 'CHF' },
    { text: 'CHF 1’299.–', value: 1299, currency: 'CHF' },
    { text: '1.299.000 ₫', value: 1299000, currency: 'VND' },
    { text: '₹1,00,000', value: 100000, currency: 'INR' },
    { text: '12.345,67 zł', value: 12345.67, currency: 'PLN' },
    { text: 'KWD 1.250', value: 1.25, currency: 'KWD' },
    { text: '$ 24.990', value: 24990, currency: 'CLP', lang: 'es-CL' },
  ]);
});

test('amounts in running text: a spaced decimal part counts only next to a currency marker', () => {
  check([{ text: 'Pack of 3. 12 pieces in all. £4.50', value: 4.5, currency: 'GBP' }]);
});

test('the regular price is the price when it is the only one', () => {
  check([
    { text: 'Regular price $30.00', value: 30, currency: 'USD' },
    { text: 'Běžná cena 1 290 Kč', value: 1290, currency: 'CZK', lang: 'cs' },
    { text: 'Prix normal 45,00 €', value: 45, currency: 'EUR', lang: 'fr' },
    { text: 'UVP 19,99 €', value: 19.99, currency: 'EUR', lang: 'de' },
    { text: 'Regular price $30.00 Sale price $24.00', value: 24, currency: 'USD' },
  ]);
});

test('a zero price is read as zero', () => {
  check([
    { text: '$0.00', value: 0, currency: 'USD' },
    { text: '0,00 €', value: 0, currency: 'EUR' },
    { text: '£0.00 £12.00', value: 12, currency: 'GBP' }, // a positive price beside it wins
  ]);
});

test('linear time: spaced decimals, leading marks, local signs and words, weak markers', () => {
  const signals = new Set(['ZAR', 'MAD']);
  const shapes: [string, (n: number) => string][] = [
    ['spaced-decimals', (n) => '$1. 2'.repeat(n / 5)],
    ['spaced-comma', (n) => '1.450, 1'.repeat(n / 8)],
    ['leading-dots', (n) => ' .5 ,'.repeat(n / 5)],
    ['local-words', (n) => 'درهم 1 دينار '.repeat(n / 13)],
    ['english-words', (n) => '2 dirham dinars '.repeat(n / 16)],
    ['weak-markers', (n) => 'R 1 KM 2 L '.repeat(n / 11)],
    ['any-case', (n) => 'ksh KSh kSH1 '.repeat(n / 13)],
    ['periods', (n) => '$1/mo €2 per month '.repeat(n / 20)],
    ['ex-tax', (n) => '€1 excl. VAT netto 2 € HT '.repeat(n / 26)],
  ];
  for (const [label, make] of shapes) {
    assertLinear(`priceMentions ${label}`, 3_000, make, (t) => priceMentions(t, signals, true));
    assertLinear(`sellingPrice ${label}`, 3_000, make, (t) => sellingPrice(t, signals));
  }
});

test('a bare amount in the element the page marks as its price is the price, in the currency the page implies', () => {
  const inPriceElement = (t: string) => `<div class="product-price">${t}</div>`;
  check(
    [
      { text: '49,00', value: 49, currency: null }, // nothing names a currency: the amount, currency unknown
      { text: '49,00', value: 49, currency: 'EUR', lang: 'de-DE' },
      { text: '1 299,00', value: 1299, currency: 'PLN', lang: 'pl' },
      { text: '24.990', value: 24990, currency: 'CLP', lang: 'es-CL' },
      { text: '1.299', value: null }, // thousands or decimals: no currency decides it, so no price
      { text: '1.299', value: 1299, currency: 'EUR', lang: 'de-AT' },
      { text: '0.00', value: 0, currency: null },
    ],
    inPriceElement,
  );
  check([{ text: '<span itemprop="price">129.50</span>', value: 129.5, currency: 'GBP', lang: 'en-GB' }], (t) => t);
  // A strike-through or unit price element is not the price.
  check([{ text: '<span class="old-price">59,00</span>', value: null, lang: 'de-DE' }], (t) => t);
});

test('a price per period is read with its period', () => {
  const cases: [string, number, string][] = [
    ['$9.99/mo', 9.99, 'month'],
    ['£19.99 per month', 19.99, 'month'],
    ['29,00 € pro Monat', 29, 'month'],
    ['49 € / mois', 49, 'month'],
    ['$99 a year', 99, 'year'],
    ['€120 per year', 120, 'year'],
    ['$5 per week', 5, 'week'],
  ];
  for (const [text, value, period] of cases) {
    const product = read(`<div>${text}</div>`);
    assert.equal(product?.price?.value, value, text);
    assert.equal(product?.pricePeriod?.value, period, text);
  }
  // A price per period beside a one-off price: the one-off price is the price.
  const both = read('<div>$499.00</div><div>or $41.58/mo for 12 months</div>');
  assert.equal(both?.price?.value, 499);
  assert.equal(both?.pricePeriod, undefined);
});

test('a price excluding VAT is read as such, beside the price including it when both are shown', () => {
  const cases: [string, number, number, string?][] = [
    ['€100.00 excl. VAT', 100, 100],
    ['100,00 € HT', 100, 100, 'fr'],
    ['84,03 € zzgl. MwSt.', 84.03, 84.03, 'de'],
    ['£120.00 inc. VAT\n£100.00 ex. VAT', 120, 100],
    ['119,00 € inkl. MwSt.\n100,00 € exkl. MwSt.', 119, 100, 'de'],
  ];
  for (const [text, value, exclTax, lang] of cases) {
    const product = read(`<div>${text.replace('\n', '</div><div>')}</div>`, lang);
    assert.equal(product?.price?.value, value, text);
    assert.equal(product?.priceExclTax?.value, exclTax, text);
  }
  assert.equal(read('<div>£24.99</div>')?.priceExclTax, undefined);
});
