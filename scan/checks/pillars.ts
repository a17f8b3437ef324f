// The six pillars of the audit (docs/checks.md §3): id and label, in display order. What each is worth is the sum
// of its checks' points in scan/checks/rubric.ts (pillarMax).
export const PILLARS = [
  { id: 'access', label: 'Agent access' },
  { id: 'discovery', label: 'Discovery' },
  { id: 'product_data', label: 'Product data' },
  { id: 'trust', label: 'Policies & trust' },
  { id: 'protocols', label: 'Agent protocols' },
  { id: 'checkout', label: 'Checkout' },
] as const;

export type PillarId = (typeof PILLARS)[number]['id'];
