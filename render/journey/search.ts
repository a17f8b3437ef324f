// Step `search`: where the home page has a site search, type the product's name into it (the only text the journey
// ever types), press Enter, and see whether the results link to the product. A search that finds nothing is a
// finding, not a stop: the journey goes on to the product page by its address.
import { SEARCH_WORDS } from '../../scan/journey/words.js';
import { linksTo, markNamedControls, markSearchField } from './page-scripts.js';
import { LinksAnswer, NamedControlsAnswer, SearchFieldAnswer } from '../page-data.js';
import { failed, passed, quoted, skipped, type JourneyState, type JourneyTab, type StepOutcome } from './tab.js';

const FIELD = '[data-sr-journey="search-0"]';

export async function search(tab: JourneyTab, state: JourneyState): Promise<StepOutcome> {
  const name = state.name;
  if (!name) return skipped("The product's name could not be read without scripts, so there was nothing to search for.");
  const home = await tab.goto(state.req.homeUrl);
  if (!home.ok) return failed(`The home page did not open: ${home.why}.`);
  await tab.settle();
  let field = await tab.ask(SearchFieldAnswer, null, markSearchField);
  if (!field) return skipped('The home page has no site search (no search landmark, search field or form with a q field).');
  if (!field.visible) {
    // A search field behind a toggle: press the control named "Search", as an agent would.
    const toggles = await tab.ask(NamedControlsAnswer, [], markNamedControls, 'toggle', SEARCH_WORDS.source, null, { max: 1 });
    if (toggles[0]) await tab.page.locator('[data-sr-journey="toggle-0"]').first().click({ timeout: tab.timeout(), noWaitAfter: true }).catch(() => {});
    field = await tab.ask(SearchFieldAnswer, null, markSearchField);
    if (!field?.visible) return failed('The search field stays hidden: no control named "Search" opened it.');
  }
  const covered = await tab.clearWay(state, FIELD);
  if (covered) return failed(`The search field cannot be reached: ${covered.covered}.`);
  const before = tab.page.url();
  try {
    const input = tab.page.locator(FIELD).first();
    await input.fill(name, { timeout: tab.timeout() });
    await input.press('Enter', { timeout: tab.timeout(), noWaitAfter: true });
  } catch (err) {
    return failed(`Could not type into ${field.kind}: ${(err as Error).message.split('\n')[0].slice(0, 120)}.`);
  }
  await tab.afterPress(before, 3000);
  // Results that come in place (a suggestion list) count as well as a results page.
  const path = new URL(state.req.product.url).pathname;
  const links = (await tab.until(async () => (await tab.ask(LinksAnswer, 0, linksTo, path)) || null, 1000)) ?? 0;
  const typed = `Typed ${quoted(name)} into ${field.kind} and pressed Enter`;
  return links > 0 ? passed(`${typed}: the results link to the product.`) : failed(`${typed}: the results do not link to the product.`);
}
