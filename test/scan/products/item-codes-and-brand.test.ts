// The item's own code and brand: a labelled row the shopper reads outranks a markup code the page never shows, labels
// read in the spellings stores print, the product id in the address is the SKU where the page gives no code of its
// own. Each case is a run of text or markup from a page of the shared corpus (product-extraction-benchmark, MIT,
// © 2021 Zyte; file named at each case), cut where shown with "…"; written cases say so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage } from '../../../scan/documents/html.js';
import { extractProduct } from '../../../scan/products/product.js';
import { labelledValues, urlProductId } from '../../../scan/products/identifier-labels.js';
import { shownCode } from '../../../scan/products/item-codes.js';
import { latinBrandInTitle } from '../../../scan/products/brand-text.js';
import identifiersCheck from '../../../scan/checks/product_data/product_identifiers.js';
import { makeArtifacts, makePdp } from '../../helpers/artifacts.js';
import { assertLinear } from '../../helpers/timing.js';

const page = (body: string, head = '', url = 'https://shop.example/p/nest-mini', title = 'Google Nest Mini') =>
  parsePage(`<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body><h1>${title}</h1>${body}</body></html>`, url);
const ld = (props: object) =>
  `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Google Nest Mini', offers: { '@type': 'Offer', price: '49.00', priceCurrency: 'GBP' }, ...props })}</script>`;

test('a labelled row the page prints outranks a markup code it never shows', () => {
  // johnlewis-uk-speaker-jsonld-no-context-lowercase-type.html: the JSON-LD's sku and mpn are an image id.
  const jl = extractProduct(page('<p>£49.00</p><p>Product code: 83810610</p><dl><dt>Manufacturer Part Number (MPN)</dt><dd>GA00638-GB</dd></dl>', ld({ sku: '238368885', mpn: '238368885' })));
  assert.deepEqual(jl?.sku, { value: '83810610', source: 'html' });
  assert.deepEqual(jl?.mpn, { value: 'GA00638-GB', source: 'html' });
  // Both readings stay in the list of codes.
  assert.ok(jl?.identifiers.some((i) => i.value === '238368885' && i.source === 'markup'));
  // A markup code the page shows too stands; so does one the row writes another way ("466/7999" for "4667999").
  assert.deepEqual(shownCode({ value: 'B-100', source: 'json-ld' }, 'X-9', 'Ref B-100\nProduct code: X-9'), { value: 'B-100', source: 'json-ld' });
  assert.deepEqual(shownCode({ value: '4667999', source: 'microdata' }, '466/7999', 'Cat. no 466/7999'), { value: '4667999', source: 'microdata' });
  // Without a labelled row the markup's code stands, shown or not.
  assert.deepEqual(extractProduct(page('<p>£49.00</p>', ld({ sku: '238368885' })))?.sku, { value: '238368885', source: 'json-ld' });
});

test('labels in the spellings stores print: "make/manufacturer", "model name/number", Latvian rows', () => {
  // peb-3d3ee8ebe156.html (craigslist.org)
  const craigslist = 'Indesit Washing Machine 6kg - £50 (Salford)\ncondition: good\nmake/manufacturer: Indesit\nmodel name/number: XWSC61251\nQR Code Link to This Post';
  assert.deepEqual(labelledValues(craigslist, 'model').map((v) => v.value), ['XWSC61251']);
  const ad = extractProduct(page('<p>condition: good</p><p>make/manufacturer: Indesit</p><p>model name/number: XWSC61251</p>', '<meta property="og:type" content="product">', 'https://manchester.craigslist.org/app/d/salford-indesit-washing-machine-6kg/7235216655.html', 'Indesit Washing Machine 6kg'));
  assert.equal(ad?.brand?.value, 'Indesit');
  assert.equal(ad?.mpn?.value, 'XWSC61251');
  // peb-89d10150b9d1.html (elkor.lv): "Ražotājs" (maker), "Ražotāja kods" (maker's code), "Produkta kods" (product code).
  const elkor = extractProduct(
    page('<p>EUR110.00</p><p>Produkta kods 520501927</p><ul><li>Ražotājs</li><li>MONNALISA</li><li>Ražotāja kods</li><li>175004 5066</li></ul>', '<meta property="og:type" content="product">', 'https://www.elkor.lv/lat/monnalisa-rosso-175004-5066.html', 'Soma MONNALISA Rosso'),
  );
  assert.equal(elkor?.brand?.value, 'MONNALISA');
  assert.equal(elkor?.mpn?.value, '175004 5066');
  assert.equal(elkor?.sku?.value, '520501927');
});

test('the product id in the address is the SKU where the page gives no code of its own', () => {
  // The shapes of the corpus's addresses (each a page of the benchmark).
  const ids: [string, string | undefined][] = [
    ['https://dom.1k.by/kitchenappliances-pots/taller/TalleR_TR_1047-1609583.html', '1609583'],
    ['https://www.olx.com.pk/item/infinix-hot-10-6128-wala-box-pack-warranty-wala-iid-1021493409', '1021493409'],
    ['https://www.usedvictoria.com/classified-ad/Casio-FX-991ES-PLUS-C-Scientific-Calculator_36029524', '36029524'],
    ['https://www.liveauctioneers.com/item/94037710_vintage-chanel-double-flap-leather-bag', '94037710'],
    ['https://www.getit.co.il/Prod/144432/', '144432'],
    ['https://www.eduscho.at/massivholz-waschmaschinenregal-p400105394.html', '400105394'],
    ['https://www.johnlewis.com/google-nest-mini-hands-free-smart-speaker-2nd-gen/chalk/p4781720', '4781720'],
    ['https://www.argos.co.uk/product/4667999', '4667999'],
    ['https://www.jumbo.ch/de/servietten-bunte-eier-28110?sku=1357247', '1357247'],
    // Specs, sizes and years in a slug are no ids; nor a short number ending it.
    ['https://mediamarkt.pt/products/micro-ondas-panasonic-nn-k35hwmebg-800w-23l', undefined],
    ['https://shop.example/powerbank-20000', undefined],
    ['https://shop.example/blog/2020/12/03', undefined],
    ['not a url', undefined],
  ];
  for (const [url, id] of ids) assert.equal(urlProductId(url), id, url);
  // peb-572368ce4f3c.html (kids.1k.by, stripped of markup): no row, no data attribute, the address's id.
  const kids = extractProduct(page('<p>502,20 б.р.</p><button>Купить</button>', '', 'https://kids.1k.by/mumsgoods-bagskangaroo/babybjorn/BabyBjorn_One-987929.html', 'Сумка-кенгуру BabyBjorn One'));
  assert.deepEqual(kids?.sku, { value: '987929', source: 'url' });
  assert.ok(kids?.identifiers.some((i) => i.value === '987929' && i.source === 'url'));
  // The product identifiers check judges the markup: an id read from the address is not published for machines.
  const markupless = page('<p>£49.00</p><button>Add to basket</button>', '<meta property="og:type" content="product">', 'https://shop.example/item/4667999');
  const product = extractProduct(markupless);
  assert.equal(product?.sku?.source, 'url');
  assert.equal(identifiersCheck.run(makeArtifacts({ pdps: [makePdp(markupless, product ?? {})] })).status, 'fail');
});

test('brands: a title in another script names its brand in Latin letters; badges and template variables are none', () => {
  // peb-f86ea57a5481.html (dom.1k.by), peb-08b51541ad98.html (market.yandex.ru)
  assert.equal(latinBrandInTitle('Набор посуды TalleR TR-1047'), 'TalleR');
  assert.equal(latinBrandInTitle('Luminarc Набор стаканов Octime 330 мл 6 шт H9811'), 'Luminarc');
  // peb-469894a59bfb.html (getit.co.il): the first Latin word is a code; written: a technical word; a Latin title.
  assert.equal(latinBrandInTitle('מחשב נייח i7 16GB 480SSD'), undefined);
  assert.equal(latinBrandInTitle('Роутер Wi-Fi TP-Link Archer C6'), undefined);
  assert.equal(latinBrandInTitle('Lace-up ankle boots'), undefined);
  assert.equal(extractProduct(page('<p>352,00 – 376,45 б.р.</p>', '<meta property="og:type" content="product">', 'https://dom.1k.by/p/TalleR_TR_1047-1609583.html', 'Набор посуды TalleR TR-1047'))?.brand?.value, 'TalleR');
  // peb-6d4840415e8b.html (ikea.com): "New lower price" over the title and over cards is a badge, not a brand.
  const ikea = `${'<p>New lower price</p><p>RÅSHULT</p><p>£29</p>'.repeat(3)}`;
  assert.equal(extractProduct(page(`<p>New lower price</p><h2>VADHOLMA</h2><p>£50</p>${ikea}`, '<meta property="og:type" content="product">', 'https://www.ikea.com/gb/en/p/vadholma-80402381/', 'VADHOLMA Rack for kitchen island'))?.brand ?? null, null);
  // peb-3ae14333546c.html (kiabi.com): an unfilled template variable in the microdata brand.
  const kiabi = '<div itemscope itemtype="http://schema.org/Product"><meta itemprop="name" content="Google Nest Mini"><meta itemprop="brand" content="$metabrand"></div>';
  assert.equal(extractProduct(page(`${kiabi}<p>£49.00</p>`))?.brand ?? null, null);
});

test('the new label and address patterns stay linear on long hostile input', () => {
  assertLinear('Latin brand in a title', 3_000, (n) => `Набор ${'посуды '.repeat(n)}TalleR`, (t) => latinBrandInTitle(t));
  assertLinear('labels with a slash', 3_000, (n) => 'make/manufacturer: A\nmodel name / number: B1\n'.repeat(n), (t) => labelledValues(t, 'model'));
  assertLinear('address ids', 2_000, (n) => `https://shop.example/${'a-1'.repeat(n)}-123456.html`, (u) => urlProductId(u));
});
