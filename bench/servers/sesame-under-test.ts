import type { Engine } from '../../src/storage/database.ts';
import { seedGrowth } from '../growth/seed-growth.ts';
import type { GrowthSizes } from '../growth/growth-sizes.ts';
import { BENCH_PG_URL, createBenchDatabase } from '../lib/bench-database.ts';
import type { Target } from '../load/targets.ts';
import { setUpSesameFixtures, type SesameFixtures } from './sesame-fixtures.ts';
import { startSesameServer, type SesameServer } from './sesame-server.ts';

export interface SesameUnderTest {
  engine: Engine;
  grown: boolean;
  server: SesameServer;
  fixtures: SesameFixtures;
  target: Target;
  /** How long the growth seed took, when there was one. */
  seedSeconds: number | null;
}

/**
 * A fresh database of the engine, Sesame started on it in a process of its own, the bench fixtures
 * made through its Agent API, and, for a grown one, the growth seed added on top. Whatever it
 * starts is handed to `onStop` at once, so an interrupted set-up still cleans up.
 */
export async function startSesameUnderTest(options: {
  engine: Engine;
  virtualUsers: number;
  growth: GrowthSizes | null;
  cpuProfileDir: string | undefined;
  nodeFlags: string[];
  onStop(stop: () => Promise<void>, when: 'first' | 'last'): void;
}): Promise<SesameUnderTest> {
  const { engine } = options;
  const database = await createBenchDatabase(engine);
  options.onStop(() => database.drop(), 'last');
  const server = await startSesameServer({ engine, databaseUrl: database.url, cpuProfileDir: options.cpuProfileDir, nodeFlags: options.nodeFlags });
  options.onStop(() => server.stop(), 'first');
  const fixtures = await setUpSesameFixtures(server, options.virtualUsers);
  let seedSeconds: number | null = null;
  if (options.growth) {
    const started = performance.now();
    await seedGrowth(engine, database.url, options.growth);
    seedSeconds = (performance.now() - started) / 1000;
  }
  const grown = options.growth !== null;
  const postgres = database.postgresName ? { postgres: { adminUrl: BENCH_PG_URL, database: database.postgresName } } : {};
  const target: Target = {
    kind: 'sesame',
    label: `sesame ${engine}${grown ? ' grown' : ''}`,
    baseUrl: server.baseUrl,
    pid: server.pid,
    oidc: fixtures.oidc,
    agent: fixtures.agent,
    ...postgres,
  };
  return { engine, grown, server, fixtures, target, seedSeconds };
}
