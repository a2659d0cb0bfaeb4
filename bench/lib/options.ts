import { SCENARIO_IDS, type ScenarioId } from '../load/scenario.ts';
import type { Engine } from '../../src/storage/database.ts';
import { FULL_GROWTH, QUICK_GROWTH, type GrowthSizes } from '../growth/growth-sizes.ts';

export interface BenchOptions {
  quick: boolean;
  engines: Engine[];
  scenarios: ScenarioId[];
  concurrencies: number[];
  warmupMs: number;
  durationMs: number;
  growth: GrowthSizes | null;
  /** Write a V8 CPU profile of each Sesame server here (node --cpu-prof). */
  cpuProfileDir: string | undefined;
  /** Extra Node flags for the Sesame servers (e.g. V8 heap sizes), to measure their effect. */
  nodeFlags: string[];
  out: string;
}

export const USAGE = `Usage: npm run bench -- [--quick] [--db sqlite|postgres|both] [--scenarios a,b] [--no-growth] [--cpu-prof DIR] [--out FILE]

  --quick           about a minute: short phases, a tenth of the growth data
  --db              which engines to run Sesame on (default both)
  --scenarios       a subset of: ${SCENARIO_IDS.join(', ')}
  --concurrency     a subset of the concurrencies, e.g. 8 (default 1,8,32)
  --no-growth       skip the growth run
  --cpu-prof DIR    run each server (Sesame and the ceilings) under node --cpu-prof; profiles go to DIR/<server>/
                    when it stops (read them with node bench/profile-summary.ts)
  --node-flags 'F'  Node flags for the Sesame servers after those of npm start, e.g. '--max-semi-space-size=16'
  --out FILE        where the results go (default bench/results/latest.json)`;

export function parseOptions(argv: string[]): BenchOptions {
  let quick = false;
  let db = 'both';
  let scenarios: ScenarioId[] = [...SCENARIO_IDS];
  let growth = true;
  let concurrencies = [1, 8, 32];
  let cpuProfileDir: string | undefined;
  let nodeFlags: string[] = [];
  let out = new URL('../results/latest.json', import.meta.url).pathname;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
      return next;
    };
    if (arg === '--quick') quick = true;
    else if (arg === '--db') db = value();
    else if (arg.startsWith('--db=')) db = arg.slice(5);
    else if (arg === '--scenarios') scenarios = value().split(',') as ScenarioId[];
    else if (arg === '--concurrency') concurrencies = value().split(',').map(Number);
    else if (arg === '--no-growth') growth = false;
    else if (arg === '--cpu-prof') cpuProfileDir = value();
    else if (arg === '--node-flags') nodeFlags = value().split(' ').filter(Boolean);
    else if (arg === '--out') out = value();
    else if (arg === '--help' || arg === '-h') throw new Error(USAGE);
    else throw new Error(`unknown option ${arg}\n${USAGE}`);
  }
  const engines: Engine[] = db === 'both' ? ['sqlite', 'postgres'] : db === 'sqlite' || db === 'postgres' ? [db] : [];
  if (engines.length === 0) throw new Error(`--db must be sqlite, postgres or both\n${USAGE}`);
  const unknown = scenarios.filter((s) => !(SCENARIO_IDS as readonly string[]).includes(s));
  if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(', ')}\n${USAGE}`);
  if (concurrencies.length === 0 || concurrencies.some((c) => !Number.isInteger(c) || c < 1 || c > 256)) throw new Error(`--concurrency takes whole numbers from 1 to 256\n${USAGE}`);
  return {
    quick,
    engines,
    scenarios,
    concurrencies,
    warmupMs: quick ? 250 : 1000,
    durationMs: quick ? 500 : 2500,
    growth: growth ? (quick ? QUICK_GROWTH : FULL_GROWTH) : null,
    cpuProfileDir,
    nodeFlags,
    out,
  };
}
