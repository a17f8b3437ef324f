// Validation of scan targets: the user's URL (normaliseScanUrl), every redirect hop (targetRefusal), resolved
// addresses (classifyAddress). Pure functions, no I/O:
// the connect-time address check lives in outbound/fetch.ts.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../lib/errors.js';

export const MAX_URL_LENGTH = 2048;
const PRODUCTION_PORTS: readonly number[] = [80, 443];

/** The rules one URL is judged by; fetch.ts adds its test allowlist and port list to the same rules. */
export interface TargetPolicy {
  allowPrivate: boolean;
  allowedPorts: readonly number[] | 'any';
  allowIPAddressList?: readonly string[];
}

/**
 * "Refuse anything whose ipaddr.js range is not unicast" (docs/security.md). Both the raw range and the range after
 * unwrapping IPv4-mapped IPv6 must be unicast, so `::ffff:8.8.8.8` is refused like the filtering agent does.
 */
export function classifyAddress(ip: string): 'allow' | 'deny' {
  const bare = stripBrackets(ip);
  if (!ipaddr.isValid(bare)) return 'deny';
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6' && isIpv4Compatible(parsed as ipaddr.IPv6)) return 'deny';
  const raw = parsed.range();
  const unwrapped = ipaddr.process(bare);
  if (CLOUD_METADATA.has(unwrapped.toNormalizedString())) return 'deny';
  return raw === 'unicast' && unwrapped.range() === 'unicast' ? 'allow' : 'deny';
}

/**
 * Cloud metadata and platform services that sit on addresses ipaddr.js calls unicast (the others, such as
 * 169.254.169.254, fd00:ec2::254, 100.100.100.200 and 192.0.0.192, are already outside unicast).
 */
const CLOUD_METADATA = new Set([
  '168.63.129.16', // Azure WireServer (VM agent, health probes, DNS)
]);

// The deprecated IPv4-compatible form ::a.b.c.d (::/96) hides an IPv4 address, yet ipaddr.js calls it unicast.
function isIpv4Compatible(ip: ipaddr.IPv6): boolean {
  return ip.parts.slice(0, 6).every((part) => part === 0);
}

/** Describes an address class for error details ("loopback", "linkLocal" …). */
export function addressRange(ip: string): string {
  const bare = stripBrackets(ip);
  if (!ipaddr.isValid(bare)) return 'invalid';
  const parsed = ipaddr.process(bare);
  return CLOUD_METADATA.has(parsed.toNormalizedString()) ? 'cloudMetadata' : parsed.range();
}

/** Trims, adds https:// when no scheme is given, and refuses anything the scanner must never fetch. */
export function normaliseScanUrl(raw: string, opts: { allowPrivate: boolean }): URL {
  const input = raw.trim();
  if (input.length === 0) throw invalid('The URL is empty.');
  if (input.length > MAX_URL_LENGTH) throw invalid(`The URL is longer than ${MAX_URL_LENGTH} characters.`);
  const url = parseWithDefaultScheme(input);
  const policy: TargetPolicy = { allowPrivate: opts.allowPrivate, allowedPorts: opts.allowPrivate ? 'any' : PRODUCTION_PORTS };
  const refusal = targetRefusal(url, policy);
  if (refusal) throw invalid(`${refusal}.`);
  url.hash = '';
  return url;
}

/**
 * The scan target, normalised once for the whole scan: the user's URL under the production rules; a test
 * allow-list (allowIPAddressList) admits exactly those addresses on any port and judges everything else as in
 * production (docs/security.md "Test harness"). The scanner judges every redirect hop again (targetRefusal).
 */
export function normaliseScanTarget(
  raw: string,
  opts: { allowPrivate: boolean; allowIPAddressList?: string[]; allowedPorts?: TargetPolicy['allowedPorts'] },
): URL {
  if (opts.allowPrivate || !opts.allowIPAddressList?.length) return normaliseScanUrl(raw, { allowPrivate: opts.allowPrivate });
  const url = normaliseScanUrl(raw, { allowPrivate: true });
  const why = targetRefusal(url, { allowPrivate: false, allowedPorts: opts.allowedPorts ?? 'any', allowIPAddressList: opts.allowIPAddressList });
  if (why) throw invalid(`${why}.`);
  return url;
}

/** Why a URL may not be fetched under the policy, or null when it may. Used for the input and for every hop. */
export function targetRefusal(url: URL, policy: TargetPolicy): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `Only http and https URLs can be scanned, not ${url.protocol.slice(0, 20)}`;
  }
  if (url.username !== '' || url.password !== '') return 'URLs with credentials (user:password@) are not accepted';
  if (url.href.length > MAX_URL_LENGTH) return `The URL is longer than ${MAX_URL_LENGTH} characters`;
  const portRefusal = checkPort(url, policy.allowedPorts);
  if (portRefusal) return portRefusal;
  return checkHost(url.hostname, policy);
}

/** Does the typed address name its scheme? "shop.com:8080" looks like scheme "shop.com"; only "x://" or "x:" not followed by a digit is one. */
export function hasExplicitScheme(input: string): boolean {
  const trimmed = input.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || /^[a-z][a-z0-9+.-]*:(?![0-9])/i.test(trimmed);
}

function parseWithDefaultScheme(input: string): URL {
  const candidate = hasExplicitScheme(input) ? input : `https://${input.replace(/^\/+/, '')}`;
  try {
    return new URL(candidate);
  } catch {
    throw invalid('This is not a valid URL (check the host name and the port, which must be 1-65535).');
  }
}

function checkPort(url: URL, allowed: TargetPolicy['allowedPorts']): string | null {
  const port = effectivePort(url);
  if (port === 0) return 'Port 0 is not a valid port';
  if (allowed === 'any' || allowed.includes(port)) return null;
  return `Port ${port} is not allowed; only ports ${allowed.join(' and ')} can be scanned`;
}

function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

function checkHost(hostname: string, policy: TargetPolicy): string | null {
  const bare = stripBrackets(hostname);
  if (bare.length === 0) return 'The URL has no host';
  if (isIP(bare) !== 0) return checkAddressLiteral(bare, policy);
  if (policy.allowPrivate) return null;
  const name = bare.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return `The host ${name} is local, not a public store`;
  if (!name.includes('.')) return `The host ${name.slice(0, 63)} is not a public domain name`;
  return null;
}

function checkAddressLiteral(ip: string, policy: TargetPolicy): string | null {
  if (policy.allowPrivate || policy.allowIPAddressList?.includes(ip)) return null;
  if (classifyAddress(ip) === 'allow') return null;
  return `The address ${ip} is not public (${addressRange(ip)})`;
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function invalid(message: string): AppError {
  return new AppError('INVALID_URL', message);
}
