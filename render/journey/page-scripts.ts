// The scripts the buying journey runs inside the page. Like render/page-scripts.ts they are plain functions
// serialised by playwright-core (nothing from this module is in scope there), word lists come in as regex sources,
// and every value they return is written by the page: render/page-data.ts parses it before use.
// Elements the journey acts on are marked with data-sr-journey="<what>-<k>", so playwright-core presses them with
// real input events.

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const CSS: any;
declare function getComputedStyle(el: any): any;

/** The home page's site search field, marked "search-0": how it was recognised and whether it shows, or null. */
export function markSearchField(): { kind: string; visible: boolean } | null {
  const tries: [string, string][] = [
    ['[role=search] input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=checkbox])', 'a search landmark'],
    ['input[type=search]', 'a search field'],
    ['form input[name=q]:not([type=hidden])', 'a form with a q field'],
    ['form[action*=search] input[type=text], form[action*=search] input:not([type])', 'a search form'],
    ['input[name=s]:not([type=hidden]), input[name=search]:not([type=hidden]), input[name=query]:not([type=hidden]), input[name=keywords]:not([type=hidden])', 'a search field'],
  ];
  let hidden: any = null;
  let hiddenKind = '';
  for (const [selector, kind] of tries) {
    for (const el of Array.from(document.querySelectorAll(selector) as ArrayLike<any>).slice(0, 20)) {
      if (el.disabled || el.readOnly) continue;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width > 0 && box.height > 0 && style.visibility !== 'hidden') {
        el.setAttribute('data-sr-journey', 'search-0');
        return { kind, visible: true };
      }
      if (!hidden) [hidden, hiddenKind] = [el, kind];
    }
  }
  if (!hidden) return null;
  hidden.setAttribute('data-sr-journey', 'search-0');
  return { kind: hiddenKind, visible: false };
}

/** How many links on the page lead to the product (its path, or a path ending in its last segment). */
export function linksTo(productPath: string): number {
  const strip = (p: string) => p.replace(/\/+$/, '').toLowerCase();
  const path = strip(productPath);
  const slug = path.split('/').pop() ?? '';
  let n = 0;
  for (const a of Array.from(document.querySelectorAll('a[href]') as ArrayLike<any>).slice(0, 5000)) {
    try {
      const p = strip(new URL(a.getAttribute('href'), document.baseURI).pathname);
      if (p === path || (slug.length >= 4 && p.endsWith(`/${slug}`))) n++;
    } catch {
      /* not a URL */
    }
  }
  return n;
}

/**
 * Visible controls whose name (aria-label, text, value, title) matches `words` and not `never`, marked
 * "<what>-<k>" (open shadow roots included). With `layered`, only controls inside a dialog or a fixed or sticky layer
 * (a cookie wall, a modal); `prefer`, when given, names the scope searched first (a cart drawer).
 */
export function markNamedControls(what: string, words: string, never: string | null, opts: { layered?: boolean; links?: boolean; prefer?: string | null; max?: number }): { k: number; name: string; tag: string }[] {
  const match = new RegExp(words, 'i');
  const refuse = never ? new RegExp(never, 'i') : null;
  const inLayer = (el: any) => {
    for (let at = el; at && at !== document.body && at.nodeType === 1; at = at.parentElement ?? at.getRootNode?.().host) {
      const role = at.getAttribute('role');
      if (at.tagName === 'DIALOG' || role === 'dialog' || role === 'alertdialog' || at.getAttribute('aria-modal') === 'true') return true;
      const position = getComputedStyle(at).position;
      if (position === 'fixed' || position === 'sticky') return true;
    }
    return false;
  };
  const roots: any[] = [];
  if (opts.prefer) roots.push(...Array.from(document.querySelectorAll(opts.prefer) as ArrayLike<any>).slice(0, 5));
  roots.push(document);
  for (const host of Array.from(document.querySelectorAll('*') as ArrayLike<any>).slice(0, 5000)) if (host.shadowRoot) roots.push(host.shadowRoot);
  const selector = opts.links ? 'a[href], [role=link]' : 'button, a[href], [role=button], [role=link], input[type=submit], input[type=button]';
  const out: { k: number; name: string; tag: string }[] = [];
  const seen = new Set<any>();
  for (const root of roots) {
    for (const el of Array.from(root.querySelectorAll(selector) as ArrayLike<any>).slice(0, 3000)) {
      if (seen.has(el)) continue;
      seen.add(el);
      const name = `${el.getAttribute('aria-label') ?? ''}`.trim() || `${el.textContent ?? ''}`.replace(/\s+/g, ' ').trim() || `${el.value ?? ''}`.trim() || `${el.getAttribute('title') ?? ''}`.trim();
      const short = name.slice(0, 80);
      if (!match.test(short) || (refuse && refuse.test(short))) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || el.disabled || el.getAttribute('aria-disabled') === 'true') continue;
      if (opts.layered && !inLayer(el)) continue;
      el.setAttribute('data-sr-journey', `${what}-${out.length}`);
      out.push({ k: out.length, name: short, tag: `${el.tagName}`.toLowerCase().slice(0, 20) });
      if (out.length >= (opts.max ?? 5)) return out;
    }
  }
  return out;
}

/**
 * The required choices of the buy control's product (the control's form, or the nearest block holding choices):
 * selects showing a placeholder, radio groups and swatch groups with nothing chosen when the choice is required or
 * the buy control waits for it. The first available option of each is marked "choice-<k>"; a choice with no
 * available option is named in `unavailable`.
 */
export function markChoices(buySelector: string, buyDisabled: boolean, soldOutWords: string): {
  choices: { k: number; kind: 'select' | 'radio' | 'swatch'; label: string; option: string; value: string }[];
  unavailable: string[];
} {
  const soldOut = new RegExp(soldOutWords, 'i');
  const hasChoices = (el: any) => el?.querySelector?.('select, input[type=radio], [role=radio], [aria-pressed], [aria-checked]');
  const buy = document.querySelector(buySelector);
  let scope: any = buy?.form ?? buy?.closest?.('form') ?? null;
  if (!scope || !hasChoices(scope)) {
    scope = buy?.parentElement ?? null;
    for (let i = 0; i < 6 && scope && !hasChoices(scope); i++) scope = scope.parentElement;
  }
  scope ??= document.querySelector('main') ?? document.body;
  const text = (s: unknown, n = 60) => `${s ?? ''}`.replace(/\s+/g, ' ').trim().slice(0, n);
  // A label's own words, without the text of the options it wraps.
  const ownText = (label: any) => (label ? Array.from(label.childNodes as ArrayLike<any>).filter((n) => n.nodeType === 3).map((n) => n.textContent).join(' ') : null);
  const labelOf = (el: any) => {
    const byFor = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null;
    return text(el.getAttribute('aria-label') ?? (ownText(byFor ?? el.closest('label')) || el.getAttribute('name')));
  };
  const choices: ReturnType<typeof markChoices>['choices'] = [];
  const unavailable: string[] = [];
  const mark = (el: any, c: Omit<(typeof choices)[number], 'k'>) => {
    el.setAttribute('data-sr-journey', `choice-${choices.length}`);
    choices.push({ k: choices.length, ...c });
  };
  const own = (list: any[]) => list.filter((el) => scope.contains(el) || (scope.tagName === 'FORM' && el.form === scope));
  const all = (selector: string) => own(Array.from(document.querySelectorAll(selector) as ArrayLike<any>).slice(0, 300));

  for (const select of all('select').slice(0, 10)) {
    if (select.disabled) continue;
    const current = select.options[select.selectedIndex];
    if (current && current.value !== '' && !current.disabled) continue; // a choice is already made
    const pick = Array.from(select.options as ArrayLike<any>).find((o) => o.value !== '' && !o.disabled && !soldOut.test(o.textContent ?? ''));
    if (!pick) unavailable.push(labelOf(select) || 'a choice');
    else mark(select, { kind: 'select', label: labelOf(select), option: text(pick.textContent), value: text(pick.value, 200) });
  }

  const groups = new Map<string, any[]>();
  for (const radio of all('input[type=radio]')) groups.set(radio.name ?? '', [...(groups.get(radio.name ?? '') ?? []), radio]);
  for (const [name, list] of groups) {
    if (list.some((r) => r.checked) || !(buyDisabled || list.some((r) => r.required))) continue;
    const pick = list.find((r) => !r.disabled && !soldOut.test(labelOf(r)));
    if (!pick) unavailable.push(text(name) || 'a choice');
    else mark(pick, { kind: 'radio', label: text(name), option: labelOf(pick), value: text(pick.value, 200) });
  }

  const swatchGroups = new Map<any, any[]>();
  for (const s of all('[role=radio], [aria-pressed], [aria-checked]')) {
    if (s.tagName === 'INPUT' || s === buy) continue;
    const group = s.closest('[role=radiogroup]') ?? s.parentElement;
    swatchGroups.set(group, [...(swatchGroups.get(group) ?? []), s]);
  }
  const on = (s: any) => s.getAttribute('aria-checked') === 'true' || s.getAttribute('aria-pressed') === 'true';
  for (const [group, list] of swatchGroups) {
    if (list.length < 2 || list.some(on)) continue;
    const required = group?.getAttribute?.('aria-required') === 'true';
    if (!buyDisabled && !required) continue;
    const pick = list.find((s) => !s.disabled && s.getAttribute('aria-disabled') !== 'true' && !soldOut.test(`${s.textContent ?? ''} ${s.getAttribute('aria-label') ?? ''}`));
    const label = text(group?.getAttribute?.('aria-label'));
    if (!pick) unavailable.push(label || 'a choice');
    else mark(pick, { kind: 'swatch', label, option: text(pick.getAttribute('aria-label') ?? pick.textContent), value: '' });
  }
  return { choices: choices.slice(0, 10), unavailable: unavailable.slice(0, 10) };
}

/** The number the cart link or badge shows (the largest one, "Cart (2)", a badge "2"), or null when none shows one. */
export function cartCount(cartWords: string): number | null {
  const words = new RegExp(cartWords, 'i');
  let best: number | null = null;
  const candidates = document.querySelectorAll('a[href], button, [aria-label], [class*=cart], [id*=cart], [class*=basket], [class*=bag], [data-cart-count]');
  for (const el of Array.from(candidates as ArrayLike<any>).slice(0, 3000)) {
    const about = `${el.getAttribute('href') ?? ''} ${el.id ?? ''} ${el.getAttribute('class') ?? ''} ${el.getAttribute('aria-label') ?? ''}`.slice(0, 400);
    if (!words.test(about)) continue;
    const shown = `${el.getAttribute('data-cart-count') ?? ''} ${el.textContent ?? ''} ${el.getAttribute('aria-label') ?? ''}`.slice(0, 200);
    const m = /(?:^|[^\d.,])(\d{1,3})(?![\d.,])/.exec(shown);
    if (m) best = Math.max(best ?? 0, Number(m[1]));
  }
  return best;
}

/** A visible dialog, drawer or mini-cart whose text names the product: a short description of it, or null. */
export function layerNaming(productName: string): string | null {
  const key = productName.toLowerCase().replace(/\s+/g, ' ').trim().slice(0, 40);
  if (key.length < 2) return null;
  const selector = 'dialog[open], [role=dialog], [aria-modal=true], [class*=drawer], [id*=drawer], [class*=minicart], [class*=mini-cart], [id*=minicart], [class*=cart-notification], [class*=cart-popup], aside';
  for (const el of Array.from(document.querySelectorAll(selector) as ArrayLike<any>).slice(0, 200)) {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width < 40 || box.height < 40 || box.right <= 0 || box.left >= window.innerWidth || style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
    if (!`${el.innerText ?? ''}`.toLowerCase().replace(/\s+/g, ' ').includes(key)) continue;
    const id = el.id ? `#${el.id}` : '';
    const cls = `${el.getAttribute('class') ?? ''}`.trim().split(/\s+/)[0];
    return `<${`${el.tagName}`.toLowerCase()}${id}${cls ? `.${cls}` : ''}>`.slice(0, 120);
  }
  return null;
}

/** Does the visible text of the page name the product? */
export function pageNames(productName: string): boolean {
  const key = productName.toLowerCase().replace(/\s+/g, ' ').trim().slice(0, 40);
  return key.length >= 2 && `${document.body?.innerText ?? ''}`.slice(0, 300_000).toLowerCase().replace(/\s+/g, ' ').includes(key);
}

/** Would pressing this control submit a form that holds personal or payment fields? Then the journey never does. */
export function submitsPersonalData(selector: string): boolean {
  const el = document.querySelector(selector);
  const form = el?.form ?? el?.closest?.('form');
  if (!form) return false;
  for (const input of Array.from(form.elements as ArrayLike<any>).slice(0, 500)) {
    const type = `${input.getAttribute('type') ?? ''}`.toLowerCase();
    const auto = `${input.getAttribute('autocomplete') ?? ''}`.toLowerCase();
    const named = `${input.getAttribute('name') ?? ''} ${input.id ?? ''}`.toLowerCase();
    if (type === 'email' || type === 'password' || type === 'tel') return true;
    if (/\b(email|tel|name|given-name|family-name|street-address|address-line\d|address-level\d|postal-code|cc-[a-z-]+|bday)\b/.test(auto)) return true;
    if (/card|cvc|cvv|iban|password|passwort|e-?mail/.test(named)) return true;
  }
  return false;
}

/** What the page the checkout control led to holds: fields by autocomplete, frames, captchas, sign-in and guest words. */
export function readLanding(guestWords: string, wallWords: string, humanWords: string): {
  fields: string[];
  password: boolean;
  frames: string[];
  captcha: string | null;
  human: boolean;
  guest: boolean;
  wall: boolean;
} {
  const tokens = ['email', 'shipping', 'billing', 'street-address', 'address-line1', 'postal-code', 'tel', 'given-name', 'family-name', 'cc-number', 'cc-exp', 'cc-csc', 'cc-name'];
  const fields = new Set<string>();
  let password = false;
  for (const input of Array.from(document.querySelectorAll('input, select, textarea') as ArrayLike<any>).slice(0, 1000)) {
    const auto = `${input.getAttribute('autocomplete') ?? ''}`.toLowerCase().split(/\s+/);
    for (const t of tokens) if (auto.includes(t)) fields.add(t);
    const type = `${input.getAttribute('type') ?? ''}`.toLowerCase();
    if (type === 'email') fields.add('email');
    const box = input.getBoundingClientRect();
    if (type === 'password' && box.width > 0 && box.height > 0) password = true;
  }
  const frames: string[] = [];
  for (const f of Array.from(document.querySelectorAll('iframe[src]') as ArrayLike<any>).slice(0, 50)) {
    try {
      frames.push(new URL(f.getAttribute('src'), document.baseURI).hostname.slice(0, 100));
    } catch {
      /* not a URL */
    }
  }
  const has = (selector: string) => document.querySelector(selector) !== null;
  const captcha = has('.g-recaptcha, iframe[src*="recaptcha"], script[src*="recaptcha"]')
    ? 'reCAPTCHA'
    : has('.h-captcha, iframe[src*="hcaptcha.com"], script[src*="hcaptcha.com"]')
      ? 'hCaptcha'
      : has('.cf-turnstile, iframe[src*="challenges.cloudflare.com"], script[src*="challenges.cloudflare.com"]')
        ? 'Cloudflare Turnstile'
        : null;
  const text = `${document.title ?? ''}\n${document.body?.innerText ?? ''}`.slice(0, 50_000);
  return {
    fields: [...fields].slice(0, 20),
    password,
    frames: frames.slice(0, 20),
    captcha,
    human: new RegExp(humanWords, 'i').test(text),
    guest: new RegExp(guestWords, 'i').test(text),
    wall: new RegExp(wallWords, 'i').test(text),
  };
}

/** The product's name as the rendered page gives it: its Product JSON-LD, og:title, or the first heading. */
export function productName(): string | null {
  for (const s of Array.from(document.querySelectorAll('script[type="application/ld+json"]') as ArrayLike<any>).slice(0, 20)) {
    try {
      const data = JSON.parse(s.textContent ?? '');
      for (const node of [data, ...(Array.isArray(data?.['@graph']) ? data['@graph'] : [])].flat()) {
        if (node && /Product/.test(`${node['@type']}`) && typeof node.name === 'string') return node.name.slice(0, 200);
      }
    } catch {
      /* not JSON */
    }
  }
  const og = document.querySelector('meta[property="og:title"]')?.getAttribute('content');
  const h1 = document.querySelector('h1')?.textContent;
  const name = `${og ?? h1 ?? ''}`.replace(/\s+/g, ' ').trim();
  return name ? name.slice(0, 200) : null;
}

/**
 * The journey's pages open no other tab: `window.open` answers null and a link or form aimed at another window does
 * nothing. A tab a page opens could run its scripts before the journey's request guard (guard.ts) reaches it (seen on a loaded machine: a
 * store's popup posted its checkout form unrouted while the journey's tab refused the same request); an agent walks
 * one tab anyway. Set in every frame before the page's own scripts run.
 */
export function keepToOneTab(): void {
  const elsewhere = (target: string | null | undefined) => !!target && !/^_(self|top|parent)$/i.test(target);
  try {
    Object.defineProperty(window, 'open', { value: () => null, writable: false, configurable: false });
  } catch {
    // already fixed by an earlier run of this script in the same window
  }
  const stop = (event: any, target: string | null | undefined) => {
    if (!elsewhere(target)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  document.addEventListener('click', (event: any) => {
    const link = typeof event.target?.closest === 'function' ? event.target.closest('a[target], area[target]') : null;
    if (link) stop(event, link.getAttribute('target'));
  }, true);
  document.addEventListener('submit', (event: any) => {
    const form = event.target?.tagName === 'FORM' ? event.target : null;
    if (form) stop(event, event.submitter?.getAttribute('formtarget') ?? form.getAttribute('target'));
  }, true);
}
