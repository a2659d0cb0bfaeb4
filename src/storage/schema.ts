import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

// Timestamps are epoch milliseconds on both engines; booleans are 0/1 integers;
// URI and scope lists are JSON text. One representation keeps one migration set.
type Flag = number;
type EpochMs = number;
type JsonText = string;

export interface UsersTable {
  subject_id: string;
  account: string;
  account_normalized: string;
  password_hash: string;
  display_name: string;
  email: string | null;
  email_verified: Flag;
  student_status: 'active' | 'not_student' | 'unknown';
  is_admin: Flag;
  status: 'active' | 'disabled';
  /** `en` or `zh-CN`; null: no preference. */
  locale: string | null;
  created_at: EpochMs;
  updated_at: EpochMs;
}

export interface ProjectsTable {
  project_id: string;
  name: string;
  description: string;
  status: 'active' | 'archived';
  version: number;
  created_at: EpochMs;
  updated_at: EpochMs;
}

export interface ProjectMembersTable {
  project_id: string;
  subject_id: string;
  role: 'owner' | 'maintainer' | 'viewer';
  created_at: EpochMs;
}

export interface ClientsTable {
  client_id: string;
  project_id: string;
  client_type: 'web' | 'spa' | 'native';
  display_name: string;
  description: string;
  redirect_uris: JsonText;
  post_logout_redirect_uris: JsonText;
  scope_whitelist: JsonText;
  require_pkce: Flag;
  claims_in_id_token: Flag;
  status: 'active' | 'disabled';
  client_version: number;
  revision: number;
  created_at: EpochMs;
  updated_at: EpochMs;
}

export interface ClientRevisionsTable {
  client_id: string;
  revision: number;
  redirect_uris: JsonText;
  post_logout_redirect_uris: JsonText;
  scope_whitelist: JsonText;
  require_pkce: Flag;
  claims_in_id_token: Flag;
  created_by: string | null;
  created_at: EpochMs;
}

export interface ClientSecretsTable {
  secret_id: string;
  client_id: string;
  digest: string;
  status: 'active' | 'retiring' | 'revoked';
  created_at: EpochMs;
  expires_at: EpochMs | null;
  last_used_at: EpochMs | null;
}

export interface SessionsTable {
  token_digest: string;
  subject_id: string;
  kind: 'console' | 'agent';
  created_at: EpochMs;
  last_seen_at: EpochMs;
  expires_at: EpochMs;
  revoked_at: EpochMs | null;
  /** Opaque id a person names the session by; never the token or its digest. */
  session_id: string;
  /** When the session last proved the person (sign-in or re-authentication); null: since created_at. */
  proven_at: EpochMs | null;
  /** 1: opened for a person who must enrol a second factor first; the session may only enrol (DESIGN 13). */
  enrolment_required: Generated<Flag>;
}

export interface AuditLogTable {
  audit_id: string;
  at: EpochMs;
  actor_subject_id: string | null;
  surface: 'console' | 'agent' | 'mcp' | 'cli' | 'system';
  action: string;
  target_type: string;
  target_id: string;
  project_id: string | null;
  before_json: JsonText | null;
  after_json: JsonText | null;
  ip: string | null;
  via_client_id: string | null;
  /** That assistant's name when the entry was written. */
  via_client_name: string | null;
}

export interface SigningKeysTable {
  kid: string;
  alg: 'RS256' | 'ES256';
  public_jwk: JsonText;
  private_jwk_encrypted: string;
  status: 'active' | 'retired';
  created_at: EpochMs;
  /** When the key starts signing; published from creation on, so relying parties know it first. */
  signs_from: EpochMs;
  retired_at: EpochMs | null;
}

export interface OidcPayloadsTable {
  kind: string;
  /** SHA-256 (hex) of the artifact's id: the id is the token itself, so it is never stored. */
  id: string;
  /** Without the id (`jti`). */
  payload: JsonText;
  grant_id: string | null;
  uid: string | null;
  /** The person (subject id) the artifact belongs to, when it belongs to one. */
  account_id: string | null;
  /** The client it was issued to (from the payload's `clientId`), so a client's artifacts go at once. */
  client_id: string | null;
  expires_at: EpochMs | null;
  consumed_at: EpochMs | null;
  /** Grants only: when one of its access tokens was last accepted at /mcp or /api/agent (written at most once a minute). */
  last_used_at: EpochMs | null;
  /** Grants of an assistant known by its client ID metadata document: the document's client_name when the person consented. */
  client_name: string | null;
}

/** The scopes a person allowed a client on the consent page: the next authorization of that client asks nothing. */
export interface RememberedConsentsTable {
  subject_id: string;
  client_id: string;
  scopes: JsonText;
  expires_at: EpochMs;
}

/** A sign-in sent to an upstream provider, until its callback uses it once or it expires. */
export interface UpstreamSignInsTable {
  /** SHA-256 (hex) of the state the upstream hands back. */
  state_digest: string;
  provider: string;
  nonce: string;
  code_verifier: string;
  /** For an OIDC interaction: its uid. */
  interaction_uid: string | null;
  /** For a console sign-in: the digest the browser is known by, and the console path to return to. */
  console_browser: string | null;
  console_next: string | null;
  expires_at: EpochMs;
}

/** A console sign-in an upstream confirmed, until the browser that started it finishes it once or it expires. */
export interface UpstreamConsoleSignInsTable {
  /** The digest the browser is known by (of its login-CSRF nonce). */
  browser_digest: string;
  subject_id: string;
  provider: string;
  expires_at: EpochMs;
}

export interface IdempotencyKeysTable {
  subject_id: string;
  idempotency_key: string;
  request_salt: string;
  /** SHA-256 of the salt and the request (operation, path parameters, body): the body itself is never stored. */
  request_digest: string;
  /** Null while the first request is still being answered. */
  response_status: number | null;
  /** The first response without its one-time secrets. */
  response_json: JsonText | null;
  created_at: EpochMs;
  expires_at: EpochMs;
}

export interface InstanceSettingsTable {
  name: string;
  value: string;
  created_at: EpochMs;
}

export interface AccountLinksTable {
  link_id: string;
  purpose: 'invitation' | 'password_reset' | 'email_verification';
  subject_id: string;
  email: string;
  /** Null until the link's mail is sent: the token is made then, and only its digest is kept. */
  token_digest: string | null;
  /** A digest of the password hash when the link was made: a changed password kills the link. */
  password_state: string;
  created_at: EpochMs;
  expires_at: EpochMs;
  used_at: EpochMs | null;
  revoked_at: EpochMs | null;
}

export interface MailOutboxTable {
  mail_id: string;
  kind: 'invitation' | 'password_reset' | 'email_verification' | 'security_notice';
  /** Null for a reset request not yet matched to a person (the worker resolves it). */
  recipient: string | null;
  subject_id: string | null;
  link_id: string | null;
  params: JsonText;
  created_at: EpochMs;
  attempts: number;
  /** 0 for new mail (due at once); after a failed send, the worker's time of the next try. */
  next_attempt_at: EpochMs;
  claim_id: string | null;
  claimed_until: EpochMs | null;
  sent_at: EpochMs | null;
  dropped_at: EpochMs | null;
  last_error: string | null;
}

export interface AccountFactorsTable {
  factor_id: string;
  subject_id: string;
  type: 'totp' | 'passkey';
  name: string;
  status: 'pending' | 'active';
  /** The TOTP secret, AES-256-GCM under the key-encryption secret; empty for a passkey (it has none). */
  secret_encrypted: string;
  /** The last RFC 6238 time step accepted: codes of this step or earlier are refused. */
  last_used_step: number | null;
  created_at: EpochMs;
  last_used_at: EpochMs | null;
  /** A passkey's WebAuthn credential id (base64url); null for TOTP. */
  credential_id: string | null;
  /** A passkey's COSE public key (base64url); public, so stored as it is. */
  public_key: string | null;
  /** The authenticator's signature counter, last seen. */
  sign_count: number | null;
  /** The transports the authenticator reported, comma-separated. */
  transports: string | null;
}

/** A WebAuthn challenge (as a digest) until it is used once or expires; `binding` names whom it was made for. */
export interface WebauthnChallengesTable {
  challenge_digest: string;
  binding: string;
  expires_at: EpochMs;
}

export interface RecoveryCodesTable {
  subject_id: string;
  code_digest: string;
  created_at: EpochMs;
  used_at: EpochMs | null;
}

export interface SecuritySettingsTable {
  settings_id: string;
  mfa_required: 'none' | 'admins' | 'everyone';
  version: number;
  updated_at: EpochMs;
}

export interface IdentityProvidersTable {
  name: string;
  type: 'oidc' | 'ldap';
  display_name: string;
  enabled: Flag;
  provisioning: 'create' | 'existing_only';
  link_by_verified_email: Flag;
  /** JSON array of lower-case domains; empty: every domain. */
  allowed_email_domains: JsonText;
  /** JSON of the type's settings (UpstreamOidcSettings or DirectorySettings), never the secret. */
  settings: JsonText;
  /** The client secret or bind password, AES-256-GCM under the key-encryption secret. */
  secret_sealed: string | null;
  position: number;
  version: number;
  created_at: EpochMs;
  updated_at: EpochMs;
  /** JSON `{"<upstream group name or LDAP group DN>": "<group name>"}`. */
  group_mapping: JsonText;
}

export interface UpstreamIdentitiesTable {
  identity_id: string;
  provider_name: string;
  issuer: string;
  subject: string;
  subject_id: string;
  created_at: EpochMs;
  last_sign_in_at: EpochMs | null;
}

export interface GroupsTable {
  name: string;
  display_name: string;
  description: string;
  version: number;
  created_at: EpochMs;
  updated_at: EpochMs;
}

export interface GroupMembersTable {
  group_name: string;
  subject_id: string;
  /** `local`, `oidc:NAME` or `ldap:NAME`: who manages the membership. */
  source: string;
  created_at: EpochMs;
}

export interface Database {
  users: UsersTable;
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  clients: ClientsTable;
  client_revisions: ClientRevisionsTable;
  client_secrets: ClientSecretsTable;
  sessions: SessionsTable;
  audit_log: AuditLogTable;
  signing_keys: SigningKeysTable;
  oidc_payloads: OidcPayloadsTable;
  remembered_consents: RememberedConsentsTable;
  upstream_sign_ins: UpstreamSignInsTable;
  upstream_console_sign_ins: UpstreamConsoleSignInsTable;
  instance_settings: InstanceSettingsTable;
  account_links: AccountLinksTable;
  mail_outbox: MailOutboxTable;
  idempotency_keys: IdempotencyKeysTable;
  account_factors: AccountFactorsTable;
  recovery_codes: RecoveryCodesTable;
  security_settings: SecuritySettingsTable;
  webauthn_challenges: WebauthnChallengesTable;
  identity_providers: IdentityProvidersTable;
  upstream_identities: UpstreamIdentitiesTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
}

export type UserRow = Selectable<UsersTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type ProjectMemberRow = Selectable<ProjectMembersTable>;
export type ClientRow = Selectable<ClientsTable>;
export type ClientSecretRow = Selectable<ClientSecretsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type SigningKeyRow = Selectable<SigningKeysTable>;
export type OidcPayloadRow = Selectable<OidcPayloadsTable>;
export type AccountLinkRow = Selectable<AccountLinksTable>;
export type MailOutboxRow = Selectable<MailOutboxTable>;
export type { Generated, Insertable, Updateable };
