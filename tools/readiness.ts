// Readiness-index facts shared by the read tools: the host parameter as the index knows it, the
// agent_ready_verified rule (design/checks.md §9) and the public report link.
import { AppError, scanNextAction } from '../server/errors.js';
import { hostIdentity, isHostName } from '../scan/url.js';
import type { LatestEntry } from '../store/repo.js';

export const VERIFIED_MAX_AGE_DAYS = 90;

/** "https://www.Shop.com/x", "www.shop.com" and "shop.com" all name the index entry "shop.com". */
export function indexHost(raw: string): string {
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
