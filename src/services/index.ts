import { createAccountService } from './account/account.ts';
import { createAssistantGrantService } from './account/assistant-grants.ts';
import { createAccountLocaleService } from './account/account-locale.ts';
import { createAccountIdentityService } from './account/account-identities.ts';
import { createAuditLogService } from './shared/audit-log.ts';
import { createClientImportService } from './projects/client-import.ts';
import { createClientSecretService } from './projects/client-secrets.ts';
import { createClientService } from './projects/clients.ts';
import type { Clock } from '../domain/clock.ts';
import { unlimitedLookups, type LookupLimiter } from '../rate-limit/lookup-limiter.ts';
import { unlimitedSignIns, type SignInLimiter } from '../rate-limit/sign-in-limiter.ts';
import type { Db, Engine } from '../storage/database.ts';
import { createStore } from '../storage/store.ts';
import type { MailSettings, ServiceLog } from './shared/deps.ts';
import { createEmailVerificationService } from './account/email-verification.ts';
import { createInvitationService } from './people/invitations.ts';
import { createOutgoingMailService } from './shared/mail/outgoing-mail.ts';
import { createIdempotencyService } from './shared/idempotency.ts';
import { createFactorService } from './sign-in/factors.ts';
import { createPasskeyService } from './sign-in/passkeys.ts';
import { createFederatedSignInService } from './upstream/federated-person.ts';
import { createGroupService } from './people/groups.ts';
import { createIdentityProviderService } from './upstream/identity-providers.ts';
import { createMemberService } from './projects/members.ts';
import { createPasswordResetService } from './account/password-reset.ts';
import { createProjectService } from './projects/projects.ts';
import { createSecurityNoticeService } from './account/security-notices.ts';
import { createSecuritySettingsService } from './shared/security-settings.ts';
import { createSessionService } from './sign-in/sessions.ts';
import { createSignInDecisionService } from './sign-in/sign-in-decision.ts';
import { createUpstreamSignInService } from './upstream/oidc-upstream-sign-in.ts';
import { createDirectorySignIn } from './upstream/ldap-directory-sign-in.ts';
import { createUserService } from './people/users.ts';

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

  // Each service is built once, here; one that uses another is handed it.
  // Upstream and directory: the providers, and the person behind an upstream identity.
  const identityProviders = createIdentityProviderService(deps);
  const federatedSignIn = createFederatedSignInService(deps);
  const directories = createDirectorySignIn(deps, { federated: federatedSignIn, providers: identityProviders });
  // Sign-in: what a sign-in still owes, passwords, passkeys, sessions.
  /** What a sign-in still owes (done with amr/acr, a second factor, enrolment): every door asks it. */
  const signInDecision = createSignInDecisionService(deps);
  const users = createUserService(deps, { directories, decisions: signInDecision });
  const passkeys = createPasskeyService(deps);
  const sessions = createSessionService(deps, { users, passkeys, decisions: signInDecision });
  // The person's own account.
  const account = createAccountService(deps, { users });
  return {
    signInDecision,
    users,
    sessions,
    passkeys,
    factors: createFactorService(deps, { account }),
    account,
    accountLocale: createAccountLocaleService(deps),
    accountIdentities: createAccountIdentityService(deps),
    emailVerification: createEmailVerificationService(deps),
    passwordReset: createPasswordResetService(deps),
    securityNotices: createSecurityNoticeService(deps),
    assistantGrants: createAssistantGrantService(deps),
    // People and their groups.
    invitations: createInvitationService(deps),
    groups: createGroupService(deps),
    // Upstream and directory.
    identityProviders,
    federatedSignIn,
    upstreamSignIns: createUpstreamSignInService(deps, { identityProviders }),
    // Projects and clients.
    projects: createProjectService(deps),
    members: createMemberService(deps),
    clients: { ...createClientService(deps), ...createClientSecretService(deps), ...createClientImportService(deps) },
    // Shared: the audit trail, the instance's policy, idempotency, outgoing mail.
    audit: createAuditLogService(deps),
    settings: createSecuritySettingsService(deps),
    idempotency: createIdempotencyService(deps),
    outgoingMail: createOutgoingMailService(deps),
  };
}

export type Services = ReturnType<typeof createServices>;
