import type { Clock } from '../../domain/clock.ts';
import type { MailRequestLimiter } from '../../rate-limit/mail-request-limiter.ts';
import type { LookupLimiter } from '../../rate-limit/lookup-limiter.ts';
import type { SignInLimiter } from '../../rate-limit/sign-in-limiter.ts';
import type { Store } from '../../storage/store.ts';

/** Where a use case reports what went wrong without failing the request (e.g. a directory's group search). */
export interface ServiceLog {
  warn(details: object, message: string): void;
}

export interface ServiceDeps {
  store: Store;
  clock: Clock;
  /** Applied inside the sign-in use cases, so every surface that signs a person in is limited alike. */
  signInLimiter: SignInLimiter;
  /** Seals TOTP secrets; when absent, the secret start-up generated and kept in the database (outside production). */
  keyEncryptionSecret?: string | undefined;
  /** Applied inside the account lookup, so no surface can enumerate accounts around it. */
  lookupLimiter: LookupLimiter;
  /** Absent or disabled: Sesame sends no mail, and the features that need it say so. */
  mail?: MailSettings;
  /** OIDC_ISSUER: passkeys are bound to its host (the WebAuthn relying-party ID) and origin. Absent: no passkeys. */
  issuer?: string | undefined;
  /** REAUTH_WINDOW_SECONDS: how recent a console session's proof of the person must be for a person-only operation; absent, the default. */
  reauthWindowSeconds?: number | undefined;
  /** Absent (the command line, unit tests): warnings are dropped. */
  log?: ServiceLog | undefined;
}

export interface MailSettings {
  /** Whether SMTP_URL is set; mail is queued in the outbox only then. */
  enabled: boolean;
  /** Limits the requests that mail a person (password resets) per account and per address. */
  requestLimiter: MailRequestLimiter;
}
