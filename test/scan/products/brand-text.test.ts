// The brand as the visible page writes it. Every text below is a run of lines of the visible text of a real page in
// the shared fixture corpus (product-extraction-benchmark, MIT, © 2021 Zyte; the file is named at each case), cut
// where shown with "…"; the page tests read the whole pages and skip when the corpus is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brandInLabelSentence, brandKey, brandNextToTitle, isSellerName, sellerNames, titleNamesBrand } from '../../../scan/products/brand-text.js';
import { parsePage } from '../../../scan/documents/html.js';
import { extractProduct } from '../../../scan/products/product.js';
import { readRealFixture, requireRealFixtures, stripMarkup } from '../../helpers/artifacts.js';

const at = (text: string, title: string) => text.indexOf(title);

test('"… Marca: X" at the end of a short line names the brand when the title carries X', () => {
  // shopify-mediamarktpt-microwave-jsonld-microdata-og.html
  const text = 'Microondas Panasonic NN-K35HWMEBG 800W 23L\n1 cliente deixou uma avaliação acerca deste produto - Ver avaliação\nVer mais artigos da Marca: Panasonic\nMicro-ondas Panasonic NN-K35HWMEPG de 23 litros , Função Grill';
  assert.equal(brandInLabelSentence(text, 'Microondas Panasonic NN-K35HWMEBG 800W 23L'), 'Panasonic');
  // The title does not name it: no brand from the sentence (it may be a link to another maker's range).
  assert.equal(brandInLabelSentence(text, 'Aspirador Robot Roborock S6 Pure Preto'), undefined);
  assert.equal(brandInLabelSentence(text, null), undefined);
});

test('the brand line by the title: repeated over the cards of the same brand, or opening the title', () => {
  // sfcc-bestseller-ie-cardigan-jsonld-lowercase-types-variants.html: under the title, and over each recommendation
  const bestseller = 'Choose Another Region\nZIPPED THROUGH CARDIGAN\nJACK & JONES\n€ 49,99\nShipping Methods\n…\nYOU MIGHT ALSO LIKE\nFISHERMAN ZIP CARDIGAN\nJACK & JONES\n€ 49,99 € 39,95\nColours (2)\nTEXTURED KNITTED PULLOVER\nJACK & JONES\n€ 39,99\nColours (9)';
  assert.equal(brandNextToTitle(bestseller, at(bestseller, 'ZIPPED'), 'ZIPPED THROUGH CARDIGAN'), 'JACK & JONES');
  // zalando-ie-bag-jsonld-relative-urls.html: over the title (printed twice), and over the cards
  const zalando = 'Sale\n−16 %\nKids\nTommy Hilfiger\nMILKSHAKE CROSSOVER - Across body bag\nMILKSHAKE CROSSOVER - Across body bag\n16% off\n€41.30\n…\nTommy Hilfiger\nFollow\nReviews\n…\n−16 %\nKids\nTommy Hilfiger\nYOUTH REPORTER - Across body bag - white\n€41.30 €49.10';
  assert.equal(brandNextToTitle(zalando, at(zalando, 'MILKSHAKE'), 'MILKSHAKE CROSSOVER - Across body bag'), 'Tommy Hilfiger');
  // otto-de-pressurewasher-microdata-gtin13.html: the line over the title opens the title
  const otto = 'Startseite\nBaumarkt\nReinigungsgeräte\nHochdruckreiniger\nKÄRCHER\nKÄRCHER Hochdruckreiniger »K 3 Full Control«\n* * * * / (68) anzeigen >\n…\nÄhnliche Artikel\n<\n>\nKÄRCHER\nHochdruckreiniger »K 3 Full Control Home T 350«';
  assert.equal(brandNextToTitle(otto, at(otto, 'KÄRCHER Hoch'), 'KÄRCHER Hochdruckreiniger »K 3 Full Control«'), 'KÄRCHER');
});

test('the title\'s opening words when the page prints the rest of the title without them', () => {
  // currys-ie-selfiestick-jsonld-og-price.html: the breadcrumb drops the brand the heading opens with
  const currys = 'Popular Brands\nHome › Cameras and camcorders › Photography accessories › Camera Accessories › EUSELFIEW Selfie Stick - Black & Silver\nRETRAK EUSELFIEW Selfie Stick - Black & Silver\nProduct code: 141677\nVideo';
  assert.equal(brandNextToTitle(currys, at(currys, 'RETRAK'), 'RETRAK EUSELFIEW Selfie Stick - Black & Silver'), 'RETRAK');
  // A category word is written as a word, not as a brand: never taken, even when the rest appears alone.
  const category = 'Microondas Panasonic NN-K35HWMEBG 800W 23L\nO conjunto perfeito\nPanasonic NN-K35HWMEBG 800W 23L';
  assert.equal(brandNextToTitle(category, 0, 'Microondas Panasonic NN-K35HWMEBG 800W 23L'), undefined);
});

test('breadcrumbs, sentences and labelled lines next to the title are no brand', () => {
  // ikea-gb-sofabed-jsonld-outofstock-reviews.html: the last breadcrumb over the title, printed once
  const ikea = 'Products\nFurniture\nBeds\nSofa-beds\nChair beds\nVALLENTUNA Sofa-bed module with backrests\nSorry, your browser is not supported';
  assert.equal(brandNextToTitle(ikea, at(ikea, 'VALLENTUNA'), 'VALLENTUNA Sofa-bed module with backrests'), undefined);
  // krauta-ee-remote-jsonld-soldout.html: an instruction over the title, a labelled code under it
  const krauta = 'Klikkige pildil suuremaks vaateks.\nPult Eglo Fueva-C 32732 Bluetooth\nTootekood: 000051366425\nVabandame, antud toode pole hetkel saadaval.';
  assert.equal(brandNextToTitle(krauta, at(krauta, 'Pult'), 'Pult Eglo Fueva-C 32732 Bluetooth'), undefined);
});

test('a seller or shop the page names is never the brand', () => {
  // ebay-com-item-microdata.html: the seller's name under its heading, with a feedback count
  const ebay = sellerNames('Learn more - eBay Money Back Guarantee - opens in new window or tab\nSeller information\nphoenixemporium (8116 )\n100% Positive feedback');
  assert.ok(isSellerName('phoenixemporium', ebay), [...ebay].join());
  const store = sellerNames('phoenixemporium (8116 )\n99.5%\nSign up for newsletter\nVisit Store: Phoenix Emporium\nCategories');
  assert.ok(isSellerName('Phoenix Emporium', store), [...store].join());
  // mobly-br-bed-jsonld-js-loaded-price-gr-rdfa.html: the brand row, then who sells and delivers it
  const mobly = sellerNames('Formas de pagamento\nMarca: Palemax\nEste produto é vendido e entregue por Casatema');
  assert.ok(isSellerName('Casatema', mobly), [...mobly].join());
  assert.ok(!isSellerName('Palemax', mobly));
  // "Seller Fulfilled Prime" in a footer menu names no seller (amazon-couk-watch-no-structured-data.html).
  assert.deepEqual([...sellerNames('Fulfilment by Amazon\nSeller Fulfilled Prime\nAdvertise Your Products')], []);
});

test('brands compare without case, typographic apostrophes or trailing dots; the written form is kept', () => {
  assert.equal(brandKey('KÄRCHER'), brandKey('Kärcher')); // otto-de-pressurewasher-microdata-gtin13.html writes it in capitals
  assert.equal(brandKey('Levi’s'), brandKey("LEVI'S"));
  assert.equal(brandKey('Procter & Gamble Co.'), brandKey('procter  &  gamble co'));
  assert.notEqual(brandKey('B&S'), brandKey('BS'));
  // johnlewis-uk-speaker-jsonld-no-context-lowercase-type.html: the title carries the brand as a whole word only
  assert.ok(titleNamesBrand('Google Nest Mini Hands-Free Smart Speaker, 2nd Gen, Chalk', 'google'));
  assert.ok(!titleNamesBrand('Google Nest Mini Hands-Free Smart Speaker, 2nd Gen, Chalk', 'Nes'));
  // A brand row keeps the form the page writes ("… Co."), read by the product reader as is.
  const product = extractProduct(parsePage('<h1>Tide Pods</h1><p>$19.99</p><button>Add to cart</button><table><tr><td>Brand:</td><td>Procter &amp; Gamble Co.</td></tr></table>', 'https://shop.example/products/tide'));
  assert.equal(product?.brand?.value, 'Procter & Gamble Co.');
});

const STRIPPED: { file: string; brand: string }[] = [
  { file: 'shopify-mediamarktpt-microwave-jsonld-microdata-og.html', brand: 'Panasonic' },
  { file: 'sfcc-bestseller-ie-cardigan-jsonld-lowercase-types-variants.html', brand: 'JACK & JONES' },
  { file: 'zalando-ie-bag-jsonld-relative-urls.html', brand: 'Tommy Hilfiger' },
  { file: 'otto-de-pressurewasher-microdata-gtin13.html', brand: 'KÄRCHER' },
  { file: 'currys-ie-selfiestick-jsonld-og-price.html', brand: 'RETRAK' },
  { file: 'amazon-couk-watch-no-structured-data.html', brand: 'CIGA Design' },
];

for (const p of STRIPPED) {
  test(`the brand of a real page from its text alone: ${p.file}`, (t) => {
    const dir = requireRealFixtures(t);
    if (!dir) return;
    const product = extractProduct(parsePage(stripMarkup(readRealFixture(dir, `pages/${p.file}`)), 'https://shop.example/item/1'));
    assert.deepEqual(product?.brand, { value: p.brand, source: 'html' });
  });
}
