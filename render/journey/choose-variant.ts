// Step `choose_variant`: choose the first available option of every required choice of the product (a select that
// shows a placeholder, a radio group, swatches with aria-pressed or aria-checked, whatever the buy control waits
// for), with real input events, then see whether the buy control can be pressed.
import { SOLD_OUT_WORDS } from '../../scan/journey/words.js';
import { markChoices } from './page-scripts.js';
import { ChoicesAnswer } from '../page-data.js';
import { failed, passed, quoted, skipped, type JourneyState, type JourneyTab, type StepOutcome } from './tab.js';

export async function chooseVariant(tab: JourneyTab, state: JourneyState): Promise<StepOutcome> {
  const buy = state.buy;
  if (!buy) return skipped('There is no buy control to choose for.');
  const marker = `[data-store-readiness-buy="${buy.i}"]`;
  const { choices, unavailable } = await tab.ask(ChoicesAnswer, { choices: [], unavailable: [] }, markChoices, marker, !buy.enabled, SOLD_OUT_WORDS.source);
  const none = unavailable.length > 0 ? `No available option for ${unavailable.map((u) => quoted(u, 40)).join(', ')}` : null;
  if (choices.length === 0) {
    if (none) return failed(`${none}.`, 'variant_unavailable');
    return buy.enabled ? skipped('No choice is required before buying.') : failed('The buy control is disabled, and no choice on the page enables it.', 'variant_unavailable');
  }
  const made: string[] = [];
  for (const c of choices) {
    const el = tab.page.locator(`[data-sr-journey="choice-${c.k}"]`).first();
    const timeout = tab.timeout();
    // A styled radio hides its input: a click event on it is what pressing its label sends.
    const done =
      c.kind === 'select'
        ? el.selectOption({ value: c.value }, { timeout })
        : c.kind === 'radio'
          ? el.check({ timeout: Math.min(timeout, 1000) }).catch(() => el.dispatchEvent('click'))
          : el.click({ timeout, noWaitAfter: true });
    if (await done.then(() => true, () => false)) made.push(`${quoted(c.option, 40)}${c.label ? ` for ${quoted(c.label, 40)}` : ''}`);
  }
  await tab.page.waitForLoadState('networkidle', { timeout: tab.timeout(500) }).catch(() => {});
  buy.enabled = await tab.page.locator(marker).first().isEnabled({ timeout: tab.timeout(1000) }).catch(() => false);
  const chose = made.length > 0 ? `Chose ${made.join(', ')}` : 'Could not make the choices';
  if (!buy.enabled) return failed(`${chose}, but the buy control stayed disabled.${none ? ` ${none}.` : ''}`, 'variant_unavailable');
  return passed(`${chose}.${none ? ` ${none}.` : ''}`);
}
