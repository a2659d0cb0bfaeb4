import { createAccountService } from './account.ts';
import { createAssistantGrantService } from './assistant-grants.ts';
import { createAccountLocaleService } from './account-locale.ts';
import { createAccountIdentityService } from './account-identities.ts';
import { createAuditLogService } from './audit-log.ts';
import { createClientImportService } from './client-import.ts';
import { createClientSecretService } from './client-secrets.ts';
import { createClientService } from './clients.ts';
import type { Clock } from '../domain/clock.ts';
import { unlimitedLookups, type LookupLimiter } from '../rate-limit/lookup-limiter.ts';
import { unlimitedSignIns, type SignInLimiter } from '../rate-limit/sign-in-limiter.ts';
import type { Db, Engine } from '../storage/database.ts';
import { createStore } from '../storage/store.ts';
import type { MailSettings, ServiceLog } from './deps.ts';
import { createEmailVerificationService } from './email-verification.ts';
import { createInvitationService } from './invitations.ts';
import { createOutgoingMailService } from './mail/outgoing-mail.ts';
import { createIdempotencyService } from './idempotency.ts';
import { createFactorService } from './factors.ts';
import { createPasskeyService } from './passkeys.ts';
import { createFederatedSignInService } from './federated-sign-in.ts';
import { createGroupService } from './groups.ts';
import { createIdentityProviderService } from './identity-providers.ts';
import { createMemberService } from './members.ts';
import { createPasswordResetService } from './password-reset.ts';
import { createProjectService } from './projects.ts';
import { createSecurityNoticeService } from './security-notices.ts';
import { createSecuritySettingsService } from './security-settings.ts';
import { createSessionService } from './sessions.ts';
import { createSignInDecisionService } from './sign-in-decision.ts';
import { createUpstreamSignInService } from './upstream-sign-in.ts';
import { createUserService } from './users.ts';

/**
 * Every use case, shared by the Agent API, the Management API, the CLI and start-up. A server passes
 * its sign-in and lookup limiters; without them (the command line) nothing is limited.
 */
export function createServices({
  db,
  engine,
  clock,
  signInLimiter = unlimitedSignIns,
  mail,
  lookupLimiter = unlimitedLookups,
  keyEncryptionSecret,
  issuer,
  reauthWindowSeconds,
  log,
}: {
  db: Db;
  engine: Engine;
  clock: Clock;
  signInLimiter?: SignInLimiter;
  lookupLimiter?: LookupLimiter;
  /** Absent: no mail (invitations, resets and verification say so). */
  mail?: MailSettings | undefined;
  /** Seals TOTP secrets; absent, the one start-up generated and kept in the database (outside production). */
  keyEncryptionSecret?: string | undefined;
  /** OIDC_ISSUER, which passkeys are bound to; absent (the command line), passkeys are unavailable. */
  issuer?: string | undefined;
  /** REAUTH_WINDOW_SECONDS; absent, the default. */
  reauthWindowSeconds?: number | undefined;
  /** Warnings of the use cases that do not fail the request (a directory's failed group search). */
  log?: ServiceLog | undefined;
}) {
  const deps = { store: createStore(db, engine), clock, signInLimiter, lookupLimiter, keyEncryptionSecret, issuer, reauthWindowSeconds, log, ...(mail ? { mail } : {}) };
  return {
    users: createUserService(deps),
    /** What a sign-in still owes (done with amr/acr, a second factor, enrolment): every door asks it. */
    signInDecision: createSignInDecisionService(deps),
    sessions: createSessionService(deps),
    projects: createProjectService(deps),
    members: createMemberService(deps),
    clients: { ...createClientService(deps), ...createClientSecretService(deps), ...createClientImportService(deps) },
    audit: createAuditLogService(deps),
    invitations: createInvitationService(deps),
    passwordReset: createPasswordResetService(deps),
    emailVerification: createEmailVerificationService(deps),
    accountLocale: createAccountLocaleService(deps),
    securityNotices: createSecurityNoticeService(deps),
    outgoingMail: createOutgoingMailService(deps),
    idempotency: createIdempotencyService(deps),
    account: createAccountService(deps),
    assistantGrants: createAssistantGrantService(deps),
    factors: createFactorService(deps),
    passkeys: createPasskeyService(deps),
    settings: createSecuritySettingsService(deps),
    identityProviders: createIdentityProviderService(deps),
    federatedSignIn: createFederatedSignInService(deps),
    upstreamSignIns: createUpstreamSignInService(deps),
    accountIdentities: createAccountIdentityService(deps),
    groups: createGroupService(deps),
  };
}

export type Services = ReturnType<typeof createServices>;
