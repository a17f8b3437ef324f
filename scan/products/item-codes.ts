// The item's SKU and part number where its markup and its visible text name different codes. A code the shopper
// reads in a labelled row ("Product code: 83810610", "MPN: GA00638-GB") outranks a markup code the page never shows
// (an image id, a variant's or a feed's own key): shoppers and agents quote what the page prints. A markup code the
// page also shows, or one the labelled row writes another way ("4667999" for "466/7999"), stands. Pure functions.
import type { FactSource } from '../artifacts.js';
import { shownAsWord } from './identifier-labels.js';

type Picked = { value: string; source: FactSource } | null;

const same = (a: string, b: string): boolean => a.toLowerCase().replace(/[\s./_-]/g, '') === b.toLowerCase().replace(/[\s./_-]/g, '');

/** The markup's code, or the labelled row's when the markup's is nowhere on the page and the row names another. */
export function shownCode(markup: Picked, labelled: string | undefined, visibleText: string): Picked {
  if (!markup || markup.source === 'html' || labelled === undefined || same(markup.value, labelled)) return markup;
  return shownAsWord(visibleText.slice(0, 300_000), markup.value) ? markup : { value: labelled, source: 'html' };
}
