// A per-instance bound on scans: at most `concurrency` run at once and at most `queue` more wait for a place.
// A call takes its place synchronously, before any quota is counted (ScanGate.reserve), so a full scanner
// refuses it with 503 SCANNER_BUSY having spent nothing; the place is then either used by the scan (run) or
// given back (release) when the call ends some other way (a limiter refusal, a call that joins a running scan).
import { AppError } from '../lib/errors.js';

/** Seconds a refused caller is told to wait: about the time a typical scan takes to free a place. */
export const BUSY_RETRY_AFTER_SECONDS = 10;

export interface Reservation {
  /** Waits for a running place (the reservation holds a queue place meanwhile), runs the work, frees the place. */
  run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Gives the place back if run was never called; does nothing otherwise. */
  release(): void;
}

export class ScanGate {
  private running = 0;
  private reserved = 0; // places taken by calls that have not started waiting or running yet
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly queue: number,
  ) {}

  /** Scans running and places held: for tests and logs. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length + this.reserved };
  }

  /** Takes a place now, or throws 503 SCANNER_BUSY when every running and queue place is taken. */
  reserve(): Reservation {
    if (this.running + this.reserved + this.waiting.length >= this.concurrency + this.queue) throw this.busy();
    this.reserved++;
    let state: 'held' | 'used' | 'released' = 'held';
    return {
      release: () => {
        if (state !== 'held') return;
        state = 'released';
        this.reserved--;
      },
      run: async <T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
        if (state !== 'held') throw new Error('This scan reservation was already used or released.');
        state = 'used';
        this.reserved--;
        await this.acquire(signal);
        try {
          return await work();
        } finally {
          this.free();
        }
      },
    };
  }

  private acquire(signal: AbortSignal | undefined): Promise<void> {
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiting.indexOf(start);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(abortError(signal?.reason));
      };
      const start = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      if (signal?.aborted) return reject(abortError(signal.reason));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(start);
    });
  }

  // The place passes straight to the longest waiting scan, so `running` never dips below what is wanted.
  private free(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  private busy(): AppError {
    return new AppError(
      'SCANNER_BUSY',
      `The scanner is at capacity (${this.concurrency} scans running, ${this.queue} waiting). Nothing was scanned, stored or counted against your quota; try again in ${BUSY_RETRY_AFTER_SECONDS} seconds.`,
      undefined,
      { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
    );
  }
}

function abortError(reason: unknown): Error {
  const err = new Error(reason instanceof Error ? reason.message : 'The caller went away.');
  err.name = 'AbortError';
  return err;
}
