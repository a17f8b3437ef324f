// Readiness-index facts shared by the read tools: the host parameter as the index knows it, the
// agent_ready_verified rule (design/checks.md §9) and the public report link.
import { AppError, scanNextAction } from '../server/errors.js';
import { hostIdentity, isHostName } from '../scan/url.js';
import type { LatestEntry } from '../store/repo.js';

export const VERIFIED_MAX_AGE_DAYS = 90;

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

/** Latest scan not capped, score ≥ 70, price, availability and live-agent access passing, and recent. */
export function agentReadyVerified(entry: Pick<LatestEntry, 'agentReady' | 'updatedAt'>, now = new Date()): boolean {
  const ageDays = (now.getTime() - entry.updatedAt.getTime()) / 86_400_000;
  return entry.agentReady && ageDays <= VERIFIED_MAX_AGE_DAYS;
}

export const reportUrl = (baseUrl: string, scanId: number): string => `${baseUrl}/r/${scanId}`;

export function hostNotScanned(host: string): AppError {
  return new AppError(
    'HOST_NOT_FOUND',
    `${host} has no public readiness report. Its owner can scan it to get one.`,
    scanNextAction(`Scan ${host} to create its readiness report (a scan is meant for the merchant's own store).`, {
      url: `https://${host}`,
    }),
  );
}
