import type { Capability, ProjectRole } from '../domain/roles.ts';
import type { ClientType, Scope } from '../domain/clients.ts';

// Domain objects the services return; the API layer maps them to JSON (epoch ms -> ISO-8601).
// None of them can hold a digest, a password hash or a stored secret.

export interface Project {
  projectId: string;
  name: string;
  description: string;
  status: 'active' | 'archived';
  version: number;
  /** The caller's own membership role; null for an administrator who is not a member. */
  role: ProjectRole | null;
  capabilities: readonly Capability[];
  createdAt: number;
  updatedAt: number;
}

export interface Member {
  subjectId: string;
  account: string;
  displayName: string;
  role: ProjectRole;
  createdAt: number;
}

export interface SecretInfo {
  secretId: string;
  status: 'active' | 'retiring' | 'revoked';
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
}

/** The one moment a plaintext secret exists outside the relying party: the response that creates it. */
export interface NewSecret {
  secretId: string;
  value: string;
  createdAt: number;
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
  claimsInIdToken: boolean;
  status: 'active' | 'disabled';
  revision: number;
  secrets: SecretInfo[];
  clientVersion: number;
  createdAt: number;
  updatedAt: number;
}

export type { AuditLogEntry } from '../storage/repositories/audit-log-repository.ts';
