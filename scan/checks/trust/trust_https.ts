// Is the store served over HTTPS with HSTS of at least 180 days? Agent platforms and payment flows refuse plain
// HTTP, and HSTS stops downgrade on the way to checkout.
import { defineCheck } from '../check.js';
import { describe, snippet } from '../evidence.js';
import { responseOf } from '../../documents/resources.js';

const MIN_MAX_AGE = 15_552_000; // 180 days

export default defineCheck({
  id: 'trust_https',
  label: 'HTTPS with HSTS',
  title: 'The store is served over HTTPS with HSTS',
  failureTitle: 'Serve HTTPS with HSTS',
  why: 'Agent platforms and payment flows refuse plain HTTP; HSTS makes sure a shopper handed your link never lands on an insecure page.',
  how: 'Redirect all http requests to https and send `Strict-Transport-Security: max-age=31536000; includeSubDomains`; agent platforms and payment flows refuse plain HTTP.',
  fix: {
    plain: 'Make every page of your store open over a secure connection, so agents and payment providers trust it.',
    effort: 'a few minutes',
    steps: {
      shopify: 'Nothing to install: Shopify serves every store over HTTPS. In Settings → Domains, make sure your primary domain shows SSL as active.',
      woocommerce: 'Ask your host to turn on a free certificate (Let’s Encrypt), then set both addresses in Settings → General to https://.',
      bigcommerce: 'In Settings → Security & privacy, set the storefront to use HTTPS on all pages (the certificate is included).',
      custom: 'Install a certificate (Let’s Encrypt is free), redirect http:// to https:// and add the header below.',
    },
    snippet: 'Strict-Transport-Security: max-age=31536000; includeSubDomains',
  },
  run(a) {
    const res = responseOf(a.home);
    const url = res?.url ?? (a.home.ok ? a.home.res.url : a.home.url);
    if (!url.toLowerCase().startsWith('https://')) {
      return { status: 'fail', evidence: `Homepage ends on plain HTTP: ${res ? `${res.url} → ${res.status}` : describe(a.home)}.` };
    }
    const hsts = res?.headers['strict-transport-security'] ?? '';
    const m = /max-age\s*=\s*"?(\d{1,12})/i.exec(hsts.slice(0, 300));
    const maxAge = m ? Number(m[1]) : null;
    if (maxAge !== null && maxAge >= MIN_MAX_AGE) return { status: 'pass', evidence: `${url}: Strict-Transport-Security: ${snippet(hsts, 120)}.` };
    if (hsts) return { status: 'partial', evidence: `${url}: HSTS max-age ${maxAge ?? 'missing'} is under 180 days (${snippet(hsts, 100)}).` };
    return { status: 'partial', evidence: `${url}: HTTPS without a Strict-Transport-Security header.` };
  },
});
