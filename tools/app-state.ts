// What one app keeps between tool calls: its scan bound, the scans running now and the protocols of recently read
// scans. createApp makes one and every tool context carries it, so two apps (two instances, or several in one test
// process) never share a place, a running scan or a cached answer.
import type { z } from 'zod';
import type { Config } from '../lib/config.js';
import type { Protocols, ScanResult } from '../schemas/scan-result.js';
import { JourneyBoard } from '../scan/journey/board.js';
import { ScanGate } from './scan-gate.js';
import { SingleFlight } from './single-flight.js';

export interface AppState {
  /** The instance's scan bound: scans take their places here, and so do the ownership checks that fetch a store. */
  scanGate: ScanGate;
  /** Scans running now, by what they share (tools/scan-store.ts flightKey). */
  scanFlights: SingleFlight<ScanResult>;
  /** The protocols of recently read scans, by scan id (a saved report never changes). */
  protocolsByScan: Map<number, z.output<typeof Protocols> | null>;
  /** Stores walked to their checkout lately (scan/journey/board.ts): one walk per store at a time, reused for 10 minutes. */
  journeys: JourneyBoard;
  /** Told the tool's name for every call tools/invoke.ts makes for this app, before its preflight; unset unless watched. */
  observeInvoke?: (toolName: string) => void;
}

export function createAppState(config: Pick<Config, 'SCAN_CONCURRENCY' | 'SCAN_QUEUE'>): AppState {
  return {
    scanGate: new ScanGate(config.SCAN_CONCURRENCY, config.SCAN_QUEUE),
    scanFlights: new SingleFlight<ScanResult>(),
    protocolsByScan: new Map(),
    journeys: new JourneyBoard(),
  };
}
