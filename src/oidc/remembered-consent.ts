import type { Clock } from '../domain/clock.ts';
import type { Db } from '../storage/database.ts';
import { TOKEN_LIFETIMES } from './token-lifetimes.ts';

// Kept beside oidc-provider's artifacts, under a kind of its own: oidc-provider's grants end with the
// session (sign-out revokes them), while a person's consent for a client should outlast sessions.
const KIND = 'RememberedConsent';
const idFor = (subjectId: string, clientId: string) => `${subjectId} ${clientId}`;

/** The scopes this person has allowed this client on the consent page; empty when never. */
export async function rememberedConsentScopes(db: Db, clock: Clock, subjectId: string, clientId: string): Promise<string[]> {
  const row = await db
    .selectFrom('oidc_payloads')
    .select('payload')
    .where('kind', '=', KIND)
    .where('id', '=', idFor(subjectId, clientId))
    .where('expires_at', '>', clock.now())
    .executeTakeFirst();
  if (!row) return [];
  const { scopes } = JSON.parse(row.payload) as { scopes?: unknown };
  return Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [];
}

/** Adds the scopes just allowed to what is remembered for this person and client. */
export async function rememberConsent(db: Db, clock: Clock, subjectId: string, clientId: string, scopes: string[]): Promise<void> {
  const known = await rememberedConsentScopes(db, clock, subjectId, clientId);
  const row = {
    payload: JSON.stringify({ scopes: [...new Set([...known, ...scopes])] }),
    grant_id: null,
    uid: null,
    expires_at: clock.now() + TOKEN_LIFETIMES.rememberedConsent * 1000,
    consumed_at: null,
  };
  await db
    .insertInto('oidc_payloads')
    .values({ kind: KIND, id: idFor(subjectId, clientId), ...row })
    .onConflict((oc) => oc.columns(['kind', 'id']).doUpdateSet(row))
    .execute();
}
