// Can an agent match the product across stores? A GTIN with a valid length and check digit (an ISBN-10 counts: it
// is one ISBN-13 away from its GTIN), or an MPN with a brand, passes; an SKU alone (store-specific) or a malformed
// GTIN is partial.
import { defineCheck } from '../../check.js';
import type { Fact } from '../../artifacts.js';
import { classifyGtin } from '../../identifiers.js';
import { quote } from '../evidence.js';
import { aggregatePdps } from '../product-pages.js';

/** Identifiers scraped from visible text are not published for machines; only markup counts. */
function fromMarkup(f: Fact<string> | null): Fact<string> | null {
  return f && f.source !== 'html' && f.value.trim() !== '' ? f : null;
}

export default defineCheck({
  id: 'product_identifiers',
  pillar: 'product_data',
  order: 5,
  points: 4,
  partialPoints: 2,
  label: 'GTIN / MPN identifiers',
  title: 'Products carry GTIN or MPN + brand identifiers',
  failureTitle: 'Add GTIN or MPN + brand',
  why: 'Shopping graphs and agents match the same product across stores by GTIN or MPN + brand; without them your offer may not be compared or chosen.',
  how: 'Publish the barcode as `gtin13` (EAN), `gtin12` (UPC) or `gtin` with a valid check digit; if the product has no GTIN, publish `mpn` together with `brand`. Keep `sku` as well. Agents and shopping graphs match products across stores by these identifiers.',
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
