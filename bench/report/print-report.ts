import type { Engine } from '../../src/storage/database.ts';
import type { ResultRow } from './result-rows.ts';
import { ENGINE_NAMES, engineRowCells, growthRowCells } from './row-cells.ts';
import type { TargetCheck } from './targets.ts';

const MISSING = '-';

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** One engine's figures next to their ceilings, one line per scenario and concurrency. */
export function engineTable(rows: ResultRow[], engine: Engine): string {
  const ceilings = rows.filter((r) => r.phase === 'ceiling');
  const lines = rows
    .filter((r) => r.engine === engine && r.phase === 'empty')
    .map((r) => [...engineRowCells(r, ceilings, { missing: MISSING, databaseCpu: true }), String(r.errors)]);
  return `Sesame on ${ENGINE_NAMES[engine]}\n${table(['scenario', 'c', 'ops/s', 'ceiling', 'ratio', 'p50 ms', 'p99 ms', 'cpu ms/op', 'main', 'db cpu', 'ceil cpu', 'RSS MB', 'errors'], lines)}`;
}

/** The growth run: the same scenarios before and after seeding. */
export function growthTable(rows: ResultRow[], engine: Engine): string {
  const lines = rows
    .filter((r) => r.engine === engine && r.phase === 'grown')
    .map((r) => [...growthRowCells(r, MISSING), String(r.errors)]);
  return `Sesame on ${ENGINE_NAMES[engine]}, grown data\n${table(['scenario', 'c', 'empty ops/s', 'grown ops/s', 'ratio', 'p99 ms', 'cpu ms/op', 'RSS MB', 'errors'], lines)}`;
}

export const CEILINGS_LEGEND = [
  'ceiling = the same load, in the same run, against: oidc-provider alone with its in-memory adapter (1-3),',
  'argon2id verifications with Sesame\'s parameters (4), bare Fastify answering the same bytes (5-6); ratio = Sesame / ceiling.',
  'ops/s: operations per second (an operation of 3 is a whole flow); cpu ms/op: server CPU time per operation,',
  'main: the part of it on the server\'s main thread; db cpu: PostgreSQL\'s own processes (same cores); ceil cpu: the ceiling\'s CPU time per operation.',
].join('\n');

export function targetLines(checks: TargetCheck[]): string {
  return checks.map((c) => `  ${c.pass ? 'PASS' : 'MISS'}  ${ENGINE_NAMES[c.engine].padEnd(10)}  ${c.target}: ${c.measured}`).join('\n');
}
