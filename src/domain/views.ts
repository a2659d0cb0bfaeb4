import type { Surface } from './actor.ts';
import type { ClientType, Scope } from './clients.ts';
import type { Capability, ProjectRole } from './roles.ts';

// What the use cases return and the surfaces show (the API contracts map them to JSON, epoch ms -> ISO-8601).
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

export interface AuditLogEntry {
  auditId: string;
  at: number;
  actorSubjectId: string | null;
  /** The actor's account name as it is now; null for the system, the command line or a deleted user. */
  actorAccount: string | null;
  /** The actor's display name as it is now; null when `actorAccount` is. */
  actorDisplayName: string | null;
  surface: Surface;
  action: string;
  targetType: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
  /** The assistant (native client) whose token made the change; null otherwise. */
  viaClientId: string | null;
  /** The assistant's name when the entry was written (older entries: its registered name now); null without an assistant. */
  viaClientName: string | null;
  /** What the target is called now (a person's display name, a client's or project's name); null when it is gone or has none. */
  targetName: string | null;
}

export type AccountSessionKind = 'console' | 'agent' | 'oidc';

export interface AccountSession {
  sessionId: string;
  kind: AccountSessionKind;
  createdAt: number;
  lastSeenAt: number;
  current: boolean;
}

export interface AccountConsent {
  grantId: string;
  clientId: string;
  clientType: ClientType | null;
  displayName: string | null;
  scopes: string[];
  grantedAt: number | null;
  lastUsedAt: number | null;
}

export type FactorType = 'totp' | 'passkey' | 'recovery_codes';

export interface FactorView {
  factorId: string;
  type: FactorType;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
  /** Recovery codes only: how many are still unused (the console names the set in the person's language from it). */
  unusedCodes?: number;
}

export interface AssistantGrantCursor {
  expiresAt: number;
  grantId: string;
}

/** A person's connection of an assistant (a grant of a native client), as administrators see it. */
export interface AssistantGrant {
  grantId: string;
  clientId: string;
  displayName: string;
  subjectId: string;
  account: string;
  scopes: string[];
  grantedAt: number | null;
  lastUsedAt: number | null;
}

export interface AssistantGrantPage {
  grants: AssistantGrant[];
  /** Where the next page starts; null on the last page. */
  next: AssistantGrantCursor | null;
}
