// One journey per store at a time, reused for a while: a scan of a store's root that finds a walk of the same store
// started in the last 10 minutes (finished or still running) takes its result instead of walking again. One board
// per app (tools/app-state.ts); another instance's walks are found in the stored reports.
import { Journey } from '../../schemas/journey.js';

export const JOURNEY_REUSE_MS = 10 * 60_000;
/** Stores remembered at most; the oldest walk is forgotten first. */
const MAX_STORES = 1000;

interface Walk {
  at: number;
  journey: Promise<Journey | null>;
}

export class JourneyBoard {
  private readonly walks = new Map<string, Walk>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The walk of `store` started within the reuse window, or null: walk it now. */
  recent(store: string): Promise<Journey | null> | null {
    const walk = this.walks.get(store);
    return walk && this.now() - walk.at <= JOURNEY_REUSE_MS ? walk.journey : null;
  }

  /** Records the walk of `store` starting now. One that ends without a walked journey is forgotten: the next scan tries again. */
  start(store: string, journey: Promise<Journey | null>): void {
    const walk: Walk = { at: this.now(), journey };
    this.walks.delete(store);
    this.walks.set(store, walk);
    for (const [oldest] of this.walks) {
      if (this.walks.size <= MAX_STORES) break;
      this.walks.delete(oldest);
    }
    const forget = () => void (this.walks.get(store) === walk && this.walks.delete(store));
    journey.then((j) => (!j || j.outcome === 'not_run' ? forget() : undefined), forget);
  }
}

/** A stored journey walked recently enough to be reused (read back through its schema), or null. */
export function reusable(stored: unknown, now: number): Journey | null {
  const parsed = Journey.safeParse(stored);
  const journey = parsed.success ? parsed.data : null;
  return journey && journey.outcome !== 'not_run' && journey.walked_at !== null && now - Date.parse(journey.walked_at) <= JOURNEY_REUSE_MS ? journey : null;
}
