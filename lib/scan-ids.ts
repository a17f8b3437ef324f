// Scan ids that cannot be guessed and still sort in the order scans were made: a sequence number (the store's counter)
// times 2^24, plus 24 random bits. Knowing one report's id does not lead to the next: each neighbour is one of about
// 16.7 million numbers. Ids stay integers (the specification's scan_id) below Number.MAX_SAFE_INTEGER for 2^29
// sequence numbers, and every id made this way is larger than the sequential ids of earlier releases, which keep
// working as they are.
import { randomInt } from 'node:crypto';

const RANDOM_SPAN = 2 ** 24;

/** The scan id of sequence number `sequence` (1, 2, 3 … from the store's counter). */
export function scanIdOf(sequence: number, random: number = randomInt(RANDOM_SPAN)): number {
  const id = sequence * RANDOM_SPAN + random;
  if (!Number.isSafeInteger(id) || sequence < 1) throw new Error(`scan id sequence out of range: ${sequence}`);
  return id;
}

/** The sequence number an id was made from; an id of an earlier release (sequential, below 2^24) is its own. */
export function sequenceOf(id: number): number {
  return id >= RANDOM_SPAN ? Math.floor(id / RANDOM_SPAN) : id;
}
