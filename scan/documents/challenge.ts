// Bot walls in what a store sent (docs/checks.md §5): challenge markers of the common firewalls and bot managers,
// and a page's title read straight from a body. Used by the access checks, the agents matrix and the browser view.
import type { HttpResponse } from '../artifacts.js';
import { is2xx } from './resources.js';

const STRONG_MARKERS: [string, string][] = [
  ['<title>just a moment', 'Cloudflare "Just a moment" challenge'],
  ['cf-chl-', 'Cloudflare challenge script'],
  ['challenge-platform', 'Cloudflare challenge platform'],
  ['<title>attention required! | cloudflare', 'Cloudflare block page'],
  ['captcha-delivery.com', 'DataDome captcha'],
  ['px-captcha', 'PerimeterX captcha'],
  ['_pxcaptcha', 'PerimeterX captcha'],
  ['_incapsula_resource', 'Imperva/Incapsula challenge'],
  ['<title>access denied</title>', 'Access denied page'],
];
// Weak markers appear on ordinary pages too (reCAPTCHA on a newsletter form), so they count only on error answers.
const WEAK_MARKERS: [string, string][] = [
  ['captcha', 'captcha'],
  ['turnstile', 'Cloudflare Turnstile'],
  ['datadome', 'DataDome'],
  ['perimeterx', 'PerimeterX'],
  ['just a moment', '"Just a moment"'],
  ['are you a robot', '"Are you a robot"'],
  ['verify you are human', '"Verify you are human"'],
];

/** Why this response is a bot challenge, or null. `baseline` = the neutral answer, whose markers do not count. */
export function challengeMarker(res: HttpResponse | null, baseline?: HttpResponse | null): string | null {
  if (!res) return null;
  if ((res.headers['cf-mitigated'] ?? '').toLowerCase().includes('challenge')) return 'cf-mitigated: challenge';
  const body = res.body.slice(0, 65_536).toLowerCase();
  const base = baseline ? baseline.body.slice(0, 65_536).toLowerCase() : '';
  for (const [needle, name] of STRONG_MARKERS) if (body.includes(needle) && !base.includes(needle)) return name;
  if (!is2xx(res.status)) {
    for (const [needle, name] of WEAK_MARKERS) if (body.includes(needle) && !base.includes(needle)) return name;
  }
  return null;
}

/** The page title read straight from a body (for blocked answers that were not parsed). */
export function titleOf(res: HttpResponse | null): string | null {
  if (!res) return null;
  const head = res.body.slice(0, 65_536);
  const lower = head.toLowerCase();
  const open = lower.indexOf('<title');
  if (open < 0) return null;
  const start = lower.indexOf('>', open);
  const end = lower.indexOf('</title', start);
  if (start < 0 || end < 0) return null;
  const t = head.slice(start + 1, end).replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}
