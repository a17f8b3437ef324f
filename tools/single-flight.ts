// One piece of work per key at a time, inside one process: a call that arrives while the work for its key is
// running waits for that work and gets the same answer (or the same error) instead of starting it again.
// Each caller keeps its own cancellation: a caller that goes away stops waiting; the work itself is aborted
// only when no caller is left waiting for it.

interface Flight<T> {
  promise: Promise<T>;
  controller: AbortController;
  waiters: number;
}

export class SingleFlight<T> {
  private readonly flights = new Map<string, Flight<T>>();

  /** How many keys have work running: for tests and logs. */
  get size(): number {
    return this.flights.size;
  }

  /** Is work for this key running (a call now would join it)? */
  has(key: string): boolean {
    return this.flights.has(key);
  }

  /**
   * The answer of `work` for `key`, started now or joined if already running. `work` gets a signal that aborts
   * once every caller's own `signal` has aborted.
   */
  run(key: string, signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortError(signal.reason));
    let flight = this.flights.get(key);
    if (!flight) {
      const controller = new AbortController();
      const started: Flight<T> = { controller, waiters: 0, promise: Promise.resolve().then(() => work(controller.signal)) };
      started.promise
        .finally(() => {
          if (this.flights.get(key) === started) this.flights.delete(key);
        })
        .catch(() => undefined); // every waiter gets the error; this chain only tidies up
      this.flights.set(key, started);
      flight = started;
    }
    return this.wait(key, flight, signal);
  }

  private wait(key: string, flight: Flight<T>, signal: AbortSignal | undefined): Promise<T> {
    flight.waiters++;
    return new Promise<T>((resolve, reject) => {
      let waiting = true;
      const done = (): boolean => {
        if (!waiting) return false;
        waiting = false;
        flight.waiters--;
        signal?.removeEventListener('abort', onAbort);
        return true;
      };
      const onAbort = () => {
        if (!done()) return;
        if (flight.waiters === 0) {
          // Nobody is left to answer: stop the work, and let the next caller start afresh rather than join it.
          if (this.flights.get(key) === flight) this.flights.delete(key);
          flight.controller.abort(signal?.reason);
        }
        reject(abortError(signal?.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (value) => done() && resolve(value),
        (err: unknown) => done() && reject(err),
      );
    });
  }
}

function abortError(reason: unknown): Error {
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const err = new Error(reason instanceof Error ? reason.message : 'The caller went away.');
  err.name = 'AbortError';
  return err;
}
