// The comparison rule of the product-extraction benchmark: which of our extracted values agrees with a ground-truth
// value, field by field. One rule for the corpus test and for the figures the accuracy bench prints.
import type { ProductFacts } from '../../scan/artifacts.js';
import { parsePrice } from '../../scan/products/price.js';

export type GroundTruth = Record<string, Record<string, string[] | string>>;
export const FIELDS = ['price', 'currency', 'availability', 'brand', 'sku', 'gtin', 'mpn'] as const;
export type Field = (typeof FIELDS)[number];

const SYMBOLS: Record<string, string[]> = {
  '€': ['EUR'], '£': ['GBP'], '$': ['USD', 'CAD', 'AUD', 'NZD', 'ARS', 'MXN', 'CLP', 'COP', 'SGD', 'HKD', 'TWD'], 'R$': ['BRL'],
};
const ident = (s: string): string => s.toLowerCase().replace(/[\s./_-]/g, '');
const stock = (s: string): string => (s === 'SoldOut' || s === 'Discontinued' ? 'OutOfStock' : s);

export function agrees(field: Field, truth: string, ours: string | undefined): boolean {
  if (ours === undefined || ours === '') return false;
  switch (field) {
    case 'price': {
      const a = parsePrice(truth);
      const b = parsePrice(ours);
      return a !== null && b !== null && Math.abs(a - b) <= 0.01;
    }
    case 'currency':
      return (SYMBOLS[truth.trim()] ?? [truth.trim().toUpperCase()]).includes(ours.trim().toUpperCase());
    case 'availability':
      return stock(truth) === stock(ours);
    case 'brand':
      return truth.replace(/\s+/g, ' ').trim().toLowerCase() === ours.replace(/\s+/g, ' ').trim().toLowerCase();
    default:
      return ident(truth) === ident(ours);
  }
}

export function ourPrediction(p: ProductFacts | null): Record<Field, string | undefined> {
  return {
    price: p?.price ? String(p.price.value) : undefined,
    currency: p?.currency?.value,
    availability: p?.availability?.value,
    brand: p?.brand?.value,
    sku: p?.sku?.value,
    gtin: p?.gtin?.value,
    mpn: p?.mpn?.value,
  };
}
