import pg from 'pg';
import { processCpuMs } from '../lib/proc-stats.ts';

/**
 * CPU time of the PostgreSQL server processes serving one database (found in pg_stat_activity),
 * read from /proc like the server's: PostgreSQL shares the machine's cores with Sesame.
 */
export async function postgresBackendsCpu(adminUrl: string, database: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
    const cpu = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        cpu.set(pid, processCpuMs(pid));
      } catch {
        // The backend ended between the query and the read.
      }
    }
    return cpu;
  } finally {
    await client.end();
  }
}

/** CPU used between two readings: backends seen at the end count from zero when they were not there at the start. */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}
