/**
 * The summary tables of a results file, as Markdown (docs/performance.md is written from them):
 *   node bench/report/markdown-tables.ts [bench/results/latest.json]
 */
import { readFileSync } from 'node:fs';
import type { Engine } from '../../src/storage/database.ts';
import { SCENARIO_TITLES, type ResultRow } from './result-rows.ts';
import { checkTargets, type TargetCheck } from './targets.ts';

interface Results {
  command: string;
  startedAt: string;
  durationSeconds: number;
  machine: { cores: number; cpu: string | null; memoryMb: number; node: string; loadAverageAtStart: number[] | null; loadAverageAtEnd: number[] };
  settings: { engines: Engine[]; warmupMs: number; durationMs: number; growth: { users: number; clients: number; artifacts: number } | null };
  growthSeeds: Record<string, { seconds: number }>;
  targets: TargetCheck[];
  errors: number;
  rows: ResultRow[];
}

const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const n = (value: number | null | undefined, digits = 1) => (value === null || value === undefined ? '–' : value.toFixed(digits));
const rate = (value: number | undefined) => (value === undefined ? '–' : value >= 100 ? value.toFixed(0) : value.toFixed(1));
const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
const header = (cells: string[], leftColumns = 2) => [line(cells), line(cells.map((_, i) => (i < leftColumns ? '---' : '---:')))].join('\n');

export function markdownTables(results: Results): string {
  const out: string[] = [];
  const ceilings = results.rows.filter((r) => r.phase === 'ceiling');
  for (const engine of results.settings.engines) {
    out.push(`#### Sesame on ${ENGINE_NAMES[engine]}\n`);
    out.push(header(['scenario', 'c', 'ops/s', 'ceiling ops/s', 'ratio', 'p50 ms', 'p99 ms', 'server CPU ms/op', 'main thread', ...(engine === 'postgres' ? ['PostgreSQL CPU'] : []), 'ceiling CPU', 'peak RSS MB']));
    for (const r of results.rows.filter((row) => row.engine === engine && row.phase === 'empty')) {
      const ceiling = ceilings.find((c) => c.scenario === r.scenario && c.concurrency === r.concurrency);
      out.push(line([
        SCENARIO_TITLES[r.scenario],
        String(r.concurrency),
        rate(r.throughput),
        rate(r.ceilingThroughput),
        n(r.ratio, 2),
        n(r.p50Ms),
        n(r.p99Ms),
        n(r.serverCpuMsPerOp, 2),
        n(r.serverMainThreadCpuMsPerOp, 2),
        ...(engine === 'postgres' ? [n(r.databaseCpuMsPerOp, 2)] : []),
        n(ceiling?.serverCpuMsPerOp, 2),
        n(r.peakRssMb, 0),
      ]));
    }
    const grown = results.rows.filter((row) => row.engine === engine && row.phase === 'grown');
    if (grown.length > 0) {
      out.push(`\nGrown data (${ENGINE_NAMES[engine]}), each measured right after the empty figure it is compared with:\n`);
      out.push(header(['scenario', 'c', 'empty ops/s', 'grown ops/s', 'grown / empty', 'p99 ms', 'server CPU ms/op', 'peak RSS MB']));
      for (const r of grown) out.push(line([SCENARIO_TITLES[r.scenario], String(r.concurrency), rate(r.emptyThroughput), rate(r.throughput), n(r.growthRatio, 2), n(r.p99Ms), n(r.serverCpuMsPerOp, 2), n(r.peakRssMb, 0)]));
    }
    out.push('');
  }
  out.push('#### Targets\n');
  out.push(header(['', 'engine', 'target', 'measured'], 4));
  // Checked again from the rows, so the wording follows the current checks.
  for (const t of checkTargets(results.rows, results.settings.engines)) out.push(line([t.pass ? 'PASS' : '**MISS**', ENGINE_NAMES[t.engine], t.target, t.measured]));
  return out.join('\n');
}

if (import.meta.main) {
  const file = process.argv[2] ?? new URL('../results/latest.json', import.meta.url).pathname;
  process.stdout.write(`${markdownTables(JSON.parse(readFileSync(file, 'utf8')) as Results)}\n`);
}
