import type { Engine } from '../../src/storage/database.ts';
import type { Measurement } from '../load/measurement.ts';
import type { ScenarioId } from '../load/scenario.ts';

/** A measurement as reported: which phase it belongs to and how it compares. */
export interface ResultRow extends Measurement {
  /** `ceiling`: a bound; `empty`: Sesame on its bench fixtures only; `grown`: after the growth seed. */
  phase: 'ceiling' | 'empty' | 'grown';
  engine: Engine | null;
  /** Sesame's throughput over the ceiling's at the same concurrency, in the same run. */
  ceilingThroughput?: number;
  ratio?: number;
  /** Grown over empty throughput at the same concurrency (growth run only). */
  emptyThroughput?: number;
  growthRatio?: number;
}

export const SCENARIO_TITLES: Record<ScenarioId, string> = {
  'code-exchange': '1 code exchange',
  refresh: '2 refresh (rotation)',
  'sso-flow': '3 SSO flow (3 req)',
  'password-sign-in': '4 password sign-in',
  'agent-get-client': '5a agent GET client',
  'agent-put-revision': '5b agent PUT revision',
  'agent-login': '5c agent POST login',
  discovery: '6a discovery',
  jwks: '6b JWKS',
};

export const CEILING_TITLES: Record<ScenarioId, string> = {
  'code-exchange': 'oidc-provider alone',
  refresh: 'oidc-provider alone',
  'sso-flow': 'oidc-provider alone',
  'password-sign-in': 'argon2id verifications',
  'agent-get-client': 'bare Fastify, same bytes',
  'agent-put-revision': 'bare Fastify, same bytes',
  'agent-login': 'bare Fastify, same bytes',
  discovery: 'bare Fastify, same bytes',
  jwks: 'bare Fastify, same bytes',
};
