// Test-process tripwire: any socket headed outside 127.0.0.0/8 or ::1 fails with code LOOPBACK_GUARD before a packet
// leaves the machine. It sits below every client (net, tls, http agents), so an SSRF-filter regression fails the
// test instead of reaching the address. Import it first; it patches net.Socket.prototype.connect once.
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

type LookupCallback = (err: Error | null, address?: unknown, family?: number) => void;
type LookupFn = (hostname: string, options: object, callback: LookupCallback) => void;

/** Every destination the guard refused, so tests can assert it stayed silent. */
export const loopbackGuardHits: string[] = [];

const PATCHED = Symbol.for('store-readiness.loopback-guard');

export function isLoopbackAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'loopback';
}

function guardError(destination: string): Error {
  loopbackGuardHits.push(destination);
  return Object.assign(new Error(`LOOPBACK_GUARD: refused to connect to ${destination} (tests stay on loopback)`), {
    code: 'LOOPBACK_GUARD',
  });
}

function listAddresses(address: unknown): string[] {
  if (Array.isArray(address)) return address.map((a: { address: string }) => a.address);
  return typeof address === 'string' ? [address] : [];
}

// Names are resolved inside net after connect() returns, so the guard checks what the lookup hands back.
function guardLookup(inner: LookupFn, hostname: string): LookupFn {
  return (name, options, callback) => {
    inner(name, options, (err, address, family) => {
      if (err) return callback(err);
      const outside = listAddresses(address).find((a) => !isLoopbackAddress(a));
      if (outside !== undefined) return callback(guardError(`${outside} (resolved from ${hostname})`));
      callback(null, address, family);
    });
  };
}

interface ConnectOptions {
  host?: string;
  port?: number;
  path?: string;
  lookup?: LookupFn;
}

function guardOptions(options: ConnectOptions): ConnectOptions {
  if (typeof options.path === 'string' && options.path !== '') return options; // IPC socket, not a network destination (http.Agent passes path: null)
  const host = options.host ?? 'localhost';
  if (net.isIP(host) !== 0) {
    if (!isLoopbackAddress(host)) throw guardError(`${host}:${options.port ?? '?'}`);
    return options;
  }
  const inner = options.lookup ?? (dns.lookup as unknown as LookupFn);
  return { ...options, lookup: guardLookup(inner, host) };
}

function install(): void {
  const proto = net.Socket.prototype as unknown as Record<PropertyKey, unknown> & { connect: (...args: unknown[]) => unknown };
  if (proto[PATCHED]) return;
  const original = proto.connect;
  proto.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    // net.connect() passes an already normalised [options, listener] array tagged with a private symbol: patch it
    // in place so the tag survives; other call forms are (options | port[, host] | path).
    const first = args[0];
    if (Array.isArray(first)) {
      first[0] = guardOptions(first[0] as ConnectOptions);
    } else if (typeof first === 'object' && first !== null) {
      args[0] = guardOptions(first as ConnectOptions);
    } else if (typeof first === 'number' || (typeof first === 'string' && /^[0-9]+$/.test(first))) {
      const host = typeof args[1] === 'string' ? args[1] : undefined;
      const listener = args.find((a) => typeof a === 'function');
      return original.call(this, guardOptions({ port: Number(first), host }), listener);
    }
    return original.apply(this, args);
  };
  proto[PATCHED] = true;
}

install();
