import type { ServiceDeps } from './deps.ts';
import { createSessionService } from './sessions.ts';
import { createUserService } from './users.ts';

/** Every use case, shared by the Agent API, the Management API, the CLI and start-up. */
export function createServices(deps: ServiceDeps) {
  return {
    users: createUserService(deps),
    sessions: createSessionService(deps),
  };
}

export type Services = ReturnType<typeof createServices>;
