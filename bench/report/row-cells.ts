import type { Engine } from '../../src/storage/database.ts';
import { SCENARIO_TITLES, type ResultRow } from './result-rows.ts';

// The cells of the summary tables, shared by the terminal report and the Markdown tables of docs/performance.md.

export const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

export function cellFormatters(missing: string) {
  return {
    n: (value: number | null | undefined, digits = 1) => (value === null || value === undefined ? missing : value.toFixed(digits)),
    rate: (value: number | undefined) => (value === undefined ? missing : value >= 100 ? value.toFixed(0) : value.toFixed(1)),
  };
}

/** One Sesame measurement next to its ceiling: scenario, c, ops/s, ceiling, ratio, p50, p99, CPU, main thread, [database CPU], ceiling CPU, RSS. */
export function engineRowCells(row: ResultRow, ceilings: ResultRow[], options: { missing: string; databaseCpu: boolean }): string[] {
  const { n, rate } = cellFormatters(options.missing);
  const ceiling = ceilings.find((c) => c.scenario === row.scenario && c.concurrency === row.concurrency);
  return [
    SCENARIO_TITLES[row.scenario],
    String(row.concurrency),
    rate(row.throughput),
    rate(row.ceilingThroughput),
    n(row.ratio, 2),
    n(row.p50Ms),
    n(row.p99Ms),
    n(row.serverCpuMsPerOp, 2),
    n(row.serverMainThreadCpuMsPerOp, 2),
    ...(options.databaseCpu ? [n(row.databaseCpuMsPerOp, 2)] : []),
    n(ceiling?.serverCpuMsPerOp, 2),
    n(row.peakRssMb, 0),
  ];
}

/** One growth-run measurement: scenario, c, empty ops/s, grown ops/s, grown/empty, p99, CPU, RSS. */
export function growthRowCells(row: ResultRow, missing: string): string[] {
  const { n, rate } = cellFormatters(missing);
  return [SCENARIO_TITLES[row.scenario], String(row.concurrency), rate(row.emptyThroughput), rate(row.throughput), n(row.growthRatio, 2), n(row.p99Ms), n(row.serverCpuMsPerOp, 2), n(row.peakRssMb, 0)];
}
