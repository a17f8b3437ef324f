// Completion values for prompt and resource-template arguments: host names of the readiness index by prefix (one
// bounded range read of the store), or the store categories.
import { VERTICALS } from '../schemas/params.js';
import type { Repository } from '../db/repo.js';
import { MAX_STORES } from './prompts/compare-stores.js';
import type { Completion } from './resources/resource.js';

/** Longest host as typed (a 253-character name plus scheme and www.). Longer input cannot complete to anything. */
const MAX_TYPED_HOST = 270;

/** What was typed, as the start of a host in index form: lower case, no scheme, no leading www. */
function hostPrefix(typed: string): string | null {
  const prefix = typed.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/^www\./, '');
  return prefix.length <= 253 && /^[a-z0-9.:-]*$/.test(prefix) ? prefix : null;
}

async function completeHost(db: Repository, typed: string): Promise<string[]> {
  if (typed.length > MAX_TYPED_HOST) return [];
  const prefix = hostPrefix(typed);
  return prefix === null ? [] : db.hostsByPrefix(prefix);
}

/**
 * The last entry of a comma-separated list is completed; the entries before it are kept as typed. Every value
 * repeats them, so the list is bounded first: at most MAX_STORES entries of host length, or nothing is offered
 * (otherwise a 64 KiB argument would come back a hundred times over).
 */
async function completeHostList(db: Repository, typed: string): Promise<string[]> {
  if (typed.length > MAX_STORES * MAX_TYPED_HOST) return [];
  const cut = typed.lastIndexOf(',') + 1;
  if (typed.slice(0, cut).split(',').length > MAX_STORES) return []; // the list is full: nothing may be added
  const head = cut > 0 ? `${typed.slice(0, cut).trimEnd()} ` : '';
  const done = new Set(typed.slice(0, cut).split(',').map((h) => h.trim().toLowerCase()));
  return (await completeHost(db, typed.slice(cut))).filter((h) => !done.has(h)).map((h) => `${head}${h}`);
}

const completeVertical = (typed: string): string[] => VERTICALS.filter((v) => v.startsWith(typed.trim().toLowerCase()));

export function complete(kind: Completion, db: Repository, typed: string): Promise<string[]> | string[] {
  if (kind === 'host') return completeHost(db, typed);
  if (kind === 'hosts') return completeHostList(db, typed);
  return completeVertical(typed);
}
