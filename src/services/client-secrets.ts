import type { Actor } from '../domain/actor.ts';
import { secretIsUsable } from '../domain/client-secrets.ts';
import { SECRET_POLICY } from '../domain/clients.ts';
import { sha256Hex } from '../domain/digests.ts';
import { newSecretId, newSecretValue } from '../domain/ids.ts';
import { AppError } from '../errors.ts';
import type { ClientSecretRow } from '../storage/schema.ts';
import { writeAudit } from './audit.ts';
import { loadClient } from './client-mapping.ts';
import { clientNotFound, openClientWrite } from './clients.ts';
import type { ServiceDeps } from './deps.ts';
import { bumpClientVersion } from './optimistic-lock.ts';
import type { Client, NewSecret } from './types.ts';

export interface RotationInput {
  clientVersion: number;
  /** How long the old secret keeps working; default 3600, at most 604800, 0 revokes it at once. */
  gracePeriodSeconds?: number | undefined;
}

const usable = (row: ClientSecretRow, now: number) => secretIsUsable({ status: row.status, expiresAt: row.expires_at }, now);

function checkGracePeriod(value: unknown): number {
  if (value === undefined) return SECRET_POLICY.defaultGraceSeconds;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > SECRET_POLICY.maxGraceSeconds) {
    const message = `must be a whole number of seconds from 0 to ${SECRET_POLICY.maxGraceSeconds}`;
    throw new AppError('invalid_request', `gracePeriodSeconds ${message}.`, { fieldErrors: { gracePeriodSeconds: message } });
  }
  return value;
}

export function createClientSecretService({ db, clock }: ServiceDeps) {
  return {
    /**
     * Makes a new active secret (returned here once) and lets the old one retire until now + grace.
     * At most two secrets are usable at a time, so a rotation that would make a third is refused.
     */
    async rotateClientSecret(actor: Actor, projectId: string, clientId: string, input: RotationInput): Promise<{ client: Client; secret: NewSecret }> {
      return db.transaction().execute(async (trx) => {
        const { row } = await openClientWrite(trx, actor, projectId, clientId, input.clientVersion);
        if (row.client_type !== 'web') {
          throw new AppError('invalid_client_type', `Only web clients have secrets; a ${row.client_type} client is public and authenticates with PKCE alone.`);
        }
        const graceSeconds = checkGracePeriod(input.gracePeriodSeconds);
        const now = clock.now();
        const secrets = await trx.selectFrom('client_secrets').selectAll().where('client_id', '=', clientId).execute();
        const active = secrets.filter((s) => s.status === 'active');
        const retiring = secrets.filter((s) => s.status === 'retiring' && usable(s, now));
        const usableAfter = retiring.length + (graceSeconds > 0 ? active.length : 0) + 1;
        if (usableAfter > SECRET_POLICY.maxUsableSecrets) {
          const still = retiring.map((s) => `${s.secret_id} until ${new Date(s.expires_at ?? now).toISOString()}`).join(', ');
          throw new AppError(
            'secret_limit_exceeded',
            `A client has at most ${SECRET_POLICY.maxUsableSecrets} usable secrets and a previous secret is still retiring (${still}); ` +
              'revoke it first (or wait for its grace period to end), then rotate again.',
          );
        }

        await bumpClientVersion(trx, clientId, input.clientVersion, { updated_at: now });
        const expired = secrets.filter((s) => s.status === 'retiring' && !usable(s, now)).map((s) => s.secret_id);
        if (expired.length > 0) await trx.updateTable('client_secrets').set({ status: 'revoked' }).where('secret_id', 'in', expired).execute();
        const retiringUntil = graceSeconds > 0 ? now + graceSeconds * 1000 : null;
        for (const old of active) {
          await trx
            .updateTable('client_secrets')
            .set(retiringUntil === null ? { status: 'revoked', expires_at: now } : { status: 'retiring', expires_at: retiringUntil })
            .where('secret_id', '=', old.secret_id)
            .execute();
        }
        const value = newSecretValue();
        const secretId = newSecretId();
        await trx
          .insertInto('client_secrets')
          .values({ secret_id: secretId, client_id: clientId, digest: sha256Hex(value), status: 'active', created_at: now, expires_at: null, last_used_at: null })
          .execute();
        await writeAudit(trx, clock, actor, {
          action: 'client.secret_rotate',
          targetType: 'client',
          targetId: clientId,
          projectId,
          before: { activeSecretIds: active.map((s) => s.secret_id) },
          after: {
            activeSecretId: secretId,
            gracePeriodSeconds: graceSeconds,
            ...(retiringUntil === null ? { revokedSecretIds: active.map((s) => s.secret_id) } : { retiringSecretIds: active.map((s) => s.secret_id), retiringUntil }),
          },
        });
        const client = await loadClient(trx, projectId, clientId, now);
        if (!client) throw clientNotFound(projectId, clientId);
        return { client, secret: { secretId, value, createdAt: now } };
      });
    },

    /** Stops a secret at once. Revoking one that no longer works changes nothing. */
    async revokeClientSecret(actor: Actor, projectId: string, clientId: string, secretId: string, input: { clientVersion: number }): Promise<Client> {
      return db.transaction().execute(async (trx) => {
        await openClientWrite(trx, actor, projectId, clientId, input.clientVersion);
        const secret = await trx.selectFrom('client_secrets').selectAll().where('secret_id', '=', secretId).where('client_id', '=', clientId).executeTakeFirst();
        if (!secret) throw new AppError('not_found', `Client ${clientId} has no secret ${secretId}; GET the client to see its secrets.`);
        const now = clock.now();
        if (usable(secret, now)) {
          await bumpClientVersion(trx, clientId, input.clientVersion, { updated_at: now });
          await trx.updateTable('client_secrets').set({ status: 'revoked', expires_at: now }).where('secret_id', '=', secretId).execute();
          await writeAudit(trx, clock, actor, {
            action: 'client.secret_revoke',
            targetType: 'client',
            targetId: clientId,
            projectId,
            before: { secretId, status: secret.status, expiresAt: secret.expires_at },
            after: { secretId, status: 'revoked', expiresAt: now },
          });
        }
        const client = await loadClient(trx, projectId, clientId, now);
        if (!client) throw clientNotFound(projectId, clientId);
        return client;
      });
    },
  };
}

export type ClientSecretService = ReturnType<typeof createClientSecretService>;
