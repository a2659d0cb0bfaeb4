import { createAuditLogService } from './audit-log.ts';
import { createClientImportService } from './client-import.ts';
import { createClientSecretService } from './client-secrets.ts';
import { createClientService } from './clients.ts';
import type { ServiceDeps } from './deps.ts';
import { createMemberService } from './members.ts';
import { createProjectService } from './projects.ts';
import { createSessionService } from './sessions.ts';
import { createUserService } from './users.ts';

/** Every use case, shared by the Agent API, the Management API, the CLI and start-up. */
export function createServices(deps: ServiceDeps) {
  return {
    users: createUserService(deps),
    sessions: createSessionService(deps),
    projects: createProjectService(deps),
    members: createMemberService(deps),
    clients: { ...createClientService(deps), ...createClientSecretService(deps), ...createClientImportService(deps) },
    audit: createAuditLogService(deps),
  };
}

export type Services = ReturnType<typeof createServices>;
