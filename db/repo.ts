// The one storage interface of the service (docs/architecture.md "Storage"). Adapters: SQLite (embedded default) and
// MongoDB. Async throughout, even for synchronous SQLite, so both adapters fit. Knows nothing of HTTP or scanning.
import { AppError } from '../lib/errors.js';
import { VERTICALS } from '../schemas/params.js';
import type { AccountRepo } from './accounts-repo.js';

import type { MonitoringRepo } from './monitoring-repo.js';
import type { QueueRepo } from './queue-repo.js';
import type { AuditRepo } from './audit-repo.js';
import type { SigningKeyRepo } from './signing-keys-repo.js';

export interface NewScan {
  host: string; // normalised host identity (lower case, no leading www., port when not default)
  vertical: string | null;
  score: number;
  grade: string;
  capped: boolean;
  /** docs/checks.md §9 rule at scan time: not capped, score ≥ 70, price, availability, live-agent access passing. */
  agentReady: boolean;
  createdAt: Date;
  ownerKeyId: string | null; // the Pro key that ran the scan, if any
  /** The console account the scan belongs to (its key's, or the signed-in person's), if any. */
  ownerAccountId?: string | null;
  report: unknown; // the full ScanResult JSON, exactly as answered
  /**
   * False for a scan of a page that is not the store's entry point (lib/public-entry.ts): stored and readable by
   * id, but never the host's `latest` row, not even on relist. Absent means true.
   */
  publicEntry?: boolean;
  /** Queue the scan's webhook events in the same store step as the scan (db/monitoring-repo.ts). */
  events?: boolean;
}

export interface ScanRecord extends NewScan {
  id: number;
}

/** A stored scan with its report left as the JSON text it is stored as: the UTF-8 bytes, exactly as saved. */
export interface ScanJsonRecord extends Omit<ScanRecord, 'report'> {
  reportJson: Buffer;
}

export interface LatestEntry {
  host: string;
  scanId: number;
  vertical: string | null;
  score: number;
  grade: string;
  capped: boolean;
  agentReady: boolean;
  updatedAt: Date;
}

export interface RankRow extends LatestEntry {
  rank: number;
}

export interface RankWindow {
  host: string;
  rank: number;
  total: number;
  rows: RankRow[]; // up to `above` rows, the host itself, up to `below` rows, in rank order
}

export interface RankWindowOptions {
  above?: number; // default 2
  below?: number; // default 2
  /** Restrict the index to one vertical (null or undefined: the whole index). */
  vertical?: string | null;
  /**
   * Rank the host as if its latest score were this one (used before a new scan is saved, so the stored
   * report already carries its neighbors). The host's current row, if any, is ignored.
   */
  asIf?: { score: number; grade: string };
}

export interface TopStoresOptions {
  vertical?: string | null;
  limit: number;
  offset?: number;
  agentReadyOnly?: boolean;
  /** Only entries updated at or after this instant (agent_ready_verified needs a recent scan). */
  since?: Date;
}

/** Most suggestions one hostsByPrefix call returns (MCP completions carry at most 100 values). */
export const HOST_PREFIX_MAX = 100;
/**
 * How many hosts of a prefix range, in host order, a hostsByPrefix call ranks: the read stays one bounded range
 * of the host index however large the index is. A prefix shared by more hosts ranks the first ones only; one
 * more typed character narrows the range.
 */
export const HOST_PREFIX_WINDOW = 100;

/** The exclusive upper bound of the range of strings starting with `prefix` (hosts are ASCII). */
export const prefixEnd = (prefix: string): string => `${prefix}\uffff`;

/** Refuses a vertical outside the service's list before any store access. */
export function assertVertical(vertical: string): void {
  if (!(VERTICALS as readonly string[]).includes(vertical)) {
    throw new AppError('INVALID_PARAMS', `vertical must be one of: ${VERTICALS.join(', ')}`);
  }
}

export interface ApiKeyRecord {
  id: string; // public key id shown by `keys list`, used by `keys revoke`
  keyHash: string; // sha256 hex of the key; the key itself is never stored
  owner: string;
  plan: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface Repository {
  /** Console accounts, sign-in tokens, sessions and the scans of an account (db/accounts-repo.ts). */
  readonly accounts: AccountRepo;
  readonly monitoring: MonitoringRepo; // history, ownership, monitors, webhooks
  /** Background work claimed with leases, and the per-host pace that keeps it polite (db/queue-repo.ts). */
  readonly queue: QueueRepo;
  /** Deep audits: who asked, how far they got, their results (db/audit-repo.ts). */
  readonly audits: AuditRepo;
  readonly signingKeys: SigningKeyRepo; // the scanner's Web Bot Auth keys (db/signing-keys-repo.ts)
  init(): Promise<void>; // idempotent schema and indexes
  close(): Promise<void>;
  ping(): Promise<void>; // the readiness probe: throws, within a few seconds, when the store cannot be read or take a write

  allocateScanId(): Promise<number>; // integer ids, strictly increasing
  saveScan(scan: ScanRecord): Promise<void>; // insert; move `latest` only when newer and a public entry; one transaction where possible
  getScan(id: number): Promise<ScanRecord | null>;
  /**
   * The same scan with its report as stored JSON bytes, not parsed: for a reader that only forwards the report
   * (parsing and re-serialising it would give the same bytes back).
   */
  getScan(id: number, report: 'json'): Promise<ScanJsonRecord | null>;

  latestByHost(host: string): Promise<LatestEntry | null>; // null when unknown or delisted
  latestByHosts(hosts: string[]): Promise<Map<string, LatestEntry>>; // one round trip; delisted left out
  rankWindow(host: string, opts?: RankWindowOptions): Promise<RankWindow | null>; // null when unknown (and no asIf)
  topStores(opts: TopStoresOptions): Promise<RankRow[]>; // order (score desc, host asc), competition ranks
  countStores(vertical?: string | null): Promise<number>;
  /**
   * Listed hosts starting with `prefix`, best score first (ties by host), at most `limit` (default and ceiling
   * HOST_PREFIX_MAX): an anchored range of the host index, HOST_PREFIX_WINDOW hosts at most. Delisted hosts never
   * appear. For completing host names as they are typed.
   */
  hostsByPrefix(prefix: string, limit?: number): Promise<string[]>;

  setDelisted(host: string, delisted: boolean): Promise<void>;
  /**
   * Moves a listed host's `latest` row to another vertical (its owner's or the operator's choice), with the
   * counts, so that rank windows and index pages per vertical follow at once. False when the host is unknown or
   * delisted (nothing changed); an unknown vertical (schemas/params.ts VERTICALS) is refused with INVALID_PARAMS.
   */
  setVertical(host: string, vertical: string): Promise<boolean>;
  isDelisted(host: string): Promise<boolean>;

  putApiKey(rec: ApiKeyRecord): Promise<void>;
  findApiKey(keyHash: string): Promise<ApiKeyRecord | null>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  revokeApiKey(id: string, at: Date): Promise<boolean>; // false when no such key

  /** Usage counters: `period` is periodOf(the instant the counter stops counting), the same for every window size. */
  incrementUsage(key: string, period: string, by?: number): Promise<number>; // atomic; returns the new total
  getUsage(key: string, period: string): Promise<number>;
  sumUsage(key: string, periods: string[]): Promise<number>; // one round trip
  pruneUsage(periodsBefore: string): Promise<void>; // periods sort as strings; drop those below
}

/**
 * A usage counter's period: the instant it stops counting, zero-padded so that periods sort as strings and one
 * pruneUsage call fits every window size.
 */
export const periodOf = (expiresAtMs: number): string => String(expiresAtMs).padStart(15, '0');
