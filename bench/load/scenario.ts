import type { Target, TargetKind } from './targets.ts';

export const SCENARIO_IDS = [
  'code-exchange',
  'refresh',
  'sso-flow',
  'password-sign-in',
  'agent-get-client',
  'agent-put-revision',
  'agent-login',
  'discovery',
  'jwks',
] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

/** A scenario set up against one target at one concurrency, its virtual users ready. */
export interface ScenarioRun {
  /**
   * Untimed: makes ready what `operations` more operations need (pre-minted authorization codes,
   * login pages already opened). Scenarios that need nothing consumable ignore it.
   */
  prepare(operations: number): Promise<void>;
  /** Whether operations come from a pool that `prepare` fills. */
  readonly pooled: boolean;
  /** One timed operation by virtual user `vu`; false when the prepared pool is used up. Throws on any protocol error. */
  operate(vu: number): Promise<boolean>;
  close(): void;
}

export interface ScenarioDefinition {
  id: ScenarioId;
  create(target: Target, concurrency: number): Promise<ScenarioRun>;
}

/** Which targets can run a scenario: Sesame runs all; each ceiling only the scenarios it bounds. */
export const CEILING_OF: Record<ScenarioId, TargetKind | 'argon2'> = {
  'code-exchange': 'oidc-provider',
  refresh: 'oidc-provider',
  'sso-flow': 'oidc-provider',
  'password-sign-in': 'argon2',
  'agent-get-client': 'bare-fastify',
  'agent-put-revision': 'bare-fastify',
  'agent-login': 'bare-fastify',
  discovery: 'bare-fastify',
  jwks: 'bare-fastify',
};
