import type { Clock } from '../domain/clock.ts';
import type { Store } from '../storage/store.ts';
import { TOKEN_LIFETIMES } from './token-lifetimes.ts';

/** The scopes this person has allowed this client on the consent page; empty when never. */
export async function rememberedConsentScopes(store: Store, clock: Clock, subjectId: string, clientId: string): Promise<string[]> {
  return store.repos.rememberedConsents.scopes(subjectId, clientId, clock.now());
}

/** Adds the scopes just allowed to what is remembered for this person and client. */
export async function rememberConsent(store: Store, clock: Clock, subjectId: string, clientId: string, scopes: string[]): Promise<void> {
  const known = await rememberedConsentScopes(store, clock, subjectId, clientId);
  const now = clock.now();
  await store.repos.rememberedConsents.save(subjectId, clientId, [...new Set([...known, ...scopes])], now + TOKEN_LIFETIMES.rememberedConsent * 1000, now);
}
