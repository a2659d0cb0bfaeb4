import { isStorableText } from '../../domain/text-rules.ts';
import { precompile } from '../precompiled-query.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

/**
 * What people allowed clients on the consent page. oidc-provider's grants end with the browser session
 * (signing out revokes them); a person's consent for a client outlasts sessions, so it is kept here.
 */
export interface RememberedConsentRepository {
  /** The scopes this person allowed this client (unexpired); empty when never. */
  scopes(subjectId: string, clientId: string, now: number): Promise<string[]>;
  /** Replaces the remembered scopes of this person for this client; drops the expired ones on the way. */
  save(subjectId: string, clientId: string, scopes: string[], expiresAt: number, now: number): Promise<void>;
  /** Forgets what this person allowed this client: the next authorization asks again. */
  forget(subjectId: string, clientId: string): Promise<void>;
  /** Forgets what anyone allowed this client (the client itself is going). */
  forgetClient(clientId: string): Promise<void>;
}

const scopeList = (text: string): string[] => {
  const scopes: unknown = JSON.parse(text);
  return Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string') : [];
};

/** The owner of `remembered_consents`. */
export const rememberedConsentRepository: RepositoryFactory<RememberedConsentRepository> = (db) => {
  // Read at an authorization whose browser session holds no grant for the client: compiled once.
  const findScopes = precompile(['subject', 'client', 'now'], (value) =>
    db.selectFrom('remembered_consents').select('scopes').where('subject_id', '=', value('subject')).where('client_id', '=', value('client')).where('expires_at', '>', value('now')));

  return (executor: Executor): RememberedConsentRepository => ({
    async scopes(subjectId, clientId, now) {
      if (!isStorableText(subjectId) || !isStorableText(clientId)) return [];
      const row = (await executor.executeQuery(findScopes({ subject: subjectId, client: clientId, now }))).rows[0];
      return row ? scopeList(row.scopes) : [];
    },

    async save(subjectId, clientId, scopes, expiresAt, now) {
      await executor.deleteFrom('remembered_consents').where('expires_at', '<=', now).execute();
      const kept = { scopes: JSON.stringify(scopes), expires_at: expiresAt };
      await executor
        .insertInto('remembered_consents')
        .values({ subject_id: subjectId, client_id: clientId, ...kept })
        .onConflict((oc) => oc.columns(['subject_id', 'client_id']).doUpdateSet(kept))
        .execute();
    },

    async forget(subjectId, clientId) {
      if (!isStorableText(subjectId) || !isStorableText(clientId)) return;
      await executor.deleteFrom('remembered_consents').where('subject_id', '=', subjectId).where('client_id', '=', clientId).execute();
    },

    async forgetClient(clientId) {
      if (!isStorableText(clientId)) return;
      await executor.deleteFrom('remembered_consents').where('client_id', '=', clientId).execute();
    },
  });
};
