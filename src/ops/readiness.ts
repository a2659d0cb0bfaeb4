import type { Db } from '../storage/database.ts';
import { pingDatabase } from '../storage/store.ts';

export type ReadinessCheck = () => boolean | Promise<boolean>;

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, 'ok' | 'failing'>;
}

// Longer than a healthy query ever takes, short enough for a load balancer's probe.
export const READINESS_TIMEOUT_MS = 2_000;

function withinTimeout(check: ReadinessCheck, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const run = Promise.resolve()
    .then(check)
    .catch(() => false);
  return Promise.race([run, timeout]).finally(() => clearTimeout(timer));
}

/**
 * What "ready to serve" means: the database answers, and every condition other modules add
 * holds (the OIDC module adds `signingKeys` once its keys are loaded). A condition added but
 * never satisfied keeps the instance out of rotation, which is the point.
 */
export function createReadiness(deps: { db: Db; timeoutMs?: number }) {
  const timeoutMs = deps.timeoutMs ?? READINESS_TIMEOUT_MS;
  const checks = new Map<string, ReadinessCheck>([['database', () => pingDatabase(deps.db)]]);

  return {
    /** Adds (or replaces) a named condition; it is asked on every readiness probe. */
    addCheck(name: string, check: ReadinessCheck): void {
      checks.set(name, check);
    },
    /** A condition that is false until `set(true)`, for state another module flips (keys loaded). */
    addFlag(name: string, initially = false): { set(ready: boolean): void } {
      let ready = initially;
      checks.set(name, () => ready);
      return {
        set(value) {
          ready = value;
        },
      };
    },
    async evaluate(): Promise<ReadinessReport> {
      const entries = await Promise.all([...checks].map(async ([name, check]) => [name, await withinTimeout(check, timeoutMs)] as const));
      return {
        ready: entries.every(([, ok]) => ok),
        checks: Object.fromEntries(entries.map(([name, ok]) => [name, ok ? 'ok' : 'failing'])),
      };
    },
  };
}

export type Readiness = ReturnType<typeof createReadiness>;
