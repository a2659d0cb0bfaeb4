/**
 * `npm run bench`: Sesame measured against the limits of its own stack, in one run on one machine.
 * See docs/performance.md for what is measured and how to read it.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Argon2Rate } from './ceilings/argon2-rate.ts';
import { forkReady } from './lib/child-processes.ts';
import { parseOptions, type BenchOptions } from './lib/options.ts';
import type { Measurement, MeasureRequest } from './load/measurement.ts';
import { CEILING_OF, type ScenarioId } from './load/scenario.ts';
import type { Target, TargetKind } from './load/targets.ts';
import { CEILINGS_LEGEND, engineTable, growthTable, targetLines } from './report/print-report.ts';
import { SCENARIO_TITLES, type ResultRow } from './report/result-rows.ts';
import { checkTargets } from './report/targets.ts';
import { startArgon2Ceiling } from './servers/argon2-ceiling.ts';
import { recordSesameResponses, startBareFastify, startOidcProviderAlone, type RunningTarget } from './servers/ceiling-servers.ts';
import { startSesameUnderTest, type SesameUnderTest } from './servers/sesame-under-test.ts';
import { serverEnvironment, serverNodeFlags } from './servers/sesame-server.ts';

const FIRST_WARMUP_MS = 2_000;
const GROWTH_SCENARIOS: ScenarioId[] = ['code-exchange', 'refresh', 'agent-get-client', 'agent-put-revision', 'agent-login'];


const log = (line: string) => process.stdout.write(`${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function argon2Row(rate: Argon2Rate): ResultRow {
  return {
    phase: 'ceiling',
    engine: null,
    scenario: 'password-sign-in',
    target: 'argon2id',
    concurrency: rate.concurrency,
    operations: rate.operations,
    requests: 0,
    elapsedMs: rate.elapsedMs,
    throughput: rate.throughput,
    p50Ms: 0,
    p90Ms: 0,
    p99Ms: 0,
    maxMs: 0,
    serverCpuMsPerOp: rate.cpuMsPerOp,
    serverMainThreadCpuMsPerOp: null,
    databaseCpuMsPerOp: null,
    loadCpuMsPerOp: 0,
    peakRssMb: null,
    errors: 0,
    errorSamples: [],
    poolExhausted: false,
    timedWindowUs: null,
  };
}

/** A measurement that could not even be set up counts as a failed one: the run must not pass for it. */
function failedRow(target: Target, request: MeasureRequest, error: unknown): Measurement {
  return {
    scenario: request.scenario,
    target: target.label,
    concurrency: request.concurrency,
    operations: 0,
    requests: 0,
    elapsedMs: 0,
    throughput: 0,
    p50Ms: 0,
    p90Ms: 0,
    p99Ms: 0,
    maxMs: 0,
    serverCpuMsPerOp: null,
    serverMainThreadCpuMsPerOp: null,
    databaseCpuMsPerOp: null,
    loadCpuMsPerOp: 0,
    peakRssMb: null,
    errors: 1,
    errorSamples: [error instanceof Error ? error.message.split('\n')[0]! : String(error)],
    poolExhausted: false,
    timedWindowUs: null,
  };
}

function progress(row: ResultRow): void {
  const where = row.target;
  const compare = row.ratio !== undefined ? `  ratio ${row.ratio.toFixed(2)}` : row.growthRatio !== undefined ? `  vs empty ${row.growthRatio.toFixed(2)}` : '';
  const errors = row.errors > 0 ? `  ERRORS ${row.errors}: ${row.errorSamples[0] ?? ''}` : '';
  log(
    `  ${SCENARIO_TITLES[row.scenario].padEnd(22)} c=${String(row.concurrency).padEnd(3)} ${where.padEnd(24)} ${row.throughput.toFixed(0).padStart(6)} ops/s  p99 ${row.p99Ms.toFixed(1).padStart(6)} ms${compare}${errors}`,
  );
}

async function main(options: BenchOptions): Promise<number> {
  const startedAt = new Date();
  const started = performance.now();
  const cores = availableParallelism();
  log(`sesame bench: ${options.quick ? 'quick' : 'full'} run on ${options.engines.join(' and ')}, ${cores} cores (${cpus()[0]?.model ?? 'unknown CPU'}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  const stops: (() => Promise<void>)[] = [];
  // Interrupted: stop every server and drop every database before leaving.
  const interrupted = async () => {
    log('\ninterrupted: stopping the servers');
    for (const stop of stops) await stop().catch(() => {});
    process.exit(130);
  };
  process.once('SIGINT', () => void interrupted());
  process.once('SIGTERM', () => void interrupted());
  const rows: ResultRow[] = [];
  let exitCode = 0;
  try {
    const { child: load } = await forkReady<true>(new URL('./load/load-process.ts', import.meta.url), 'load generator');
    stops.push(() => load.stop());
    const argon2 = await startArgon2Ceiling();
    stops.push(() => argon2.stop());
    const profileDir = (name: string) => (options.cpuProfileDir ? join(options.cpuProfileDir, name) : undefined);
    const oidcAlone = await startOidcProviderAlone(profileDir('oidc-provider-alone'));
    stops.push(() => oidcAlone.stop());

    const onStop = (stop: () => Promise<void>, when: 'first' | 'last') => (when === 'first' ? stops.unshift(stop) : stops.push(stop));
    const virtualUsers = Math.max(...options.concurrencies);
    const growthScenarios = GROWTH_SCENARIOS.filter((s) => options.scenarios.includes(s));
    const sesames: SesameUnderTest[] = [];
    // Per engine: Sesame on its bench fixtures only, and (for the growth run) a second one whose database also
    // holds the growth seed; each grown figure is measured right after the empty one it is compared with.
    for (const engine of options.engines) {
      sesames.push(await startSesameUnderTest({ engine, virtualUsers, growth: null, cpuProfileDir: profileDir(`sesame-${engine}`), nodeFlags: options.nodeFlags, onStop }));
      if (options.growth && growthScenarios.length > 0) {
        const g = options.growth;
        log(`seeding the growth database on ${engine}: ${g.users} users, ${g.clients} clients, ${g.artifacts} stored token artifacts`);
        const grown = await startSesameUnderTest({ engine, virtualUsers, growth: g, cpuProfileDir: profileDir(`sesame-${engine}-grown`), nodeFlags: options.nodeFlags, onStop });
        log(`  seeded in ${grown.seedSeconds!.toFixed(1)} s`);
        sesames.push(grown);
      }
    }
    const first = sesames[0]!;
    const bare: RunningTarget = await startBareFastify(await recordSesameResponses(first.server, first.fixtures), first.fixtures.agent, profileDir('bare-fastify'));
    stops.push(() => bare.stop());
    ceilingTargets.set('bare-fastify', bare.target);
    ceilingTargets.set('oidc-provider', oidcAlone.target);

    const measure = async (target: Target, request: MeasureRequest): Promise<Measurement> => {
      try {
        return await load.ask<Measurement>({ target, request });
      } catch (error) {
        return failedRow(target, request, error);
      }
    };
    // A server's first run of a scenario also compiles its code paths (V8's tiers take a few seconds of load);
    // that warm-up is longer, so no timed window includes the JIT, also in --quick.
    const warmedUp = new Set<string>();
    const request = (target: Target, scenario: ScenarioId, concurrency: number): MeasureRequest => {
      const first = !warmedUp.has(`${target.label} ${scenario}`);
      warmedUp.add(`${target.label} ${scenario}`);
      return { scenario, concurrency, warmupMs: first ? Math.max(options.warmupMs, FIRST_WARMUP_MS) : options.warmupMs, durationMs: options.durationMs };
    };

    log(`\nmeasuring ${options.scenarios.length} scenarios at c=${options.concurrencies.join(', ')}: ${seconds(options.warmupMs)} warm-up, ${seconds(options.durationMs)} timed; ceiling first`);
    for (const scenario of options.scenarios) {
      for (const concurrency of options.concurrencies) {
        const ceilingKind = CEILING_OF[scenario];
        let ceiling: ResultRow;
        if (ceilingKind === 'argon2') {
          ceiling = argon2Row(await argon2.measure(concurrency, options.warmupMs, options.durationMs));
        } else {
          ceiling = { ...(await measure(ceilingTargets.get(ceilingKind)!, request(ceilingTargets.get(ceilingKind)!, scenario, concurrency))), phase: 'ceiling', engine: null };
        }
        rows.push(ceiling);
        progress(ceiling);
        for (const sesame of sesames) {
          if (sesame.grown && !growthScenarios.includes(scenario)) continue;
          const measured = await measure(sesame.target, request(sesame.target, scenario, concurrency));
          let row: ResultRow;
          if (sesame.grown) {
            const empty = rows.find((r) => r.phase === 'empty' && r.engine === sesame.engine && r.scenario === scenario && r.concurrency === concurrency);
            row = { ...measured, phase: 'grown', engine: sesame.engine, emptyThroughput: empty?.throughput, growthRatio: empty && empty.throughput > 0 ? measured.throughput / empty.throughput : 0 };
          } else {
            row = { ...measured, phase: 'empty', engine: sesame.engine, ceilingThroughput: ceiling.throughput, ratio: ceiling.throughput > 0 ? measured.throughput / ceiling.throughput : 0 };
          }
          rows.push(row);
          progress(row);
        }
      }
    }
    const growthSeeds = Object.fromEntries(sesames.filter((s) => s.grown).map((s) => [s.engine, { seconds: s.seedSeconds }]));

    const checks = checkTargets(rows, options.engines);
    const errors = rows.reduce((sum, r) => sum + r.errors, 0);
    log('');
    for (const engine of options.engines) {
      log(engineTable(rows, engine));
      log('');
      if (rows.some((r) => r.engine === engine && r.phase === 'grown')) {
        log(growthTable(rows, engine));
        log('');
      }
    }
    log(CEILINGS_LEGEND);
    log(`\ntargets (issue 5), ${cores} cores, load average ${startLoad.map((l) => l.toFixed(2)).join(' ')} at the start, ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end:`);
    log(targetLines(checks));

    const finishedAt = new Date();
    const results = {
      command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationSeconds: Math.round((performance.now() - started) / 1000),
      machine: { cores, cpu: cpus()[0]?.model ?? null, memoryMb: Math.round(totalmem() / 2 ** 20), node: process.version, loadAverageAtStart: null as number[] | null, loadAverageAtEnd: loadavg() },
      settings: { quick: options.quick, engines: options.engines, scenarios: options.scenarios, concurrencies: options.concurrencies, warmupMs: options.warmupMs, durationMs: options.durationMs, growth: options.growth, sesameNodeFlags: [...serverNodeFlags(), ...options.nodeFlags], sesameEnvironment: serverEnvironment() },
      growthSeeds,
      targets: checks,
      errors,
      rows,
    };
    results.machine.loadAverageAtStart = startLoad;
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, `${JSON.stringify(results, null, 2)}\n`);
    log(`\nresults: ${options.out} (${seconds(performance.now() - started)})`);
    if (errors > 0) {
      log(`FAILED: ${errors} request error(s); a run with errors proves nothing about speed.`);
      exitCode = 1;
    }
  } finally {
    for (const stop of stops) await stop().catch((error: unknown) => log(`cleanup: ${(error as Error).message}`));
  }
  return exitCode;
}

const ceilingTargets = new Map<TargetKind, Target>();
const startLoad = loadavg();

try {
  process.exitCode = await main(parseOptions(process.argv.slice(2)));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? (error.message.startsWith('Usage') || error.message.includes('\nUsage') ? error.message : error.stack) : String(error)}\n`);
  process.exitCode = 1;
}
