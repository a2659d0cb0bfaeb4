import { performance } from 'node:perf_hooks';
import { requestCounter } from './http-connection.ts';
import { LatencyRecorder } from './latency-recorder.ts';
import type { ScenarioRun } from './scenario.ts';

export interface PhaseResult {
  operations: number;
  requests: number;
  elapsedMs: number;
  latencies: LatencyRecorder;
  errors: number;
  errorSamples: string[];
  /** The prepared pool ran out before the duration did. */
  poolExhausted: boolean;
}

/**
 * Closed loop: `concurrency` virtual users each run one operation after another until the
 * duration is up (or the pool is used up). A virtual user whose operation fails stops: its state
 * (a refresh chain, a clientVersion) can no longer be trusted, and the error fails the run anyway.
 */
export async function runPhase(run: ScenarioRun, concurrency: number, durationMs: number): Promise<PhaseResult> {
  const latencies = new LatencyRecorder();
  const errorSamples: string[] = [];
  let operations = 0;
  let errors = 0;
  let poolExhausted = false;
  const requestsBefore = requestCounter.sent;
  const start = performance.now();
  const deadline = start + durationMs;

  await Promise.all(
    Array.from({ length: concurrency }, async (_, vu) => {
      while (!poolExhausted) {
        const began = performance.now();
        if (began >= deadline) return;
        try {
          if (!(await run.operate(vu))) {
            poolExhausted = true;
            return;
          }
        } catch (error) {
          errors += 1;
          if (errorSamples.length < 5) errorSamples.push(error instanceof Error ? error.message : String(error));
          return;
        }
        latencies.record(performance.now() - began);
        operations += 1;
      }
    }),
  );
  return { operations, requests: requestCounter.sent - requestsBefore, elapsedMs: performance.now() - start, latencies, errors, errorSamples, poolExhausted };
}
