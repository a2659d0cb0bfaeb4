import { said, see } from '../../domain/pointed-text.ts';
import type { Actor } from '../../domain/actor.ts';
import { secretIsUsable } from '../../domain/client-secrets.ts';
import { SECRET_POLICY } from '../../domain/clients.ts';
import { sha256Hex } from '../../domain/digests.ts';
import { newSecretId, newSecretValue } from '../../domain/ids.ts';
import { AppError } from '../../errors.ts';
import { writeAudit } from '../shared/audit.ts';
import { loadClient } from './client-mapping.ts';
import { clientNotFound, openClientWrite } from './clients.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import { bumpClientVersion } from '../shared/optimistic-lock.ts';
import type { Client, NewSecret } from '../shared/types.ts';

export interface RotationInput {
  clientVersion: number;
  /** How long the old secret keeps working; default 3600, at most 604800, 0 revokes it at once. */
  gracePeriodSeconds?: number | undefined;
}

export function createClientSecretService({ store, clock }: ServiceDeps) {
  return {
    /**
     * Makes a new active secret (returned here once) and lets the old one retire until now + grace.
     * At most two secrets are usable at a time, so a rotation that would make a third is refused.
     */
    async rotateClientSecret(actor: Actor, projectId: string, clientId: string, input: RotationInput): Promise<{ client: Client; secret: NewSecret }> {
      return store.transaction(async (repos) => {
        const { client: current } = await openClientWrite(repos, actor, projectId, clientId, input.clientVersion);
        if (current.clientType !== 'web') {
          throw new AppError('invalid_client_type', said`Only web clients have secrets; a ${current.clientType} client is public and authenticates with PKCE alone. If the application needs a secret, register a web client (${see('registerClient')} with \`clientType\` "web").`);
        }
        const graceSeconds = input.gracePeriodSeconds ?? SECRET_POLICY.defaultGraceSeconds;
        const now = clock.now();
        const secrets = await repos.clientSecrets.listForClients([clientId]);
        const active = secrets.filter((s) => s.status === 'active');
        const retiring = secrets.filter((s) => s.status === 'retiring' && secretIsUsable(s, now));
        const usableAfter = retiring.length + (graceSeconds > 0 ? active.length : 0) + 1;
        if (usableAfter > SECRET_POLICY.maxUsableSecrets) {
          const still = retiring.map((s) => `${s.secretId} until ${new Date(s.expiresAt ?? now).toISOString()}`).join(', ');
          throw new AppError(
            'secret_limit_exceeded',
            said`A client has at most ${SECRET_POLICY.maxUsableSecrets} usable secrets and a previous secret is still retiring (${still}); revoke it first (${see('revokeClientSecret')} with \`clientVersion\`, once its \`lastUsedAt\` shows nothing uses it) or wait for its grace period to end, then rotate again.`,
          );
        }

        await bumpClientVersion(repos, clientId, input.clientVersion, { updatedAt: now });
        await repos.clientSecrets.revoke(secrets.filter((s) => s.status === 'retiring' && !secretIsUsable(s, now)).map((s) => s.secretId));
        const retiringUntil = graceSeconds > 0 ? now + graceSeconds * 1000 : null;
        const activeIds = active.map((s) => s.secretId);
        if (retiringUntil === null) await repos.clientSecrets.revoke(activeIds, now);
        else for (const secretId of activeIds) await repos.clientSecrets.retire(secretId, retiringUntil);
        const value = newSecretValue();
        const secretId = newSecretId();
        await repos.clientSecrets.insert({ secretId, clientId, digest: sha256Hex(value), createdAt: now });
        await writeAudit(repos, clock, actor, {
          action: 'client.secret_rotate',
          targetType: 'client',
          targetId: clientId,
          projectId,
          before: { activeSecretIds: activeIds },
          after: {
            activeSecretId: secretId,
            gracePeriodSeconds: graceSeconds,
            ...(retiringUntil === null ? { revokedSecretIds: activeIds } : { retiringSecretIds: activeIds, retiringUntil: new Date(retiringUntil).toISOString() }),
          },
        });
        const client = await loadClient(repos, projectId, clientId, now);
        if (!client) throw clientNotFound(projectId, clientId);
        return { client, secret: { secretId, value, createdAt: now } };
      });
    },

    /** Stops a secret at once. Revoking one that no longer works changes nothing. */
    async revokeClientSecret(actor: Actor, projectId: string, clientId: string, secretId: string, input: { clientVersion: number }): Promise<Client> {
      return store.transaction(async (repos) => {
        await openClientWrite(repos, actor, projectId, clientId, input.clientVersion);
        const secret = await repos.clientSecrets.find(clientId, secretId);
        if (!secret) throw new AppError('not_found', said`Client ${clientId} has no secret ${secretId}; ${see('getClient')} lists its \`secrets\`.`);
        const now = clock.now();
        if (secretIsUsable(secret, now)) {
          await bumpClientVersion(repos, clientId, input.clientVersion, { updatedAt: now });
          await repos.clientSecrets.revoke([secretId], now);
          await writeAudit(repos, clock, actor, {
            action: 'client.secret_revoke',
            targetType: 'client',
            targetId: clientId,
            projectId,
            before: { secretId, status: secret.status, expiresAt: secret.expiresAt === null ? null : new Date(secret.expiresAt).toISOString() },
            after: { secretId, status: 'revoked', expiresAt: new Date(now).toISOString() },
          });
        }
        const client = await loadClient(repos, projectId, clientId, now);
        if (!client) throw clientNotFound(projectId, clientId);
        return client;
      });
    },
  };
}

export type ClientSecretService = ReturnType<typeof createClientSecretService>;
