// Can an agent match the product across stores? A GTIN with a valid length and check digit (an ISBN-10 counts: it
// is one ISBN-13 away from its GTIN), or an MPN with a brand, passes; an SKU alone (store-specific) or a malformed
// GTIN is partial.
import { defineCheck } from '../check.js';
import type { Fact } from '../../artifacts.js';
import { classifyGtin } from '../../products/identifiers.js';
import { quote } from '../evidence.js';
import { aggregatePdps } from '../product-pages.js';

/** Identifiers scraped from visible text or the page address are not published for machines; only markup counts. */
function fromMarkup(f: Fact<string> | null): Fact<string> | null {
  return f && f.source !== 'html' && f.source !== 'url' && f.value.trim() !== '' ? f : null;
}

export default defineCheck({
  id: 'product_identifiers',
  label: 'GTIN / MPN identifiers',
  title: 'Products carry GTIN or MPN + brand identifiers',
  failureTitle: 'Add GTIN or MPN + brand',
  why: 'Shopping graphs and agents match the same product across stores by GTIN or MPN + brand; without them your offer may not be compared or chosen.',
  how: 'Publish the barcode as `gtin13` (EAN), `gtin12` (UPC) or `gtin` with a valid check digit; if the product has no GTIN, publish `mpn` together with `brand`. Keep `sku` as well. Agents and shopping graphs match products across stores by these identifiers.',
  fix: {
    plain: 'Publish each product’s barcode (or the maker’s part number with the brand), so shopping assistants can recognise the same product across stores.',
    effort: 'about an hour',
    steps: {
      shopify: 'Fill in the Barcode field of each variant; a developer or a structured data app then adds it to the product data, as not every theme does.',
      woocommerce: 'Fill in the GTIN/EAN/UPC field of each product (recent WooCommerce versions have one, older ones need a plugin) and let your SEO plugin or theme publish it.',
      bigcommerce: 'Fill in the GTIN and MPN fields of each product and variant; a developer adds them to the product data if your theme does not.',
      custom: 'Add gtin13 (EAN) or gtin12 (UPC) with a valid check digit to your product data; without a barcode, add mpn together with brand.',
    },
    snippet: '"gtin13": "4006381333931", "mpn": "ABC-123", "brand": {"@type": "Brand", "name": "Your brand"}',
  },
  run(a) {
    return aggregatePdps(a, ({ product }) => {
      if (!product) return { status: 'fail', evidence: 'no identifiers' };
      const gtin = fromMarkup(product.gtin);
      const mpn = fromMarkup(product.mpn);
      const brand = fromMarkup(product.brand);
      const sku = fromMarkup(product.sku);
      if (gtin && product.gtinValid) return { status: 'pass', evidence: `GTIN ${gtin.value} (${gtin.source})` };
      const code = gtin ? classifyGtin(gtin.value) : null;
      if (gtin && code?.kind === 'isbn10') return { status: 'pass', evidence: `ISBN-10 ${gtin.value} (${gtin.source}), GTIN ${code.gtin}` };
      if (mpn && brand) return { status: 'pass', evidence: `MPN ${quote(mpn.value, 40)} with brand ${quote(brand.value, 40)}` };
      if (gtin) return { status: 'partial', evidence: `GTIN ${quote(gtin.value, 30)} fails the length/check-digit test` };
      if (mpn) return { status: 'partial', evidence: `MPN ${quote(mpn.value, 40)} without a brand` };
      if (sku) return { status: 'partial', evidence: `only SKU ${quote(sku.value, 40)}` };
      return { status: 'fail', evidence: 'no GTIN, MPN or SKU' };
    });
  },
});
