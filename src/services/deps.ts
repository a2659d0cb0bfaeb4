import type { Clock } from '../domain/clock.ts';
import type { SignInLimiter } from '../rate-limit/sign-in-limiter.ts';
import type { Store } from '../storage/store.ts';

export interface ServiceDeps {
  store: Store;
  clock: Clock;
  /** Applied inside the sign-in use cases, so every surface that signs a person in is limited alike. */
  signInLimiter: SignInLimiter;
  /** Seals TOTP secrets; when absent, the secret start-up generated and kept in the database (outside production). */
  keyEncryptionSecret?: string | undefined;
}
