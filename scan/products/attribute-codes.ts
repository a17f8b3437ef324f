// Product codes a page keeps out of its text: data attributes of the product block and its buy button (data-sku,
// data-ean, data-product-no) and hidden inputs of a form (name="sku", name="ean"). Read where neither markup nor a
// labelled row gives the code. Pure functions over the parsed page.
import type { PageFacts } from '../artifacts.js';

export interface AttributeCodes {
  sku?: string;
  gtin?: string;
  mpn?: string;
}

const GTIN_NAMES = /^(?:(?:product-|item-|variant-)?(?:ean|ean13|gtin|gtin8|gtin12|gtin13|gtin14|upc|isbn))$/;
const VARIANT = /^variant-/;
const MPN_NAMES = /^(?:product-|item-|variant-)?mpn$/;
const INPUT_GTIN = /^(?:ean|ean13|gtin\d{0,2}|upc|isbn)$/i;
const INPUT_SKU = /^(?:sku|product[_-]?sku|item[_-]?sku)$/i;
const INPUT_MPN = /^mpn$/i;
// A code: letters, digits and the separators codes use, not a template placeholder ("{{sku}}") or a sentence.
const CODE = /^[\p{L}\p{N}][\p{L}\p{N}._/-]{0,38}[\p{L}\p{N}]$|^\p{N}$/u;
const GTIN = /^\d{8}$|^\d{12,14}$/;

/** The first SKU, GTIN and MPN the page's data attributes and hidden form inputs give, each of its own shape. */
export function attributeCodes(page: PageFacts): AttributeCodes {
  const out: AttributeCodes = {};
  const take = (kind: keyof AttributeCodes, value: string) => {
    const v = value.trim();
    if (out[kind] !== undefined || !CODE.test(v) || (kind === 'gtin' && !GTIN.test(v))) return;
    out[kind] = v;
  };
  // The item's own codes first: a variant's ("data-variant-sku") only where the item has none, and never one of
  // an unchosen option, a swatch or a recommended item.
  const codes = (page.dataCodes ?? []).filter((c) => !c.aside);
  const ofVariant = (c: (typeof codes)[number]) => c.variant === true || VARIANT.test(c.name);
  for (const { name, value } of [...codes.filter((c) => !ofVariant(c)), ...codes.filter(ofVariant)]) {
    if (GTIN_NAMES.test(name)) take('gtin', value);
    else if (MPN_NAMES.test(name)) take('mpn', value);
    else take('sku', value);
  }
  for (const form of page.forms) {
    for (const input of form.inputs) {
      if (input.type !== 'hidden') continue;
      if (INPUT_GTIN.test(input.name)) take('gtin', input.value);
      else if (INPUT_SKU.test(input.name)) take('sku', input.value);
      else if (INPUT_MPN.test(input.name)) take('mpn', input.value);
    }
  }
  return out;
}
