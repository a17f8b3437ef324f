// The buy box decides price and stock. Every text below is a run of lines of the visible text of a real page in the
// shared fixture corpus (product-extraction-benchmark, MIT, © 2021 Zyte; file named at each case), cut where shown
// with "…"; the page tests read the whole pages and skip when the corpus is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agreeingStatus } from '../../../scan/products/availability.js';
import { buyBoxAvailability, buyBoxWindow, productStatements } from '../../../scan/products/buy-box.js';
import { parsePage } from '../../../scan/documents/html.js';
import { extractProduct } from '../../../scan/products/product.js';
import { sellingPrice } from '../../../scan/products/price.js';
import consistency from '../../../scan/checks/product_data/product_data_consistency.js';
import { makeArtifacts, makePdp, readRealFixture, requireRealFixtures, stripMarkup } from '../../helpers/artifacts.js';

const box = (text: string, title: string) => buyBoxWindow(text, text.indexOf(title), 6_000);

test('the window ends at the first recommendation heading, in the store\'s language', () => {
  // krauta-ee-remote-jsonld-soldout.html: "Visitors were also interested in the following:" and the cards' prices
  const krauta = 'Pult Eglo Fueva-C 32732 Bluetooth\nTootekood: 000051366425\nVabandame, antud toode pole hetkel saadaval. Kuvame teisi selle tootegrupi tooteid - loodame, et leiate sarnase toote.\nTooteinfo\nKaubamärk Eglo\n…\nKülastajad on olnud huvitatud ka järgnevast:\n71,9 € / tk\nDISKOVALGUSTI QS-14LD LASER\nTOP toode\nRohkem\n49,99 € / tk\nDisco pall KALEIDOSCOPE LED QL-194L, 9W, RGB\nLaos';
  const window = box(krauta, 'Pult Eglo');
  assert.ok(!window.includes('71,9'), window);
  assert.equal(sellingPrice(window), null);
  assert.equal(buyBoxAvailability(window, agreeingStatus), 'OutOfStock');
  // ikea-gb-sofabed-jsonld-outofstock-reviews.html: "Others also viewed"
  const ikea = 'VALLENTUNA\nSofa-bed module with backrests, Murum black\n£515\n(2)\nCoverMurum black\nSave to wish list\nCurrently unavailable online\nCheck in-store stock\nOthers also viewed\nSkip listing\nPrice valid until 17 Jan\nVALLENTUNA\nSofa-bed module\n£290\n£275';
  const ikeaBox = box(ikea, 'VALLENTUNA');
  assert.ok(!ikeaBox.includes('£290'));
  assert.equal(sellingPrice(ikeaBox)?.value, 515);
  assert.equal(buyBoxAvailability(ikeaBox, agreeingStatus), 'OutOfStock');
  // sfcc-bestseller-ie-cardigan-jsonld-lowercase-types-variants.html: "YOU MIGHT ALSO LIKE"
  const bestseller = 'ZIPPED THROUGH CARDIGAN\nJACK & JONES\n€ 49,99\nAdd to Bag\n…\nYOU MIGHT ALSO LIKE\nFISHERMAN ZIP CARDIGAN\nJACK & JONES\n€ 49,99 € 39,95';
  assert.ok(!box(bestseller, 'ZIPPED').includes('39,95'));
});

test('marketplace headings of other products end the window too', () => {
  // amazon-couk-watch-no-structured-data.html and johnlewis-uk-speaker-jsonld-no-context-lowercase-type.html
  const amazon = 'CIGA Design Z-Series DLC Automatic Mechanical Skeleton Watch\n£220.00\nIn stock.\nSponsored\nWhat other items do customers buy after viewing this item?\nPage 1 of 1 Start overPage 1 of 1\n£51.99';
  assert.ok(!box(amazon, 'CIGA').includes('£51.99'));
  const johnlewis = 'Google Nest Mini Hands-Free Smart Speaker, 2nd Gen, Chalk\n£49.00\nCurrently in stock online\nAdd to your basket\nCheck in-store stock\nCustomers went on to buy\nGoogle Nest Hub Hands-Free Smart Speaker with 7" Screen\n£59.00';
  assert.ok(!box(johnlewis, 'Google Nest Mini').includes('£59.00'));
  assert.equal(buyBoxAvailability(box(johnlewis, 'Google Nest Mini'), agreeingStatus), 'InStock');
  // Amazon's wording for an item it no longer stocks: one line, both halves about its absence.
  const gone = "Google Nest Mini\nCurrently unavailable. We don't know when or if this item will be back in stock.\nCustomers also bought\nIn stock";
  assert.equal(buyBoxAvailability(box(gone, 'Google Nest Mini'), agreeingStatus), 'OutOfStock');
});

test('pickup, chat and option statements say nothing about the product', () => {
  // bestbuy-ca-speaker-microdata-rdfa-breadcrumbs.html
  const bestbuy = 'Sorry, live chat isn\'t available right now.\nCheck back another time for expert advice.\nChat is unavailable\nSAVE 150$249.99\n$24999\nSALE ends: December 3, 2020\nAdd to Cart\nPick Up at Store\nSold and shipped by Best Buy\nAvailable to ship\nUnavailable for store pickup\nThis product is currently unavailable to pick up at nearby stores.\nCheck other stores';
  assert.deepEqual(productStatements(bestbuy), []);
  assert.equal(buyBoxAvailability(bestbuy, agreeingStatus), null);
  // zara-ar-perfume-jsonld-ars.html
  const zara = 'Add to cart\nAdd\nComplete order\nComposition and care\nFind your size\nCheck in-store availability\nShipping, Exchanges and Returns\nSHARE\nThe “Check in-store availability” option is temporarily unavailable.';
  assert.equal(buyBoxAvailability(zara, agreeingStatus), null);
});

test('an unavailable statement by the title outranks stock wording further down; a policy note decides nothing', () => {
  // naysk-weatherstation-jsonld-instock-vs-visible-oos.html (Slovak: "the product cannot be bought at the moment")
  const naysk = 'Garni 570 Easy II čierna\n4 Všetky hodnotenia (1)\nVložiť do porovnania\nDo obľúbených\nStrážiť cenu a dostupnosť\nVýrobca: Garni\nMomentálne nie je možné produkt kúpiť, ale je možné ho rezervovať\nDostupné v 1 predajni\nCena:\n54,50 €\nRezervuj v predajni\nDo košíka';
  assert.equal(buyBoxAvailability(box(naysk, 'Garni 570'), agreeingStatus), 'OutOfStock');
  // The same statement by the title, then a carousel's "In stock" 2,000 characters on: the title's statement stands.
  const far = `${naysk}\n${'Popis produktu\n'.repeat(150)}In stock`;
  assert.equal(buyBoxAvailability(box(far, 'Garni 570'), agreeingStatus), 'OutOfStock');
  // pcstore-tw-no-structured-data.html: "to avoid waits for out-of-stock items, ask whether it is in stock first"
  const pcstore = '※ 商品圖檔顏色會因電腦螢幕設定略有差異，以實際商品顏色為準。\n※ 本店商品均與實體商店同步販售，為了避免讓消費者因缺貨與調貨等待太久，請下單前請先詢問是否有現貨。';
  assert.equal(buyBoxAvailability(pcstore, agreeingStatus), null);
});

const PAGES: { file: string; availability: string | null; price: number | null }[] = [
  { file: 'bestbuy-ca-speaker-microdata-rdfa-breadcrumbs.html', availability: 'InStock', price: 249.99 },
  { file: 'zara-ar-perfume-jsonld-ars.html', availability: 'InStock', price: 2190 },
  { file: 'krauta-ee-remote-jsonld-soldout.html', availability: 'OutOfStock', price: null },
  { file: 'naysk-weatherstation-jsonld-instock-vs-visible-oos.html', availability: 'OutOfStock', price: 54.5 },
];

for (const p of PAGES) {
  test(`the buy box of a real page from its text alone: ${p.file}`, (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const product = extractProduct(parsePage(stripMarkup(readRealFixture(dir, `pages/${p.file}`)), 'https://shop.example/item/1'));
    assert.equal(product?.availability?.value ?? null, p.availability);
    assert.equal(product?.price?.value ?? null, p.price);
  });
}

test('markup and the visible buy box disagree: the fact keeps the markup, product_data_consistency names both', (t) => {
  const dir = requireRealFixtures(t);
  if (!dir) return;
  const url = 'https://www.nay.sk/garni-570-easy-ii-cierna';
  const page = parsePage(readRealFixture(dir, 'pages/naysk-weatherstation-jsonld-instock-vs-visible-oos.html'), url);
  const product = extractProduct(page);
  assert.deepEqual(product?.availability, { value: 'InStock', source: 'json-ld' });
  const out = consistency.run(makeArtifacts({ pdps: [makePdp(page, product ?? {})] }));
  assert.equal(out.status, 'fail');
  assert.match(out.evidence, /markup says InStock but the page says "momentálne nie je možné produkt kúpiť"/i);
  // Best Buy's pickup desk and chat are "unavailable"; the speaker is not, and the check says so.
  const bestbuy = parsePage(readRealFixture(dir, 'pages/bestbuy-ca-speaker-microdata-rdfa-breadcrumbs.html'), 'https://www.bestbuy.ca/en-ca/product/x/14551914');
  const ok = consistency.run(makeArtifacts({ pdps: [makePdp(bestbuy, extractProduct(bestbuy) ?? {})] }));
  assert.doesNotMatch(ok.evidence, /markup says/);
});
