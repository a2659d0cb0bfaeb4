// The views the use cases return live in the domain (src/domain/views.ts), where the API contracts take them too.
export type { AuditLogEntry, Client, Member, NewSecret, Project, SecretInfo } from '../../domain/views.ts';
