import type { Engine } from '../../src/storage/database.ts';
import type { ScenarioId } from '../load/scenario.ts';
import { SCENARIO_TITLES, type ResultRow } from './result-rows.ts';

export interface TargetCheck {
  engine: Engine;
  target: string;
  /** What was measured, e.g. `min 0.83 (c=32)`. */
  measured: string;
  pass: boolean;
}

const CEILING_RATIO: Record<Engine, number> = { sqlite: 0.8, postgres: 0.6 };
const PROTOCOL_SCENARIOS: ScenarioId[] = ['code-exchange', 'refresh', 'sso-flow'];
const P99_SCENARIOS: ScenarioId[] = ['code-exchange', 'refresh', 'agent-get-client', 'agent-put-revision', 'agent-login'];
const GROWTH_SCENARIOS: ScenarioId[] = ['code-exchange', 'refresh', 'agent-get-client', 'agent-put-revision', 'agent-login'];
const P99_LIMIT_MS = 50;
const P99_CONCURRENCY = 8;
const GROWTH_FLOOR = 0.8;
const PEAK_RSS_LIMIT_MB = 300;

const fixed = (value: number, digits = 2) => value.toFixed(digits);
/** A ratio to two places, or three when two would round a miss up to the threshold itself. */
const ratioText = (value: number, floor: number) => (value < floor && value.toFixed(2) === floor.toFixed(2) ? value.toFixed(3) : value.toFixed(2));

/** The lowest value of `pick` over the rows, with the concurrency where it was seen. */
function lowest(rows: ResultRow[], pick: (row: ResultRow) => number | undefined): { value: number; at: string } | null {
  let found: { value: number; at: string } | null = null;
  for (const row of rows) {
    const value = pick(row);
    if (value !== undefined && (found === null || value < found.value)) found = { value, at: `c=${row.concurrency}` };
  }
  return found;
}

/** Checks the targets against the rows of one run; each target is checked at every concurrency measured. */
export function checkTargets(rows: ResultRow[], engines: Engine[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const engine of engines) {
    const empty = rows.filter((r) => r.engine === engine && r.phase === 'empty');
    const grown = rows.filter((r) => r.engine === engine && r.phase === 'grown');
    const ratioTarget = (scenario: ScenarioId, floor: number, ceilingName: string) => {
      const min = lowest(empty.filter((r) => r.scenario === scenario), (r) => r.ratio);
      if (min) checks.push({ engine, target: `${SCENARIO_TITLES[scenario]}: >= ${floor} of ${ceilingName}`, measured: `min ${ratioText(min.value, floor)} (${min.at})`, pass: min.value >= floor });
    };
    for (const scenario of PROTOCOL_SCENARIOS) ratioTarget(scenario, CEILING_RATIO[engine], 'oidc-provider alone');
    ratioTarget('password-sign-in', 0.8, 'the argon2id rate');
    if (engine === 'sqlite') {
      for (const scenario of P99_SCENARIOS) {
        const row = empty.find((r) => r.scenario === scenario && r.concurrency === P99_CONCURRENCY);
        if (row) checks.push({ engine, target: `${SCENARIO_TITLES[scenario]}: p99 < ${P99_LIMIT_MS} ms at c=${P99_CONCURRENCY}`, measured: `${fixed(row.p99Ms, 1)} ms`, pass: row.p99Ms < P99_LIMIT_MS });
      }
    }
    for (const scenario of GROWTH_SCENARIOS) {
      const min = lowest(grown.filter((r) => r.scenario === scenario), (r) => r.growthRatio);
      if (min) checks.push({ engine, target: `${SCENARIO_TITLES[scenario]}: grown data >= ${GROWTH_FLOOR} of empty`, measured: `min ${ratioText(min.value, GROWTH_FLOOR)} (${min.at})`, pass: min.value >= GROWTH_FLOOR });
    }
    const rss = [...empty, ...grown].filter((r) => r.peakRssMb !== null);
    if (rss.length > 0) {
      const worst = rss.reduce((a, b) => ((b.peakRssMb ?? 0) > (a.peakRssMb ?? 0) ? b : a));
      checks.push({
        engine,
        target: `server peak RSS < ${PEAK_RSS_LIMIT_MB} MB in every scenario`,
        measured: `max ${fixed(worst.peakRssMb ?? 0, 0)} MB (${SCENARIO_TITLES[worst.scenario]}, c=${worst.concurrency}${worst.phase === 'grown' ? ', grown' : ''})`,
        pass: (worst.peakRssMb ?? 0) < PEAK_RSS_LIMIT_MB,
      });
    }
  }
  return checks;
}
