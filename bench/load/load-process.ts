/**
 * The load generator: a process of its own, so the server's CPU time is the server's alone. The
 * orchestrator (bench/run.ts) sends it one measurement at a time; it sets the scenario up, warms
 * up, fills any pool, runs the timed phase and reads the server's CPU time and peak RSS from /proc.
 */
import { answerParent } from '../lib/child-processes.ts';
import { mainThreadCpuMs, peakRssMb, processCpuMs, resetPeakRss } from '../lib/proc-stats.ts';
import type { Measurement, MeasureRequest } from './measurement.ts';
import { cpuBetween, postgresBackendsCpu } from './postgres-backends.ts';
import { runPhase } from './run-phase.ts';
import type { ScenarioDefinition, ScenarioId } from './scenario.ts';
import { agentGetClient, agentLogin, agentPutRevision } from './scenarios/agent-api.ts';
import { codeExchange } from './scenarios/code-exchange.ts';
import { discovery, jwks } from './scenarios/discovery.ts';
import { passwordSignIn } from './scenarios/password-sign-in.ts';
import { refresh } from './scenarios/refresh.ts';
import { ssoFlow } from './scenarios/sso-flow.ts';
import type { Target } from './targets.ts';

const SCENARIOS: Record<ScenarioId, ScenarioDefinition> = {
  'code-exchange': codeExchange,
  refresh,
  'sso-flow': ssoFlow,
  'password-sign-in': passwordSignIn,
  'agent-get-client': agentGetClient,
  'agent-put-revision': agentPutRevision,
  'agent-login': agentLogin,
  discovery,
  jwks,
};

// The pool for the warm-up, before anything is known of the rate; the timed phase's pool is sized from the warm-up's rate.
const warmupPoolSize = (concurrency: number) => 100 + concurrency * 25;
const POOL_MARGIN = 1.5;
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
const MAX_POOL = 60_000;

async function measure(target: Target, request: MeasureRequest): Promise<Measurement> {
  const { scenario, concurrency, warmupMs, durationMs } = request;
  resetPeakRss(target.pid);
  const run = await SCENARIOS[scenario].create(target, concurrency);
  try {
    if (run.pooled) await run.prepare(warmupPoolSize(concurrency));
    const warmup = await runPhase(run, concurrency, warmupMs);
    if (run.pooled) {
      const rate = warmup.operations / Math.max(warmup.elapsedMs, 1);
      await run.prepare(Math.min(MAX_POOL, Math.ceil(rate * durationMs * POOL_MARGIN) + 2 * concurrency));
    }
    const databaseBefore = target.postgres ? await postgresBackendsCpu(target.postgres.adminUrl, target.postgres.database) : null;
    const serverCpuBefore = processCpuMs(target.pid);
    const mainThreadCpuBefore = mainThreadCpuMs(target.pid);
    const loadCpuBefore = process.cpuUsage();
    const timedFrom = monotonicUs();
    const timed = await runPhase(run, concurrency, durationMs);
    const timedTo = monotonicUs();
    const serverCpu = processCpuMs(target.pid) - serverCpuBefore;
    const mainThreadCpu = mainThreadCpuMs(target.pid) - mainThreadCpuBefore;
    const databaseCpu = target.postgres && databaseBefore ? cpuBetween(databaseBefore, await postgresBackendsCpu(target.postgres.adminUrl, target.postgres.database)) : null;
    const loadCpu = process.cpuUsage(loadCpuBefore);
    const latency = timed.latencies.summary();
    const perOp = (ms: number) => (timed.operations > 0 ? ms / timed.operations : 0);
    return {
      scenario,
      target: target.label,
      concurrency,
      operations: timed.operations,
      requests: timed.requests,
      elapsedMs: timed.elapsedMs,
      throughput: timed.operations / (timed.elapsedMs / 1000),
      p50Ms: latency.p50,
      p90Ms: latency.p90,
      p99Ms: latency.p99,
      maxMs: latency.max,
      serverCpuMsPerOp: perOp(serverCpu),
      serverMainThreadCpuMsPerOp: perOp(mainThreadCpu),
      databaseCpuMsPerOp: databaseCpu === null ? null : perOp(databaseCpu),
      loadCpuMsPerOp: perOp((loadCpu.user + loadCpu.system) / 1000),
      peakRssMb: peakRssMb(target.pid),
      errors: warmup.errors + timed.errors,
      errorSamples: [...warmup.errorSamples, ...timed.errorSamples].slice(0, 5),
      poolExhausted: timed.poolExhausted,
      timedWindowUs: [timedFrom, timedTo],
    };
  } finally {
    run.close();
  }
}

answerParent(async (message) => measure(message.target as Target, message.request as MeasureRequest));
process.send?.({ ready: true });
