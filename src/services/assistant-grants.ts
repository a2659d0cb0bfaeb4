import { said, see } from '../domain/pointed-text.ts';
import type { Actor } from '../domain/actor.ts';
import { AppError } from '../errors.ts';
import type { AssistantGrantCursor } from '../storage/repositories/oidc-payload-repository.ts';
import { grantScopes } from './account.ts';
import { writeAudit } from './audit.ts';
import type { ServiceDeps } from './deps.ts';

export type { AssistantGrantCursor };

/** A person's connection of an assistant (a grant of a native client), as administrators see it. */
export interface AssistantGrant {
  grantId: string;
  clientId: string;
  displayName: string;
  subjectId: string;
  account: string;
  scopes: string[];
  grantedAt: number | null;
  lastUsedAt: number | null;
}

export interface AssistantGrantPage {
  grants: AssistantGrant[];
  /** Where the next page starts; null on the last page. */
  next: AssistantGrantCursor | null;
}

/** How often "last used" is written per grant at most: using a token stays a read almost always. */
export const GRANT_USE_INTERVAL_MS = 60_000;

function requireAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw new AppError('forbidden', said`Only administrators see and revoke every person's assistants; your own are under ${see('listMyConsents')}.`);
}

/** Every assistant connected to any account: administrators list and revoke them. */
export function createAssistantGrantService({ store, clock }: ServiceDeps) {
  // Per instance, the last time each grant's use was written: most requests write nothing at all.
  const lastNoted = new Map<string, number>();

  return {
    async listAssistantGrants(actor: Actor, page: { limit: number; before?: AssistantGrantCursor | undefined }): Promise<AssistantGrantPage> {
      requireAdmin(actor);
      // One more than asked says whether another page follows.
      const records = await store.repos.oidcPayloads.listAssistantGrants(clock.now(), { limit: page.limit + 1, before: page.before });
      const shown = records.slice(0, page.limit);
      const last = shown.at(-1);
      return {
        grants: shown.map((record) => ({
          grantId: record.grantId,
          clientId: record.clientId,
          displayName: record.clientDisplayName,
          subjectId: record.subjectId,
          account: record.account,
          scopes: grantScopes(record.payload),
          grantedAt: typeof record.payload.iat === 'number' ? record.payload.iat * 1000 : null,
          lastUsedAt: record.lastUsedAt,
        })),
        next: records.length > page.limit && last ? { expiresAt: last.expiresAt, grantId: last.grantId } : null,
      };
    },

    /** Ends the connection at once (its access and refresh tokens die) and forgets the person's consent for that assistant. */
    async revokeAssistantGrant(actor: Actor, grantId: string): Promise<void> {
      requireAdmin(actor);
      await store.transaction(async (repos) => {
        const grant = await repos.oidcPayloads.findAssistantGrant(grantId, clock.now());
        if (!grant) throw new AppError('not_found', said`There is no assistant grant ${grantId}. List them with ${see('listAssistantGrants')}.`);
        await repos.oidcPayloads.revokeGrantOfAccount(grant.accountId, grantId);
        await repos.oidcPayloads.forgetRememberedConsent(grant.accountId, grant.clientId);
        await writeAudit(repos, clock, actor, { action: 'assistant_grant.revoke', targetType: 'user', targetId: grant.accountId, after: { grantId, clientId: grant.clientId } });
      });
    },

    /** Whether the person has a live connection of this client already (a new one is worth a notice by mail). */
    async isConnected(subjectId: string, clientId: string): Promise<boolean> {
      const grants = await store.repos.oidcPayloads.listGrantsOf(subjectId, clock.now());
      return grants.some((grant) => grant.payload.clientId === clientId);
    },

    /** Called for every request an assistant's token makes; writes at most once a minute per grant, across instances too. */
    async noteGrantUsed(grantId: string): Promise<void> {
      const now = clock.now();
      const noted = lastNoted.get(grantId);
      if (noted !== undefined && now - noted < GRANT_USE_INTERVAL_MS) return;
      lastNoted.set(grantId, now);
      if (lastNoted.size > 10_000) lastNoted.clear();
      await store.repos.oidcPayloads.noteGrantUsed(grantId, now, GRANT_USE_INTERVAL_MS);
    },
  };
}

export type AssistantGrantService = ReturnType<typeof createAssistantGrantService>;
