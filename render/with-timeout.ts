// A browser call that may never answer (a hung tab, a stuck process) is raced against a timer.

/** The timer won: the call did not answer in time. */
export class NoAnswer extends Error {}

/** Resolves as `p` does, or rejects with NoAnswer once `ms` have passed. */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoAnswer(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
