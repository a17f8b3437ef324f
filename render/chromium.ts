// One headless Chromium per instance, started on first use, shared by every render and replaced when it misbehaves
// (it disconnects, or a context does not close in time). Renders wait for a place among RENDER_CONCURRENCY, never
// the event loop: the browser works in its own processes, so reads are not held up by a render.
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import type { ServiceMetrics } from '../lib/metrics.js';
import type { PageRenderer, RenderRequest, RenderRun } from '../scan/fetching/render.js';
import { walkJourney } from './journey/walk.js';
import { renderRun } from './render-run.js';
import { withTimeout } from './with-timeout.js';

export interface ChromiumOptions {
  executablePath: string;
  concurrency: number;
  log?: { warn(obj: unknown, msg?: string): void };
  metrics?: Pick<ServiceMetrics, 'renders' | 'renderSeconds' | 'rendersRunning'>;
}

export interface ChromiumRenderer extends PageRenderer {
  /** The browser's process id while it runs (tests count its processes). */
  readonly pid: number | null;
  close(): Promise<void>;
}

const LAUNCH_TIMEOUT_MS = 30_000;
const CLOSE_TIMEOUT_MS = 5_000;

/** Browser-wide flags: no GPU, no QUIC (UDP would skip the proxy), WebRTC only through the proxy, a bounded JS heap. */
const ARGS = [
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--mute-audio',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--js-flags=--max-old-space-size=256',
];

/** A Chromium renderer, or null when there is no browser at that path (the scan then says the view was not run). */
export function createChromiumRenderer(opts: ChromiumOptions): ChromiumRenderer | null {
  if (opts.concurrency < 1 || !existsSync(opts.executablePath)) return null;
  const limit = pLimit(opts.concurrency);
  let server: BrowserServer | null = null;
  let starting: Promise<Browser> | null = null;
  let closed = false;

  const start = async (): Promise<Browser> => {
    const launched = await chromium.launchServer({
      executablePath: opts.executablePath,
      headless: true,
      // Chromium's sandbox cannot start as root; anywhere else it stays on.
      chromiumSandbox: process.getuid?.() !== 0,
      args: ARGS,
      // Anything not sent through a render's own proxy goes to a port nobody listens on: fail closed.
      proxy: { server: 'http://127.0.0.1:9', bypass: '<-loopback>' },
      timeout: LAUNCH_TIMEOUT_MS,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    server = launched;
    const browser = await chromium.connect(launched.wsEndpoint(), { timeout: LAUNCH_TIMEOUT_MS });
    browser.on('disconnected', () => {
      if (server === launched) void restart('the browser disconnected');
    });
    return browser;
  };

  const browser = (): Promise<Browser> => {
    if (closed) return Promise.reject(new Error('the renderer is closed'));
    return (starting ??= start().catch((err: unknown) => {
      starting = null;
      throw err;
    }));
  };

  /** Ends the current browser process (killed when it does not close in time); the next render starts a new one. */
  const restart = async (why: string): Promise<void> => {
    const old = server;
    if (!old) return;
    server = null;
    starting = null;
    if (!closed) opts.log?.warn({ why }, 'restarting the render browser');
    await withTimeout(old.close(), CLOSE_TIMEOUT_MS).catch(() => old.kill());
  };

  return {
    label: 'headless Chromium',
    get pid() {
      return server?.process().pid ?? null;
    },
    render: (request: RenderRequest): Promise<RenderRun> => {
      // The budget counts from the call: time spent waiting for a place comes out of it, so the scan keeps its time.
      const deadlineAt = Date.now() + request.deadlineMs;
      const measure = opts.metrics ? renderMeasure(opts.metrics) : undefined;
      const rendered = limit(async () => {
        const waited = Date.now() - (deadlineAt - request.deadlineMs);
        const journey = request.journey && { ...request.journey, endsInMs: request.journey.endsInMs - waited };
        const run = await renderRun(await browser(), { ...request, deadlineMs: deadlineAt - Date.now(), journey }, walkJourney);
        if (run.browserUnwell) await restart(run.browserUnwell);
        return run;
      });
      if (measure) rendered.then((run) => measure(run.budgetSpent ? 'budget' : 'rendered'), () => measure('failed'));
      return rendered;
    },
    close: async () => {
      closed = true; // renders still waiting for a place fail fast instead of starting a new browser
      await restart('closing');
    },
  };
}

/** Counts one render from now: the running gauge until it ends, then its outcome and wall time. */
function renderMeasure(metrics: NonNullable<ChromiumOptions['metrics']>): (outcome: string) => void {
  const started = performance.now();
  metrics.rendersRunning.inc();
  return (outcome) => {
    metrics.rendersRunning.dec();
    metrics.renders.inc({ outcome });
    metrics.renderSeconds.observe({ outcome }, (performance.now() - started) / 1000);
  };
}
