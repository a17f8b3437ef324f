// Step `checkout`: recognise where the checkout control led — a checkout (address, e-mail or card fields by
// autocomplete, a payment provider's frame, a checkout URL), a sign-in wall (a password field and no guest path), or
// a challenge (reCAPTCHA, hCaptcha, Turnstile, "verify you are human") — and whether a guest path is offered. The
// journey stops here: nothing is typed, nothing submitted.
import { CHECKOUT_PATH, GUEST_WORDS, HUMAN_CHECK_WORDS, PAYMENT_FRAME_HOSTS, SIGN_IN_WALL_WORDS } from '../../scan/journey/words.js';
import type { JourneyRun } from '../../scan/fetching/render.js';
import { readLanding } from './page-scripts.js';
import { LandingAnswer } from '../page-data.js';
import { failed, passed, type JourneyTab, type StepOutcome } from './tab.js';

const NOTHING: ReturnType<typeof LandingAnswer.parse> = { fields: [], password: false, frames: [], captcha: null, human: false, guest: false, wall: false };

export async function checkout(tab: JourneyTab, found: { checkout: JourneyRun['checkout'] }): Promise<StepOutcome> {
  await tab.settle();
  const url = new URL(tab.page.url());
  const seen = await tab.ask(LandingAnswer, NOTHING, readLanding, GUEST_WORDS.source, SIGN_IN_WALL_WORDS.source, HUMAN_CHECK_WORDS.source);
  // An e-mail field alone is also a sign-in form's: the checkout's own fields are the others.
  const checkoutFields = seen.fields.filter((f) => f !== 'email');
  const providers = [...new Set(seen.frames.filter((host) => PAYMENT_FRAME_HOSTS.test(host)))];
  const byPath = CHECKOUT_PATH.test(url.pathname);
  if (seen.human || (seen.captcha && checkoutFields.length === 0)) {
    return failed(`${seen.captcha ? `A ${seen.captcha} challenge` : 'A "verify you are human" page'} stands between the cart and the checkout (${url.host}).`, 'challenge');
  }
  if ((seen.password || seen.wall) && !seen.guest && checkoutFields.length === 0) {
    return failed(`The checkout asks to sign in${seen.password ? ' (a password field)' : ''} and offers no guest path (${url.host}${url.pathname.slice(0, 80)}).`, 'login_required');
  }
  const signals = [
    ...seen.fields.map((f) => `${f} field`),
    ...providers.map((p) => `payment frame from ${p}`),
    ...(byPath ? [`checkout URL ${url.pathname.slice(0, 80)}`] : []),
    ...(seen.captcha ? [`${seen.captcha} on the form`] : []),
  ];
  if (checkoutFields.length === 0 && providers.length === 0 && !byPath && !(seen.fields.includes('email') && !seen.password)) {
    return failed(`The checkout control led to ${url.host}${url.pathname.slice(0, 80)}, which shows no checkout: no address, e-mail or card fields, no payment frame, no checkout address.`, 'no_checkout_control');
  }
  const guest = seen.guest || (!seen.password && seen.fields.length > 0) ? true : seen.password ? false : null;
  found.checkout = { url: url.href.slice(0, 2048), signals: signals.slice(0, 12), guest };
  return passed(`Reached the checkout on ${url.host}: ${signals.slice(0, 6).join(', ')}${guest ? '; no account needed' : guest === false ? '; sign-in offered, no guest path named' : ''}. Stopped here: nothing typed, nothing submitted.`);
}
