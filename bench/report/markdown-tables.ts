/**
 * The summary tables of a results file, as Markdown (docs/performance.md is written from them):
 *   node bench/report/markdown-tables.ts [bench/results/latest.json]
 */
import { readFileSync } from 'node:fs';
import type { Engine } from '../../src/storage/database.ts';
import type { ResultRow } from './result-rows.ts';
import { ENGINE_NAMES, engineRowCells, growthRowCells } from './row-cells.ts';
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

const MISSING = '–';
const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
const header = (cells: string[], leftColumns = 2) => [line(cells), line(cells.map((_, i) => (i < leftColumns ? '---' : '---:')))].join('\n');

export function markdownTables(results: Results): string {
  const out: string[] = [];
  const ceilings = results.rows.filter((r) => r.phase === 'ceiling');
  for (const engine of results.settings.engines) {
    out.push(`#### Sesame on ${ENGINE_NAMES[engine]}\n`);
    out.push(header(['scenario', 'c', 'ops/s', 'ceiling ops/s', 'ratio', 'p50 ms', 'p99 ms', 'server CPU ms/op', 'main thread', ...(engine === 'postgres' ? ['PostgreSQL CPU'] : []), 'ceiling CPU', 'peak RSS MB']));
    for (const r of results.rows.filter((row) => row.engine === engine && row.phase === 'empty')) {
      out.push(line(engineRowCells(r, ceilings, { missing: MISSING, databaseCpu: engine === 'postgres' })));
    }
    const grown = results.rows.filter((row) => row.engine === engine && row.phase === 'grown');
    if (grown.length > 0) {
      out.push(`\nGrown data (${ENGINE_NAMES[engine]}), each measured right after the empty figure it is compared with:\n`);
      out.push(header(['scenario', 'c', 'empty ops/s', 'grown ops/s', 'grown / empty', 'p99 ms', 'server CPU ms/op', 'peak RSS MB']));
      for (const r of grown) out.push(line(growthRowCells(r, MISSING)));
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
