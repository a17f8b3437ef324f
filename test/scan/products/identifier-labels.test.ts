// Every identifier on a product page, with kind and source. The text snippets are lines of the visible text of the
// real pages in the shared fixture corpus (product-extraction-benchmark, MIT, © 2021 Zyte; file named at each case);
// the page tests run the whole reader on those pages and skip when the corpus is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePage } from '../../../scan/documents/html.js';
import { extractProduct } from '../../../scan/products/product.js';
import type { ProductIdentifier } from '../../../scan/artifacts.js';
import { PLACEHOLDER, labelledIdentifiers, markupIdentifiers, mergeIdentifiers, metaIdentifiers, rowValue, urlIdentifiers } from '../../../scan/products/identifier-labels.js';
import { readRealFixture, requireRealFixtures, stripMarkup } from '../../helpers/artifacts.js';

const pick = (ids: ProductIdentifier[]) => ids.map((i) => `${i.kind}:${i.value}:${i.source}`);

test('labelled rows in store languages, each with its kind', () => {
  const cases: [string, string, string[]][] = [
    // amazon-couk-watch-no-structured-data.html: a spec table read as "label : value" lines and "label value" lines
    ['amazon', 'Manufacturer : CIGA Design\nASIN : B07C8KMQQ6\nItem model number : Z Series DLC\nModel number Z Series DLC\nPart Number Z031-BLBL-5BK\nModel Year 2020\nItem Shape Rectangle',
      ['asin:B07C8KMQQ6:labelled_text', 'mpn:Z031-BLBL-5BK:labelled_text', 'model:Z Series DLC:labelled_text']],
    // opencart-vsezaoci-si-no-structured-data.html (Slovenian "Šifra")
    ['opencart', 'Proizvajalec: B&S\nŠifra: 0638\nRazpoložljivost: Dobavljivo', ['sku:0638:labelled_text']],
    // krauta-ee-remote-jsonld-soldout.html (Estonian "Tootekood")
    ['krauta', 'Pult Eglo Fueva-C 32732 Bluetooth\nTootekood: 000051366425\nVabandame, antud toode pole hetkel saadaval.', ['sku:000051366425:labelled_text']],
    // johnlewis-uk-speaker-jsonld-no-context-lowercase-type.html: the value on the line under its label
    ['johnlewis', 'Product code: 83810610\nSecond Generation\nManufacturer Part Number (MPN)\nGA00638-GB\nModel name / number',
      ['mpn:GA00638-GB:labelled_text', 'sku:83810610:labelled_text']],
    // pcstore-tw-no-structured-data.html: a bracketed Chinese label
    ['pcstore', '〈商品編號：M14876706〉\n獲得現金積點：24 點 (1點=1元) 說明', ['sku:M14876706:labelled_text']],
    // mobly-br-bed-jsonld-js-loaded-price-gr-rdfa.html (Portuguese "Modelo")
    ['mobly', 'Conteúdo da Embalagem 1 Sommier e 1 Colchão\nModelo PA-849-2020-KIT\nMaterial Molas', ['model:PA-849-2020-KIT:labelled_text']],
    // argos-uk-camera-microdata-mainentityofpage.html: the EAN in the description, a full stop after it
    ['argos', "Manufacturer's 2 year guarantee.\nEAN: 6935364088101.\nView document (PDF)", ['gtin:6935364088101:labelled_text']],
    // ebay-com-item-microdata.html: the marketplace's item number is the retailer's code
    ['ebay', 'eBay item number:\n302474151804\nSeller assumes all responsibility for this listing.', ['retailer_code:302474151804:labelled_text']],
  ];
  for (const [name, text, want] of cases) assert.deepEqual(pick(labelledIdentifiers(text, 0)), want, name);
});

test('item-specifics tables: one cell per value, and the marketplace placeholders are no values', () => {
  // ebay-com-item-microdata.html: cells printed on one line ("Type: Blood Theme: Halloween")
  const ebay = 'Item specifics\nCondition:\nNew with tags: A brand-new, unused, and unworn item\nMPN:\nFake Wounds\nType: Blood Theme: Halloween';
  assert.deepEqual(pick(labelledIdentifiers(ebay, 0)), ['mpn:Fake Wounds:labelled_text']);
  assert.equal(rowValue('Blood Theme: Halloween'), 'Blood');
  assert.equal(rowValue('Z Series DLC'), 'Z Series DLC');
  for (const v of ['Does Not Apply', 'Unbranded', 'N/A', 'Markenlos', 'Sans marque']) assert.ok(PLACEHOLDER.test(v), v);
  assert.ok(!PLACEHOLDER.test('NA-1200'));
  assert.deepEqual(pick(labelledIdentifiers('MPN:\nDoes Not Apply\nBrand:\nUnbranded', 0)), []);
});

test('a product code printed with spaces fills its cell; the part number fact takes a worded MPN row', (t) => {
  // naysk-weatherstation-jsonld-instock-vs-visible-oos.html: "Product code: GARNI 570 EASY II"
  assert.deepEqual(pick(labelledIdentifiers('Ostatné\nKód produktu: GARNI 570 EASY II\nVšetky parametre', 0)), ['sku:GARNI 570 EASY II:labelled_text']);
  // Prose after a code is not part of it.
  assert.deepEqual(pick(labelledIdentifiers('Product code: 141677 is our own number', 0)), ['sku:141677:labelled_text']);
  const dir = requireRealFixtures(t);
  if (!dir) return;
  const read = (file: string) => extractProduct(parsePage(stripMarkup(readRealFixture(dir, `pages/${file}`)), 'https://shop.example/item/1'));
  assert.deepEqual(read('ebay-com-item-microdata.html')?.mpn, { value: 'Fake Wounds', source: 'html' });
  assert.deepEqual(read('naysk-weatherstation-jsonld-instock-vs-visible-oos.html')?.sku, { value: 'GARNI 570 EASY II', source: 'html' });
  // The model row comes before the part number row on this page: the first after the title is the fact.
  assert.deepEqual(read('amazon-couk-watch-no-structured-data.html')?.mpn, { value: 'Z Series DLC', source: 'html' });
});

test('"Model Year 2020" is not a model; before the title only "Label: value" rows count', () => {
  // amazon-couk-watch-no-structured-data.html
  assert.deepEqual(pick(labelledIdentifiers('Model Year 2020\nItem Shape Rectangle', 0)), []);
  const text = 'Model S3000 deals\nShop\nTrail Boot\nModel: S3000';
  assert.deepEqual(pick(labelledIdentifiers(text, text.indexOf('Trail Boot'))), ['model:S3000:labelled_text']);
  assert.deepEqual(pick(labelledIdentifiers('Model: S3000\nTrail Boot', 20)), ['model:S3000:labelled_text']);
});

test('markup codes: sku, mpn, every gtin property, productID with or without a prefix; OpenGraph product tags', () => {
  const entity = (props: Record<string, string[]>) => ({ types: ['Product'], props, source: 'microdata' as const });
  // otto-de-pressurewasher-microdata-gtin13.html: gtin13, sku and productID "sku:2800395267"
  const otto = markupIdentifiers([entity({ gtin13: ['4054278533728'], sku: ['2800395267'], productID: ['sku:2800395267'] })]);
  assert.deepEqual(pick(mergeIdentifiers(otto)), ['gtin:4054278533728:markup', 'sku:2800395267:markup']);
  // johnlewis: "productId" in the store's own casing, a store number
  assert.deepEqual(pick(markupIdentifiers([entity({ productId: ['4781720'] })])), ['retailer_code:4781720:markup']);
  // magento-almedina-book-microdata-messy-og-product.html: the retailer id is an ISBN-13, which agents match as a GTIN
  const og = metaIdentifiers({ 'product:retailer_item_id': ['9780552173742'] });
  assert.deepEqual(pick(mergeIdentifiers(og)), ['gtin:9780552173742:markup']);
});

test('the URL\'s product id counts only when the page shows the same value', () => {
  assert.deepEqual(pick(urlIdentifiers('https://www.amazon.co.uk/dp/B07C8KMQQ6', 'ASIN B07C8KMQQ6', [])), ['asin:B07C8KMQQ6:url']);
  assert.deepEqual(pick(urlIdentifiers('https://shop.example/some-book-1605177813.html', 'Ref 1605177813', [])), ['retailer_code:1605177813:url']);
  // A number in the URL the page never shows, specs in a slug ("800w", "158x198x61cm") and dates are no ids.
  assert.deepEqual(urlIdentifiers('https://shop.example/some-book-1605177813.html', 'The One Device', []), []);
  assert.deepEqual(urlIdentifiers('https://mediamarkt.pt/products/micro-ondas-panasonic-nn-k35hwmebg-800w-23l', 'Microondas 800W 23L', []), []);
  assert.deepEqual(urlIdentifiers('https://shop.example/cama-158x198x61cm-preto', 'Dimensões 158x198x61cm', []), []);
  // A value already known from markup is listed once, under its markup reading.
  const known: ProductIdentifier[] = [{ value: '302474151804', kind: 'retailer_code', source: 'labelled_text' }];
  assert.deepEqual(pick(mergeIdentifiers(known, urlIdentifiers('https://www.ebay.com/itm/302474151804', '', known))), ['retailer_code:302474151804:labelled_text']);
});

const PAGES: { file: string; url: string; has: string[]; sku: string | null }[] = [
  // Every code is in the list; the single sku fact takes the labelled row's where the markup's is nowhere on the page.
  { file: 'currys-ie-selfiestick-jsonld-og-price.html', url: 'https://www.currys.ie/ieen/retrak-euselfiew-selfie-stick-black-silver-10134622-pdt.html', has: ['sku:10134622:markup', 'sku:141677:labelled_text'], sku: '141677' },
  { file: 'johnlewis-uk-speaker-jsonld-no-context-lowercase-type.html', url: 'https://www.johnlewis.com/google-nest-mini/chalk/p4781720', has: ['retailer_code:4781720:markup', 'mpn:GA00638-GB:labelled_text', 'sku:83810610:labelled_text'], sku: '83810610' },
  { file: 'amazon-couk-watch-no-structured-data.html', url: 'https://www.amazon.co.uk/dp/B07C8KMQQ6', has: ['asin:B07C8KMQQ6:labelled_text', 'model:Z Series DLC:labelled_text'], sku: 'B07C8KMQQ6' },
  { file: 'argos-uk-camera-microdata-mainentityofpage.html', url: 'https://www.argos.co.uk/product/4667999', has: ['sku:4667999:markup', 'gtin:6935364088101:labelled_text'], sku: '4667999' },
];

for (const p of PAGES) {
  test(`every identifier of a real page: ${p.file}`, (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const product = extractProduct(parsePage(readRealFixture(dir, `pages/${p.file}`), p.url));
    assert.ok(product);
    const ids = pick(product.identifiers);
    for (const want of p.has) assert.ok(ids.includes(want), `${want} in ${ids.join(', ')}`);
    assert.equal(new Set(product.identifiers.map((i) => i.value.toLowerCase())).size, ids.length, 'each value once');
    assert.equal(product.sku?.value ?? null, p.sku);
  });
}
