import type { ClientType, Scope } from '../../../src/domain/clients.ts';
import type { Capability, ProjectRole } from '../../../src/domain/roles.ts';

// The JSON shapes of DESIGN.md section 5 as the console receives them (times are ISO-8601 text).

export interface SessionUser {
  subjectId: string;
  account: string;
  displayName: string;
  isAdmin: boolean;
}

export interface SecretPolicy {
  defaultGraceSeconds: number;
  maxGraceSeconds: number;
}

export interface SessionContext {
  authenticated: boolean;
  csrfToken: string;
  user?: SessionUser;
  clientSecretPolicy?: SecretPolicy;
}

export interface Project {
  projectId: string;
  name: string;
  description: string;
  status: 'active' | 'archived';
  version: number;
  role: ProjectRole | null;
  capabilities: Capability[];
  createdAt: string;
  updatedAt: string;
}

export interface Member {
  subjectId: string;
  account: string;
  displayName: string;
  role: ProjectRole;
  createdAt: string;
}

export interface SecretInfo {
  secretId: string;
  status: 'active' | 'retiring' | 'revoked';
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

export interface Client {
  clientId: string;
  projectId: string;
  clientType: ClientType;
  displayName: string;
  description: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  scopeWhitelist: Scope[];
  requirePkce: boolean;
  status: 'active' | 'disabled';
  revision: number;
  secrets: SecretInfo[];
  clientVersion: number;
  createdAt: string;
  updatedAt: string;
}

/** Present only in the response that created it; the console drops it when its dialog closes. */
export interface NewSecret {
  secretId: string;
  value: string;
  createdAt: string;
}

export interface AuditLogEntry {
  auditId: string;
  at: string;
  actorSubjectId: string | null;
  actorAccount: string | null;
  surface: string;
  action: string;
  targetType: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
}

export interface AdminUser {
  subjectId: string;
  account: string;
  displayName: string;
  email: string | null;
  isAdmin: boolean;
  status: 'active' | 'disabled';
  createdAt?: string;
  updatedAt?: string;
}

export interface DirectoryUser {
  subjectId: string;
  account: string;
  displayName: string;
}

export interface OidcDiscovery {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  userinfo_endpoint?: string;
  jwks_uri?: string;
  end_session_endpoint?: string;
}
