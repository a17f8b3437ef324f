// What a check is (docs/architecture.md "Add a check"): a declaration plus a pure run(), joined to its row of the
// rubric (scan/checks/rubric.ts) by id. run() gets the scan's artifacts and returns a status with evidence; no network,
// clock or randomness inside.
import type { Artifacts } from '../artifacts.js';
import { rubricRow, type CheckId, type HardBlock, type RubricRow } from './rubric.js';

export type CheckStatus = 'pass' | 'partial' | 'fail';

/** The failures that make other checks moot (scan/checks/root-causes.ts), most fundamental first. */
export const ROOT_CAUSE_IDS = ['storefront_closed', 'robots_block_crawl', 'no_readable_product_page'] as const;
export type RootCauseId = (typeof ROOT_CAUSE_IDS)[number];

export interface CheckOutcome {
  status: CheckStatus;
  evidence: string; // what was seen: URL, status, header or snippet (plain text; escaped where rendered)
  capReason?: HardBlock | null; // a failure that caps the score; a failing hardBlock check caps by default for H1/H2 (score.ts); null: this failure does not
  how?: string; // the fix for this store, when it depends on what was found (the store's protocol version); else def.how
  needs?: 'product_page'; // the check could not judge the store for want of this (no sampled product page)
  blockedBy?: RootCauseId; // set by root-causes.ts, never by a check: the failure that makes this one moot
}

/** What a check file declares: its id, texts and logic. Its pillar, order and points come from the rubric. */
export interface CheckDeclaration {
  id: CheckId; // equals the file name
  label: string; // short name shown in reports ("Valid robots.txt")
  title: string; // the passing state
  failureTitle: string; // the failing state; also the fix title
  why: string; // why a shopping agent cares
  how: string; // the imperative fix, becomes top_fixes[].how
  fix?: MerchantFix; // the fix in a merchant's words; `how` stays the developer's detail
  run(artifacts: Artifacts): CheckOutcome;
}

export const PLATFORMS = ['shopify', 'woocommerce', 'bigcommerce', 'custom'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** The fix as a merchant reads it: what and why in one sentence, the effort, and steps where platforms differ. */
export interface MerchantFix {
  plain: string; // one sentence, no protocol names
  effort: 'a few minutes' | 'about an hour' | 'a day or more';
  steps?: Partial<Record<Platform, string>>; // where the platforms differ; "custom" covers any other site
  snippet?: string; // paste-ready text, offered with a copy button
}

/** A check as the registry runs and the score counts it: the declaration with its row of the rubric. */
export type CheckDef = CheckDeclaration & RubricRow;

export function defineCheck(declaration: CheckDeclaration): CheckDef {
  return { ...declaration, ...rubricRow(declaration.id) };
}
