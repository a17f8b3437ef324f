// The console's frame: the site layout with the console navigation, and the headers every console page sends
// (never cached, no inline script, no framing). Each console page builds its body and calls consolePage.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { html, layout, PRODUCT_NAME, sendPage, type SafeHtml } from '../html.js';
import { csrfField, type SignedIn } from './session.js';

export type { SignedIn };

export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const SCRIPT = readFileSync(new URL('../../public/console.js', import.meta.url));
export const CONSOLE_SCRIPT = SCRIPT;
export const CONSOLE_SCRIPT_PATH = '/assets/console.js';
const SCRIPT_VERSION = createHash('sha256').update(SCRIPT).digest('hex').slice(0, 12);
/** The copy buttons' script, for public pages that show snippets too. */
export const COPY_SCRIPT_SRC = `${CONSOLE_SCRIPT_PATH}?v=${SCRIPT_VERSION}`;

export type ConsoleSection = 'overview' | 'scans' | 'stores' | 'monitors' | 'audits' | 'webhooks' | 'keys' | 'account';

const SECTIONS: [ConsoleSection, string, string][] = [
  ['overview', '/console', 'Overview'],
  ['scans', '/console/scans', 'Scans'],
  ['stores', '/console/stores', 'Stores'],
  ['monitors', '/console/monitors', 'Monitors'],
  ['audits', '/console/audits', 'Audits'],
  ['webhooks', '/console/webhooks', 'Webhooks'],
  ['keys', '/console/keys', 'API keys'],
  ['account', '/console/account', 'Account'],
];

/** A page of the signed-in console: navigation, who is signed in, a sign-out button, then the body. */
export function consolePage(title: string, who: SignedIn, section: ConsoleSection | null, body: SafeHtml): SafeHtml {
  return layout(
    { title: `${title} · Console · ${PRODUCT_NAME}`, nav: null },
    html`<nav class="console-nav" aria-label="Console">
  ${SECTIONS.map(([key, href, label]) => html`<a href="${href}"${section === key ? html` aria-current="page"` : ''}>${label}</a>`)}
  <span class="console-who">${who.account.email}</span>
  <form method="post" action="/console/sign-out">${csrfField(who.csrf)}<button class="button button-quiet" type="submit">Sign out</button></form>
</nav>
${body}
<script src="${CONSOLE_SCRIPT_PATH}?v=${SCRIPT_VERSION}"></script>`,
  );
}

/** A console page for someone not signed in (sign-in, confirm, messages). */
export function publicConsolePage(title: string, body: SafeHtml): SafeHtml {
  return layout({ title: `${title} · ${PRODUCT_NAME}`, nav: null }, html`<section class="card message-card">${body}</section>`);
}

export function sendConsolePage(res: Response, page: SafeHtml, opts: { status?: number; headers?: Record<string, string> } = {}): void {
  sendPage(res, page, {
    status: opts.status,
    cacheControl: 'no-store',
    headers: { 'Content-Security-Policy': CONSOLE_CSP, 'X-Frame-Options': 'DENY', ...opts.headers },
  });
}
