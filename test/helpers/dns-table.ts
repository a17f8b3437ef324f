// Injected DNS for the fetcher and address-rule tests: a fixed table, looked up case-insensitively as DNS is.
import type { LookupFunction } from '../../outbound/fetch.js';

/** A name's addresses: one, several, or a function called on every lookup (a rebinding name). */
export type DnsEntry = string | string[] | (() => string);

/** A lookup answering from `table` and recording every name asked in `calls`; unknown names fail like getaddrinfo. */
export function tableLookup(table: Record<string, DnsEntry>, calls: string[] = []): LookupFunction {
  return (hostname, options, callback) => {
    calls.push(hostname);
    const entry = table[hostname.toLowerCase()];
    const resolved = typeof entry === 'function' ? [entry()] : typeof entry === 'string' ? [entry] : entry;
    setImmediate(() => {
      if (!resolved) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      const list = resolved.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      if ((options as { all?: boolean }).all) callback(null, list);
      else callback(null, list[0].address, list[0].family);
    });
  };
}
