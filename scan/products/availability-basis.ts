// How to say where availability read from the page body came from. A buy button, or a price with no stock warning,
// makes an agent assume "in stock" while the page says nothing about stock: the wording must not claim it does.
import type { AvailabilityBasis } from '../artifacts.js';

export const AVAILABILITY_BASES = ['text', 'buy_button', 'price'] as const satisfies readonly AvailabilityBasis[];

/** A short phrase for tags and one-line summaries: "stated in the page text", "guessed from a buy button". */
export function availabilityBasisPhrase(basis: AvailabilityBasis): string {
  switch (basis) {
    case 'text':
      return 'stated in the page text';
    case 'buy_button':
      return 'guessed from a buy button';
    case 'price':
      return 'guessed from a price shown without a stock warning';
  }
}

/** True when the page states nothing about stock and the value is an agent's assumption. */
export const isGuessedAvailability = (basis: AvailabilityBasis | undefined): boolean => basis === 'buy_button' || basis === 'price';
