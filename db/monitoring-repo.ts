// The monitoring part of the storage interface: score history, ownership claims, monitors, webhook endpoints,
// the scan-event outbox and webhook deliveries. Both adapters implement it (sqlite/monitoring.ts,
// mongo/monitoring.ts). Work that any instance may pick up (due monitors, outbox rows, deliveries) is claimed with
// a lease by one atomic update, so however many instances poll, each claim goes to exactly one of them.

/** One stored scan without its report: a row of a host's history. */
export interface ScanSummary {
  id: number;
  host: string;
  score: number;
  grade: string;
  capped: boolean;
  agentReady: boolean;
  createdAt: Date;
}

export type VerificationMethod = 'meta' | 'file';

/** An account's claim on a host; verified once the host showed the token. Several accounts may verify one host. */
export interface OwnershipClaim {
  accountId: string; // opaque: the console's account id
  host: string;
  origin: string; // scheme://host[:port] the checks fetch
  token: string; // published by the owner on the site, so not a secret
  createdAt: Date;
  verifiedAt: Date | null;
  method: VerificationMethod | null;
}

export type Cadence = 'daily' | 'weekly';

export interface Monitor {
  id: string;
  accountId: string;
  host: string;
  origin: string;
  cadence: Cadence;
  nextRunAt: Date;
  createdAt: Date;
  lastRunAt: Date | null;
  lastOutcome: string | null; // "scanned", "skipped: …", "failed: …"
  lastScanId: number | null;
}

/** A claimed row: the lease token must be shown to finish it, so a run whose lease ran out cannot overwrite. */
export interface Leased<T> {
  row: T;
  leaseToken: string;
}

export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  events: string[];
  secretEnc: string; // the whsec_ secret, encrypted (monitoring/secrets.ts)
  previousSecretEnc: string | null; // still signs until previousSecretUntil (rotation)
  previousSecretUntil: Date | null;
  createdAt: Date;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null; // first failure since the last success
}

/** A saved scan whose events are still to be computed and fanned out to endpoints. */
export interface ScanEventRow {
  scanId: number;
  host: string;
  createdAt: Date;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface NewDelivery {
  id: string;
  dedupeKey: string; // unique: a fan-out done twice (after a crash) adds nothing
  endpointId: string;
  messageId: string; // the webhook-id, the same on every attempt
  eventType: string;
  payload: string; // the JSON body, fixed once so every attempt sends the same bytes
  nextAttemptAt: Date;
  createdAt: Date;
}

export interface Delivery extends NewDelivery {
  attempts: number; // attempts made so far
  state: DeliveryState;
}

export interface DeliveryAttempt {
  endpointId: string;
  deliveryId: string;
  messageId: string;
  eventType: string;
  attempt: number;
  status: number | null; // HTTP status, null when no answer
  outcome: string; // "delivered", "HTTP 500", "timeout", "redirect refused" …
  durationMs: number;
  at: Date;
}

/** What becomes of a delivery after an attempt: delivered, retried at a time, or given up. */
export type DeliveryNext = { state: 'delivered' } | { state: 'pending'; nextAttemptAt: Date } | { state: 'failed' | 'cancelled' };

export const ATTEMPTS_KEPT_PER_ENDPOINT = 100;
/**
 * Deliveries one account may have in flight at once, across all instances: however many of its endpoints are
 * slow, the other accounts keep the remaining delivery slots. (One endpoint never has more than one.)
 */
export const DELIVERIES_IN_FLIGHT_PER_ACCOUNT = 2;

export interface MonitoringRepo {
  /** The host's scans, newest first, without reports; at most `limit`. Empty for a delisted host. */
  scanHistory(host: string, limit: number): Promise<ScanSummary[]>;
  /** The host's scan just before the given one (by time, then id), or null. */
  previousScanId(host: string, scanId: number): Promise<number | null>;

  /** Creates the claim, or returns the existing one unchanged (its token stays valid). */
  putClaim(claim: OwnershipClaim): Promise<OwnershipClaim>;
  getClaim(accountId: string, host: string): Promise<OwnershipClaim | null>;
  listClaims(accountId: string): Promise<OwnershipClaim[]>;
  /** Marks a claim verified; a claim verified before keeps its first date. */
  markVerified(accountId: string, host: string, at: Date, method: VerificationMethod): Promise<void>;
  /** Withdraws a verification (the token is gone from the site); the claim and its token stay. */
  clearVerified(accountId: string, host: string): Promise<void>;
  /** Verified claims of a host, earliest first. */
  verifiedClaims(host: string): Promise<OwnershipClaim[]>;
  /**
   * The verified claim checked longest ago, if its last check (its verification, before any re-check) is at or
   * before `checkedBefore`; marked checked at `now` in the same atomic step, so one instance alone takes it.
   */
  claimDueRecheck(now: Date, checkedBefore: Date): Promise<OwnershipClaim | null>;

  /** Adds a monitor unless the account has `max` already or monitors the host; one atomic step. */
  addMonitor(monitor: Monitor, max: number): Promise<'added' | 'limit' | 'exists'>;
  listMonitors(accountId: string): Promise<Monitor[]>;
  removeMonitor(accountId: string, id: string): Promise<boolean>;
  /** The most overdue monitor whose lease is free, leased until now + leaseMs; null when none is due. */
  claimDueMonitor(now: Date, leaseMs: number): Promise<Leased<Monitor> | null>;
  /** Ends a run: next due time and outcome, lease released. False when the lease was lost. */
  finishMonitorRun(
    claim: Leased<Monitor>,
    done: { nextRunAt: Date; at: Date; outcome: string; scanId: number | null },
  ): Promise<boolean>;

  addEndpoint(endpoint: WebhookEndpoint): Promise<void>;
  getEndpoint(id: string): Promise<WebhookEndpoint | null>;
  listEndpoints(accountId: string): Promise<WebhookEndpoint[]>;
  /** Replaces the mutable fields (events, secrets, disabled, failingSince). */
  updateEndpoint(endpoint: WebhookEndpoint): Promise<void>;
  removeEndpoint(accountId: string, id: string): Promise<boolean>;
  /** Enabled endpoints of the accounts that verified the host. */
  endpointsForHost(host: string): Promise<WebhookEndpoint[]>;

  /** The oldest scan event whose lease is free, leased until now + leaseMs. */
  claimScanEvent(now: Date, leaseMs: number): Promise<Leased<ScanEventRow> | null>;
  /** Adds the deliveries (skipping dedupe keys already present) and removes the scan event, in one step. */
  completeScanEvent(claim: Leased<ScanEventRow>, deliveries: NewDelivery[]): Promise<boolean>;

  /** Adds one delivery (test events, resends); a dedupe key already present adds nothing. */
  addDelivery(delivery: NewDelivery): Promise<void>;
  getDelivery(id: string): Promise<Delivery | null>;
  /** When the oldest delivery still pending was made, or null when none is pending (the metrics' backlog age). */
  oldestPendingDelivery(): Promise<Date | null>;
  /**
   * A due pending delivery, leased until now + leaseMs, claimed fairly: never one whose endpoint already has a
   * delivery in flight (under a live lease), never one of an account with DELIVERIES_IN_FLIGHT_PER_ACCOUNT in
   * flight; among the rest, the account with the fewest in flight first, then the delivery due the longest.
   */
  claimDueDelivery(now: Date, leaseMs: number): Promise<Leased<Delivery> | null>;
  /** Gives a claimed delivery back unsent, due again at `until` (its attempts unchanged). False when the lease was lost. */
  postponeDelivery(claim: Leased<Delivery>, until: Date): Promise<boolean>;
  /** Records one attempt (keeping the newest ATTEMPTS_KEPT_PER_ENDPOINT per endpoint) and moves the delivery on. */
  recordAttempt(claim: Leased<Delivery>, attempt: DeliveryAttempt, next: DeliveryNext): Promise<boolean>;
  /** Newest first. */
  listAttempts(endpointId: string, limit: number): Promise<DeliveryAttempt[]>;

  /** A deleted account's claims, monitors and endpoints; its pending deliveries are cancelled when claimed. */
  removeAccount(accountId: string): Promise<void>;
}
