// The comparison rule of the product-extraction benchmark: which of our extracted values agrees with a ground-truth
// value, field by field. One rule for the corpus test and for the figures the accuracy bench prints.
import type { ProductFacts } from '../../scan/artifacts.js';
import { parsePrice } from '../../scan/products/price.js';

export type GroundTruth = Record<string, Record<string, string[] | string>>;
export const FIELDS = ['price', 'currency', 'availability', 'brand', 'sku', 'gtin', 'mpn'] as const;
export type Field = (typeof FIELDS)[number];

// Every marker the benchmark's annotators wrote, with the codes it stands for (as printed on the page: "Rs" is the
// rupee of India, Pakistan, Sri Lanka …).
const SYMBOLS: Record<string, string[]> = {
  '€': ['EUR'], '£': ['GBP'], '$': ['USD', 'CAD', 'AUD', 'NZD', 'ARS', 'MXN', 'CLP', 'COP', 'SGD', 'HKD', 'TWD'], 'R$': ['BRL'],
  '₹': ['INR'], Rs: ['INR', 'PKR', 'LKR', 'NPR', 'MUR', 'SCR'], 'zł': ['PLN'], Lei: ['RON', 'MDL'], '₽': ['RUB'], 'ر.س': ['SAR'],
  'тг.': ['KZT'], Kn: ['HRK'], '원~': ['KRW'],
};
const ident = (s: string): string => s.toLowerCase().replace(/[\s./_-]/g, '');
// The benchmark knows two states; schema.org's finer ones fall into them ("Only 2 left" is in stock).
const stock = (s: string): string =>
  s === 'SoldOut' || s === 'Discontinued' ? 'OutOfStock' : s === 'LimitedAvailability' || s === 'OnlineOnly' || s === 'InStoreOnly' ? 'InStock' : s;

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

/** The benchmark pages of the corpus, in MANIFEST order (the first 22 it opened with, then the 40 opened later). */
export function benchmarkPages(manifest: string): { file: string; id: string }[] {
  return [...manifest.matchAll(/^\| `([\w.-]+\.html)`.*`([0-9a-f]{64})`/gm)].map((m) => ({ file: m[1], id: m[2] }));
}

export interface Outcome {
  /** The page's place in MANIFEST order. */
  page: number;
  file: string;
  field: Field;
  agrees: boolean;
  truth: string[];
  ours: string | undefined;
}

/** Each annotated field of each page: does our prediction agree with one of the annotated values? */
export function outcomes(
  pages: readonly { file: string; id: string }[],
  truth: GroundTruth,
  predict: (file: string, url: string) => Record<Field, string | undefined>,
): Outcome[] {
  const out: Outcome[] = [];
  pages.forEach(({ file, id }, page) => {
    const ours = predict(file, String(truth[id].url));
    for (const field of FIELDS) {
      const raw = truth[id][field];
      const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
      if (values.length === 0) continue;
      out.push({ page, file, field, agrees: values.some((v) => agrees(field, v, ours[field])), truth: values, ours: ours[field] });
    }
  });
  return out;
}
