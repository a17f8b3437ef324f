// The journey's one tab and what every step does with it: open a page, let it settle, ask it something (parsed at
// the boundary), press a control the way an agent does (never one that would send personal data, and after
// clearing what covers it), all within the current step's share of the time.
import type { Page } from 'playwright-core';
import type { z } from 'zod';
import type { JourneyBlocker } from '../../schemas/journey.js';
import type { JourneyRequest, RenderedBuyControl } from '../../scan/fetching/render.js';
import { DISMISS_WORDS, NEVER_PRESS_WORDS } from '../../scan/journey/words.js';
import { coverAt } from '../page-scripts.js';
import { inPage } from '../render-run.js';
import { withTimeout } from '../with-timeout.js';
import type { JourneyGuard } from './guard.js';
import { markNamedControls, submitsPersonalData } from './page-scripts.js';
import { FlagAnswer, LayerAnswer, NamedControlsAnswer, fromPage } from '../page-data.js';

/** What one step found: its status, what it did in a sentence, and the blocker when it ends the journey. */
export interface StepOutcome {
  status: 'passed' | 'failed' | 'skipped';
  detail: string;
  blocker?: JourneyBlocker;
}

export const passed = (detail: string): StepOutcome => ({ status: 'passed', detail });
export const skipped = (detail: string): StepOutcome => ({ status: 'skipped', detail });
export const failed = (detail: string, blocker?: JourneyBlocker): StepOutcome => ({ status: 'failed', detail, ...(blocker ? { blocker } : {}) });

/** What the steps learn and hand on. */
export interface JourneyState {
  req: JourneyRequest;
  /** The product's name: the sampled page's, or read from the rendered page when the raw one had none. */
  name: string | null;
  /** The buy controls of the rendered product page, marked data-store-readiness-buy="i" there. */
  controls: (RenderedBuyControl & { i: number })[];
  /** The one the journey presses. */
  buy: (RenderedBuyControl & { i: number }) | null;
  /** An overlay pressed away before the dismiss step (on the home page), said by that step. */
  dismissed: string | null;
  /** Where the last step left the cart in view. */
  atCart: 'page' | 'drawer' | null;
  drawer: string | null;
}

/** After load, how long the page may keep the network busy before it counts as settled. */
const SETTLE_MS = 700;
/** How often a condition is looked at while waiting for it. */
const POLL_MS = 150;
/** Among an overlay's controls, accepting goes first: it is what lets the page be used. */
const ACCEPT = /accept|agree|allow|akzept|zustimm|accepter|acept|accett|akkoord|^ok/i;
const MAX_CALL_MS = 5000;

/** "1.5 s" */
export const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/** Quotes page text in a detail: one line, cut. */
export const quoted = (s: string, max = 80): string => `"${s.replace(/\s+/g, ' ').trim().slice(0, max)}"`;

export class JourneyTab {
  private endsAt = 0;

  constructor(
    readonly page: Page,
    readonly guard: JourneyGuard,
  ) {}

  /** Starts a step with `ms` of wall time. */
  begin(ms: number): void {
    this.endsAt = Date.now() + ms;
  }

  /** Time left in the current step. */
  left(): number {
    return Math.max(0, this.endsAt - Date.now());
  }

  /** A playwright-core timeout within the step: at least 100 ms, at most MAX_CALL_MS. */
  timeout(max = MAX_CALL_MS): number {
    return Math.max(100, Math.min(max, this.left()));
  }

  /** A page script's answer, parsed; `fallback` when it fails the schema or does not answer in time. */
  ask<S extends z.ZodType>(schema: S, fallback: z.output<S>, fn: (...args: never[]) => unknown, ...args: unknown[]): Promise<z.output<S>> {
    return fromPage(schema, withTimeout(this.page.evaluate(inPage(fn, ...args)), this.timeout(3000)), fallback);
  }

  /** Opens a URL in the tab: its HTTP status, or why it did not open. */
  async goto(url: string): Promise<{ ok: true; status: number | null } | { ok: false; why: string; blocker: JourneyBlocker }> {
    const timeout = this.timeout(this.left());
    try {
      const response = await this.page.goto(url, { waitUntil: 'domcontentloaded', timeout });
      return { ok: true, status: response?.status() ?? null };
    } catch (err) {
      const e = err as Error;
      if (e.name === 'TimeoutError') return { ok: false, why: `it did not load within ${seconds(timeout)}`, blocker: 'timeout' };
      const loop = /ERR_TOO_MANY_REDIRECTS/.test(e.message);
      return { ok: false, why: loop ? 'it redirected in a loop (too many redirects)' : e.message.split('\n')[0].slice(0, 160), blocker: 'error' };
    }
  }

  /** Lets the page finish loading and its late scripts run (at most SETTLE_MS of network activity after load). */
  async settle(): Promise<void> {
    await this.page.waitForLoadState('load', { timeout: this.timeout() }).catch(() => {});
    await this.page.waitForLoadState('networkidle', { timeout: this.timeout(SETTLE_MS) }).catch(() => {});
  }

  /** After a press: when it leaves the page within `maxMs`, the next page loaded and settled. Whether it left. */
  async afterPress(before: string, maxMs: number): Promise<boolean> {
    const left = await this.page.waitForURL((u) => u.href !== before, { waitUntil: 'commit', timeout: this.timeout(maxMs) }).then(
      () => true,
      () => false,
    );
    if (left) await this.settle();
    return left;
  }

  /** Looks at `check` until it gives something or `maxMs` (within the step) have passed. */
  async until<T>(check: () => Promise<T | null>, maxMs: number): Promise<T | null> {
    const ends = Date.now() + Math.min(maxMs, this.left());
    for (;;) {
      const found = await check();
      if (found !== null || Date.now() + POLL_MS >= ends) return found;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /**
   * Presses the control `selector` marks, as an agent does: never one that submits a form holding personal or
   * payment fields, and after pressing away a cookie wall or modal that covers it. The error that kept it from
   * being pressed, or null.
   */
  async press(state: JourneyState, selector: string): Promise<{ refused: string } | { covered: string } | { error: string } | null> {
    if (await this.ask(FlagAnswer, true, submitsPersonalData, selector)) return { refused: 'pressing it would submit a form that holds personal or payment fields' };
    const blocked = await this.clearWay(state, selector);
    if (blocked) return blocked;
    try {
      await this.page.locator(selector).first().click({ timeout: this.timeout(), noWaitAfter: true });
      return null;
    } catch (err) {
      return { error: (err as Error).message.split('\n')[0].slice(0, 160) };
    }
  }

  /** When a cookie wall or modal covers `selector`, presses it away (said once, in `state.dismissed`); what still covers it, or null. */
  async clearWay(state: JourneyState, selector: string): Promise<{ covered: string } | null> {
    const cover = await this.ask(LayerAnswer, null, coverAt, selector);
    if (!cover) return null;
    const cleared = await this.dismissOverlay(cover, selector);
    if ('covered' in cleared) return cleared;
    state.dismissed ??= cleared.detail;
    return null;
  }

  /** Presses the accept or close control of the layer over `selector` (by its name), then looks again. */
  async dismissOverlay(cover: string, selector: string): Promise<{ detail: string } | { covered: string }> {
    const controls = await this.ask(NamedControlsAnswer, [], markNamedControls, 'dismiss', DISMISS_WORDS.source, NEVER_PRESS_WORDS.source, { layered: true });
    const accept = controls.find((c) => ACCEPT.test(c.name)) ?? controls[0];
    if (!accept) return { covered: `${cover} covers it, with no accept or close control an agent can name` };
    await this.page.locator(`[data-sr-journey="dismiss-${accept.k}"]`).first().click({ timeout: this.timeout(), noWaitAfter: true }).catch(() => {});
    await this.page.waitForLoadState('networkidle', { timeout: this.timeout(500) }).catch(() => {});
    const still = await this.ask(LayerAnswer, null, coverAt, selector);
    if (still) return { covered: `pressed ${quoted(accept.name)}, but ${still} still covers it` };
    return { detail: `${cover} covered the page; pressed ${quoted(accept.name)}, as an agent would` };
  }
}
