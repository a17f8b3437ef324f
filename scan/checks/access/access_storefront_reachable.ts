// Does the homepage answer a plain automated client with HTML? A 401, a bot challenge or a store password page
// closes the store to every agent (H3 caps the score); a bare 5xx or timeout is an ordinary, uncapped failure.
import { defineCheck } from '../check.js';
import type { HttpResponse, PageFacts } from '../../artifacts.js';
import { blockEvidence } from '../bot-wall.js';
import { challengeMarker } from '../../documents/challenge.js';
import { describe } from '../evidence.js';
import { is2xx, responseOf } from '../../documents/resources.js';
import { hostOf, registrableDomain } from '../../documents/urls.js';

function isPasswordPage(res: HttpResponse, page: PageFacts | null): boolean {
  const onPasswordPath = [res.url, ...res.redirects].some((u) => {
    try {
      return new URL(u, res.requestedUrl).pathname.replace(/\/$/, '').endsWith('/password');
    } catch {
      return false;
    }
  });
  if (onPasswordPath) return true;
  // Shopify's storefront password page posts to /password with a password input.
  return (page?.forms ?? []).some(
    (f) => (f.action ?? '').replace(/\/$/, '').endsWith('/password') && f.inputs.some((i) => i.type === 'password'),
  );
}

export default defineCheck({
  id: 'access_storefront_reachable',
  label: 'Storefront answers automated clients',
  title: 'The storefront answers automated clients with HTML',
  failureTitle: 'Open the storefront to anonymous automated visitors',
  why: 'Every agent starts with a plain HTTP request to your store; a login wall, password page or bot challenge on the homepage means no agent can see anything else.',
  how: 'Make the homepage answer 200 with HTML to a plain HTTP client: turn off the store password/maintenance page, remove login walls from catalogue pages, and make sure your CDN does not challenge every non-browser request. Keep redirects short (http→https→canonical host, at most two hops) and on your own domain.',
  fix: {
    plain: 'Make your home page open for any visitor, automated ones included, because an agent that meets a password page or a login wall sees nothing of your store.',
    effort: 'a few minutes',
    steps: {
      shopify: 'Once the store is open, turn off password protection in Online Store → Preferences, and check that no app puts a login or age wall in front of the whole store.',
      woocommerce: 'Take the site out of "coming soon" or maintenance mode (in WooCommerce settings or your maintenance plugin), and check that no membership plugin hides the catalogue from visitors who are not signed in.',
      bigcommerce: 'Make sure the store is live, not in maintenance mode, in your store settings, and that no app puts a login wall in front of the catalogue.',
      custom: 'Make the home page answer with the page itself (status 200) to a plain request: no login wall, no challenge for every non-browser visitor, and at most two redirects, all on your own domain.',
    },
  },
  run(a) {
    const res = responseOf(a.home);
    if (!res) return { status: 'fail', evidence: `Homepage ${describe(a.home)}: no answer to a plain HTTP client.` };
    const marker = challengeMarker(res);
    if (res.status === 401) {
      return { status: 'fail', capReason: 'H3', evidence: `Homepage ${res.url} asks for credentials (${blockEvidence(res)}).` };
    }
    if (marker) {
      return { status: 'fail', capReason: 'H3', evidence: `Homepage ${res.url} is a bot challenge (${marker}; ${blockEvidence(res)}).` };
    }
    if (isPasswordPage(res, a.homePage)) {
      return { status: 'fail', capReason: 'H3', evidence: `Homepage ${res.requestedUrl} leads to a store password page (${res.url}, ${res.status}).` };
    }
    if (!is2xx(res.status)) {
      return { status: 'fail', evidence: `Homepage ${describe(a.home)} (${blockEvidence(res)}).` };
    }

    const problems: string[] = [];
    if (res.redirects.length > 3) problems.push(`${res.redirects.length} redirects`);
    const home = registrableDomain(hostOf(a.origin) ?? hostOf(res.requestedUrl) ?? '');
    const offsite = [...res.redirects, res.url].find((u) => {
      try {
        return registrableDomain(new URL(u, res.requestedUrl).hostname) !== home;
      } catch {
        return false;
      }
    });
    if (offsite) problems.push(`redirected off ${home} to ${offsite}`);
    if (res.contentType !== 'text/html' && res.contentType !== 'application/xhtml+xml') {
      problems.push(`content type ${res.contentType || 'missing'}, not HTML`);
    }
    const hops = res.redirects.length === 0 ? 'no redirect' : `${res.redirects.length} redirect${res.redirects.length > 1 ? 's' : ''}`;
    if (problems.length > 0) {
      return { status: 'partial', evidence: `Homepage ${res.url} → ${res.status}, but ${problems.join('; ')}.` };
    }
    return { status: 'pass', evidence: `Homepage ${res.url} → ${res.status} ${res.contentType} after ${hops}.` };
  },
});
