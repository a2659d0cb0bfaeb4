import type { ScenarioId } from './scenario.ts';

export interface MeasureRequest {
  scenario: ScenarioId;
  concurrency: number;
  warmupMs: number;
  durationMs: number;
}

/** One scenario at one concurrency against one server: the figures the report is made of. */
export interface Measurement {
  scenario: ScenarioId;
  target: string;
  concurrency: number;
  operations: number;
  requests: number;
  elapsedMs: number;
  /** Operations per second (an operation is one request, or one whole flow for sso-flow and password-sign-in). */
  throughput: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The server's user+system CPU time over the timed phase, per operation. */
  serverCpuMsPerOp: number | null;
  /** The part of it spent on the server's main thread (the event loop); the rest is its thread pool and GC helpers. */
  serverMainThreadCpuMsPerOp: number | null;
  /** PostgreSQL's backends serving Sesame's connections, over the timed phase, per operation (PostgreSQL runs on the same cores). */
  databaseCpuMsPerOp: number | null;
  /** The same for the load generator, to show how much of the machine it took. */
  loadCpuMsPerOp: number;
  /** The server's peak resident set during the scenario (its setup, warm-up and timed phase). */
  peakRssMb: number | null;
  errors: number;
  errorSamples: string[];
  poolExhausted: boolean;
  /** The timed phase on the machine's monotonic clock, in microseconds: the same clock as V8 CPU profiles' timestamps. */
  timedWindowUs: [number, number] | null;
}
