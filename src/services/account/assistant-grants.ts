import { said, see } from '../../domain/pointed-text.ts';
import type { Actor } from '../../domain/actor.ts';
import { isMetadataDocumentClientId } from '../../domain/client-id-documents.ts';
import { AppError } from '../../errors.ts';
import type { AssistantGrant, AssistantGrantCursor, AssistantGrantPage } from '../../domain/views.ts';
import { grantScopes } from './account.ts';
import { writeAudit } from '../shared/audit.ts';
import type { ServiceDeps } from '../shared/deps.ts';

export type { AssistantGrant, AssistantGrantCursor, AssistantGrantPage };

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
        await repos.rememberedConsents.forget(grant.accountId, grant.clientId);
        await writeAudit(repos, clock, actor, { action: 'assistant_grant.revoke', targetType: 'user', targetId: grant.accountId, after: { grantId, clientId: grant.clientId } });
      });
    },

    /**
     * An assistant leaves: the grant its own access token belongs to ends at once (its access and
     * refresh tokens with it) and the person's consent for it is forgotten. `grantId` is the calling
     * token's grant, undefined for a password session, which has none (it ends with logout).
     */
    async disconnectAssistant(actor: Actor, grantId: string | undefined): Promise<void> {
      if (!actor.subjectId) throw new AppError('login_required', 'Sign in first.');
      if (grantId === undefined || !actor.viaClientId) {
        throw new AppError('invalid_request', said`This token is a password session (from ${see('login')}), not an assistant's OAuth connection, so there is no grant to end: end the session with ${see('logout')} instead.`);
      }
      const subjectId = actor.subjectId;
      const clientId = actor.viaClientId;
      await store.transaction(async (repos) => {
        const revoked = await repos.oidcPayloads.revokeGrantOfAccount(subjectId, grantId);
        // The token was accepted a moment ago; a grant gone since (revoked at the same time) has ended already.
        if (!revoked || revoked.clientId !== clientId) throw new AppError('login_required', 'This connection has ended already; there is nothing more to disconnect.');
        await repos.rememberedConsents.forget(subjectId, clientId);
        await writeAudit(repos, clock, actor, { action: 'assistant.disconnect', targetType: 'user', targetId: subjectId, after: { grantId, clientId } });
      });
    },

    /** Whether the person has a live connection of this client already (a new one is worth a notice by mail). */
    async isConnected(subjectId: string, clientId: string): Promise<boolean> {
      const grants = await store.repos.oidcPayloads.listGrantsOf(subjectId, clock.now());
      return grants.some((grant) => grant.payload.clientId === clientId);
    },

    /**
     * A person allowed an assistant on the consent page. The grant keeps the name of an assistant known
     * by its metadata document (`documentName`) as it is now; a connection made or widened (`widened`)
     * is audited as assistant.connect, in the administrators' trail, with the person and the assistant.
     */
    async recordConsent(input: {
      subjectId: string;
      clientId: string;
      clientName: string;
      grantId: string;
      documentName: boolean;
      widened: boolean;
      scopes: string[];
      surface: 'mcp' | 'agent';
      ip: string | null;
    }): Promise<void> {
      if (!input.documentName && !input.widened) return;
      await store.transaction(async (repos) => {
        if (input.documentName) await repos.oidcPayloads.nameGrantClient(input.grantId, input.clientName);
        if (!input.widened) return;
        const actor: Actor = { subjectId: input.subjectId, isAdmin: false, surface: input.surface, ip: input.ip, viaClientId: input.clientId, viaClientName: input.clientName };
        await writeAudit(repos, clock, actor, {
          action: 'assistant.connect',
          targetType: 'user',
          targetId: input.subjectId,
          after: { grantId: input.grantId, clientId: input.clientId, clientName: input.clientName, scopes: input.scopes },
        });
      });
    },

    /** A refresh token of an assistant's grant was presented again after its replacement: the grant has ended; audited as assistant.grant_end_reuse. */
    async recordGrantEndedByReuse(input: { subjectId: string; clientId: string; clientName?: string | null; grantId: string; ip: string | null }): Promise<void> {
      await store.transaction(async (repos) => {
        const registered = (await repos.clients.findForProtocol(input.clientId))?.client;
        // Only assistants: a registered native client, or one known by its metadata document.
        if (registered ? registered.clientType !== 'native' : !isMetadataDocumentClientId(input.clientId)) return;
        const clientName = registered?.displayName ?? input.clientName ?? null;
        const actor: Actor = { subjectId: null, isAdmin: true, surface: 'system', ip: input.ip, viaClientId: input.clientId, viaClientName: clientName };
        await writeAudit(repos, clock, actor, {
          action: 'assistant.grant_end_reuse',
          targetType: 'user',
          targetId: input.subjectId,
          after: { grantId: input.grantId, clientId: input.clientId, clientName },
        });
      });
    },

    /** The name kept on the grant of an assistant known by its metadata document; null when none was. */
    async grantClientName(grantId: string): Promise<string | null> {
      return store.repos.oidcPayloads.grantClientName(grantId);
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
