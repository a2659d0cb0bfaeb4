import type { Clock } from '../domain/clock.ts';
import type { LookupLimiter } from '../rate-limit/lookup-limiter.ts';
import type { SignInLimiter } from '../rate-limit/sign-in-limiter.ts';
import type { Store } from '../storage/store.ts';

export interface ServiceDeps {
  store: Store;
  clock: Clock;
  /** Applied inside the sign-in use cases, so every surface that signs a person in is limited alike. */
  signInLimiter: SignInLimiter;
  /** Applied inside the account lookup, so no surface can enumerate accounts around it. */
  lookupLimiter: LookupLimiter;
}
