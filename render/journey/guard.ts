// What the journey's tab may send. Page loads and reads (GET) go out as the browser view's do, through the
// address-checking proxy; a write (POST, PUT, …) is refused when it would place an order or pay, or carries
// personal or payment data; once the checkout control is pressed, only the navigation it starts and cart updates
// may write; once the checkout is reached (or the journey ends), nothing goes out at all. Every refusal is counted.
import type { BrowserContext, Page, Request, Route } from 'playwright-core';
import { CART_PATH } from '../../scan/journey/words.js';
import { keepToOneTab } from './page-scripts.js';

/** Paths a write to which would place an order or take a payment. */
const ORDER_PATH = /\/(orders?|place[-_]?order|submit[-_]?order|checkouts?\/[^?]*(complete|submit|confirm|payment|process|pay)|payments?|pay|purchase|complete[-_]?order)(\/|\?|\.|$)/i;
/** A body that carries personal or payment data ("email=…", "card_number":…). */
const PERSONAL_BODY = /(e-?mail|password|passwort|card[-_ ]?number|cc[-_]?number|cvc|cvv|iban|phone|street)["']?\s*[=:]/i;
/** A cart write: add, change, update. */
const CART_WRITE = /cart|basket|bag|warenkorb|panier|carrito|carrello|winkelwagen|add[-_]?to[-_]?cart/i;

export type GuardPhase = 'browse' | 'checkout' | 'stopped';

export interface JourneyGuard {
  phase: GuardPhase;
  readonly refused: number;
  /** Cart writes that were answered with 2xx or a redirect, as "POST /cart/add → 303". */
  readonly cartWrites: string[];
  /** Why main-frame navigations failed (net::ERR_TOO_MANY_REDIRECTS, …). */
  readonly navigationFailures: string[];
  /** Refuse everything from now on. */
  stop(): void;
}

export async function guardJourney(context: BrowserContext, page: Page): Promise<JourneyGuard> {
  // Before any of the journey's pages loads (see keepToOneTab); tsx's __name wrappers have no definition in a page.
  await context.addInitScript({ content: `(() => { const __name = (f) => f; (${keepToOneTab.toString()})(); })()` });
  const cartWrites: string[] = [];
  const navigationFailures: string[] = [];
  let refused = 0;
  const guard: JourneyGuard = {
    phase: 'browse',
    get refused() {
      return refused;
    },
    cartWrites,
    navigationFailures,
    stop: () => void (guard.phase = 'stopped'),
  };
  const refuse = (route: Route) => {
    refused++;
    return route.abort('blockedbyclient').catch(() => {});
  };
  await context.route(
    () => true,
    (route: Route, request: Request) => {
      if (guard.phase === 'stopped') return refuse(route);
      const method = request.method();
      if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return route.fallback();
      const path = new URL(request.url()).pathname;
      if (ORDER_PATH.test(path) || PERSONAL_BODY.test(request.postData()?.slice(0, 65_536) ?? '')) return refuse(route);
      const ownNavigation = request.isNavigationRequest() && request.frame() === page.mainFrame();
      if (guard.phase === 'checkout' && !ownNavigation && !CART_PATH.test(path)) return refuse(route);
      return route.fallback();
    },
  );
  page.on('response', (response) => {
    const request = response.request();
    const status = response.status();
    if (request.method() === 'GET' || status < 200 || status >= 400) return;
    const path = new URL(response.url()).pathname;
    if (CART_WRITE.test(path) && cartWrites.length < 20) cartWrites.push(`${request.method()} ${path.slice(0, 100)} → ${status}`);
  });
  page.on('requestfailed', (request) => {
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame() || navigationFailures.length >= 20) return;
    navigationFailures.push((request.failure()?.errorText ?? 'failed').slice(0, 100));
  });
  return guard;
}
