import type { Clock } from '../domain/clock.ts';
import type { LookupLimiter } from '../rate-limit/lookup-limiter.ts';
import type { SignInLimiter } from '../rate-limit/sign-in-limiter.ts';
import type { Db } from '../storage/database.ts';
import type { Store } from '../storage/store.ts';

export interface ServiceDeps {
  /** TRANSITIONAL (issue 11): services move to `store`; this goes when none uses it. */
  db: Db;
  store: Store;
  clock: Clock;
  /** Applied inside the sign-in use cases, so every surface that signs a person in is limited alike. */
  signInLimiter: SignInLimiter;
  /** Applied inside the account lookup, so no surface can enumerate accounts around it. */
  lookupLimiter: LookupLimiter;
}
