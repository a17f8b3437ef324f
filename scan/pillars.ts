// The six pillars of the audit (docs/checks.md §3): id, label, maximum points and display order.
export const PILLARS = [
  { id: 'access', label: 'Agent access', max: 20 },
  { id: 'discovery', label: 'Discovery', max: 15 },
  { id: 'product_data', label: 'Product data', max: 30 },
  { id: 'trust', label: 'Policies & trust', max: 15 },
  { id: 'protocols', label: 'Agent protocols', max: 12 },
  { id: 'checkout', label: 'Checkout', max: 8 },
] as const;

export type PillarId = (typeof PILLARS)[number]['id'];

export const RUBRIC_VERSION = '2026-11.4';
