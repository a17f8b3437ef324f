// The context a tool call runs in, made the same way for every surface: the app's parts, who calls, the call's
// cancellation and its logger. The logger is made on first use (in practice, on an error).
import type { Logger } from 'pino';
import type { Config } from '../lib/config.js';
import type { Repository } from '../db/repo.js';
import type { ServiceMetrics } from '../lib/metrics.js';
import type { AppState } from './app-state.js';
import type { Caller, ToolContext } from './tool.js';

/** The parts of an app every tool call shares. */
export interface AppParts {
  config: Config;
  db: Repository;
  log: Logger;
  state: AppState;
  /** The app's metrics (default: a new registry); main.ts shares one with the monitoring worker. */
  metrics?: ServiceMetrics;
  /** Test seams for the scanner (injected DNS); never set in production. */
  scanOverrides?: ToolContext['scanOverrides'];
  /** The browser for "what browser agents see" (main.ts makes one when Chromium is installed). */
  renderer?: ToolContext['renderer'];
  /** Signs the scanner's requests (createApp makes it from the keyring unless SIGN_REQUESTS is off). */
  requestSigner?: ToolContext['requestSigner'];
}

export interface CallParts {
  caller: Caller;
  /** Aborts when the caller goes away; only work that reaches out (a scan) needs one. */
  signal?: AbortSignal;
  /** The call's logger, made when first needed; the app's logger when absent. */
  log?: () => Logger;
}

export function toolContext(app: AppParts, call: CallParts): ToolContext {
  let log: Logger | undefined;
  return {
    db: app.db,
    config: app.config,
    get log() {
      return (log ??= call.log?.() ?? app.log);
    },
    caller: call.caller,
    baseUrl: app.config.BASE_URL,
    signal: call.signal,
    metrics: app.metrics,
    scanOverrides: app.scanOverrides,
    renderer: app.renderer,
    requestSigner: app.requestSigner,
    app: app.state,
  };
}
