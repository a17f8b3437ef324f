// Step `dismiss_overlay`: where a cookie or consent wall or a modal covers the buy control, press its accept or close
// control by its accessible name, as agents do, and say so. An overlay already pressed away on the home page is
// reported here too.
import { passed, failed, skipped, type JourneyState, type JourneyTab, type StepOutcome } from './tab.js';

export async function dismissOverlay(tab: JourneyTab, state: JourneyState): Promise<StepOutcome> {
  const buy = state.buy;
  if (buy?.coveredBy) {
    const covered = await tab.clearWay(state, `[data-store-readiness-buy="${buy.i}"]`);
    if (covered) return failed(`The buy control cannot be reached: ${covered.covered}.`, 'covered');
    buy.coveredBy = null;
  }
  if (state.dismissed) return passed(`A layer ${state.dismissed}.`);
  return skipped('Nothing covered the search field or the buy control.');
}
