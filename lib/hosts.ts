// Host names as the readiness index files them: the identity of a store URL, the bare-host check of path
// parameters, and the normalisation of a host argument. Every layer names stores by host, so this sits in the base.
import { AppError } from './errors.js';

const MAX_HOST_LENGTH = 253;

/** The identity a store is filed under: `https://www.Shop.com/` and `shop.com` are both `shop.com`. */
export function hostIdentity(url: URL): string {
  let host = url.hostname.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.startsWith('www.')) host = host.slice(4);
  return url.port === '' ? host : `${host}:${url.port}`;
}

/** A bare host name with an optional :port, as path parameters carry it (punycode for IDN, no markup). */
export function isHostName(s: string): boolean {
  if (typeof s !== 'string' || s.length === 0 || s.length > MAX_HOST_LENGTH + 6) return false;
  const parts = s.split(':');
  if (parts.length > 2) return false;
  const [host, port] = parts;
  if (port !== undefined && !isPortNumber(port)) return false;
  if (host.length === 0 || host.length > MAX_HOST_LENGTH) return false;
  return host.split('.').every(isLabel);
}

function isLabel(label: string): boolean {
  return /^[a-z0-9-]{1,63}$/i.test(label) && !label.startsWith('-') && !label.endsWith('-');
}

function isPortNumber(port: string): boolean {
  return /^[0-9]{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535;
}

/** "https://www.Shop.com/x", "www.shop.com" and "shop.com" all name the index entry "shop.com". */
export function indexHost(raw: string): string {
  if (isIndexForm(raw)) return raw; // what the parse below gives back for such a string, without a URL parse
  // The URL parser silently drops control characters, which would let "shop.test\u0000" read shop.test.
  if (/[\x00-\x20\x7f]/.test(raw.trim()) || raw.length > 2048) throw invalidHost(raw);
  const trimmed = raw.trim();
  const candidate = /^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    throw invalidHost(raw);
  }
  if (url.username || url.password || (url.pathname !== '/' && !/^https?:\/\//i.test(trimmed))) throw invalidHost(raw);
  const host = hostIdentity(url);
  if (!isHostName(host)) throw invalidHost(raw);
  return host;
}

/**
 * A host already in index form, which the URL parser gives back unchanged: lower-case letters, digits, hyphens and
 * dots making valid labels, no port, no leading "www.", no "xn--" label (the parser checks punycode), and a last
 * label that is not a number (the parser would read the host as an IPv4 address: "1.2.3" is "1.2.0.3").
 */
function isIndexForm(s: string): boolean {
  return (
    s.length <= 253 &&
    LDH_HOST.test(s) &&
    !s.startsWith('www.') &&
    !s.includes('xn--') &&
    !NUMERIC_LABEL.test(s.slice(s.lastIndexOf('.') + 1))
  );
}
/** isHostName without a port, in lower case: labels of 1–63 letters, digits and inner hyphens. */
const LDH_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const NUMERIC_LABEL = /^(?:[0-9]+|0x[0-9a-f]*)$/;

function invalidHost(raw: string): AppError {
  return new AppError('INVALID_PARAMS', `"${raw.slice(0, 80)}" is not a host name. Send a store host such as "shop.example.com".`);
}
