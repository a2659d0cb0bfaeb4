import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretIsUsable } from '../../src/domain/client-secrets.ts';
import { sha256Hex } from '../../src/domain/digests.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createCast, createCastProject, expectRefusedUnchanged, spaClientInput, webClientInput, type Cast } from './fixtures.ts';
import type { Project } from '../../src/services/shared/types.ts';

describe.each(TEST_ENGINES)('client secret rotation and revocation on %s', (engine) => {
  let ctx: TestContext;
  let cast: Cast;
  let project: Project;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    cast = await createCast(ctx);
    project = await createCastProject(ctx, cast, 'Secrets');
  });
  afterAll(() => ctx.close());

  /** The secrets /token would accept right now, read the way the OIDC side reads them. */
  async function usableDigests(clientId: string): Promise<string[]> {
    const rows = await ctx.db.selectFrom('client_secrets').selectAll().where('client_id', '=', clientId).execute();
    const now = ctx.clock.now();
    return rows.filter((r) => secretIsUsable({ status: r.status, expiresAt: r.expires_at }, now)).map((r) => r.digest).sort();
  }

  it('rotates: a new secret returned once, the old one retiring for the default hour, then unusable', async () => {
    const { client, secret: first } = await ctx.services.clients.registerClient(cast.maintainer, project.projectId, webClientInput);
    const start = ctx.clock.now();
    const { client: rotated, secret: second } = await ctx.services.clients.rotateClientSecret(cast.maintainer, project.projectId, client.clientId, { clientVersion: 1 });
    expect(second.value).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(second.value).not.toBe(first!.value);
    expect(rotated.clientVersion).toBe(2);
    expect(rotated.secrets).toEqual([
      { secretId: second.secretId, status: 'active', createdAt: start, expiresAt: null, lastUsedAt: null },
      { secretId: first!.secretId, status: 'retiring', createdAt: start, expiresAt: start + 3600_000, lastUsedAt: null },
    ]);
    expect(await usableDigests(client.clientId)).toEqual([sha256Hex(first!.value), sha256Hex(second.value)].sort());

    const stored = JSON.stringify(await ctx.db.selectFrom('client_secrets').selectAll().where('client_id', '=', client.clientId).execute());
    expect(stored).not.toContain(second.value);
    const audit = await ctx.db.selectFrom('audit_log').selectAll().where('target_id', '=', client.clientId).where('action', '=', 'client.secret_rotate').execute();
    expect(JSON.parse(audit[0]!.after_json!)).toEqual({ activeSecretId: second.secretId, gracePeriodSeconds: 3600, retiringSecretIds: [first!.secretId], retiringUntil: new Date(start + 3600_000).toISOString() });
    expect(JSON.stringify(audit)).not.toContain(second.value);
    expect(JSON.stringify(audit)).not.toContain(sha256Hex(second.value));

    // The plaintext is never shown again.
    const read = await ctx.services.clients.getClient(cast.owner, project.projectId, client.clientId);
    expect(JSON.stringify(read)).not.toContain(second.value);

    ctx.clock.advance(3600_000 - 1);
    expect(await usableDigests(client.clientId)).toHaveLength(2);
    ctx.clock.advance(1);
    expect(await usableDigests(client.clientId)).toEqual([sha256Hex(second.value)]);
    const afterGrace = await ctx.services.clients.getClient(cast.owner, project.projectId, client.clientId);
    expect(afterGrace.secrets.map((s) => [s.secretId, s.status])).toEqual([
      [second.secretId, 'active'],
      [first!.secretId, 'revoked'],
    ]);
  });

  it('allows at most two usable secrets: rotating while one retires is 409 secret_limit_exceeded', async () => {
    const { client } = await ctx.services.clients.registerClient(cast.maintainer, project.projectId, webClientInput);
    const once = await ctx.services.clients.rotateClientSecret(cast.maintainer, project.projectId, client.clientId, { clientVersion: 1, gracePeriodSeconds: 600 });
    await expectRefusedUnchanged(ctx, 'secret_limit_exceeded', () =>
      ctx.services.clients.rotateClientSecret(cast.maintainer, project.projectId, client.clientId, { clientVersion: once.client.clientVersion }),
    );

    // Revoking the retiring secret frees the slot.
    const retiring = once.client.secrets.find((s) => s.status === 'retiring')!;
    const revoked = await ctx.services.clients.revokeClientSecret(cast.maintainer, project.projectId, client.clientId, retiring.secretId, { clientVersion: once.client.clientVersion });
    expect(revoked.secrets.find((s) => s.secretId === retiring.secretId)).toMatchObject({ status: 'revoked', expiresAt: ctx.clock.now() });
    expect(revoked.clientVersion).toBe(once.client.clientVersion + 1);
    expect(await usableDigests(client.clientId)).toEqual([sha256Hex(once.secret.value)]);
    const twice = await ctx.services.clients.rotateClientSecret(cast.maintainer, project.projectId, client.clientId, { clientVersion: revoked.clientVersion, gracePeriodSeconds: 600 });

    // So does the end of the grace period.
    ctx.clock.advance(600_000);
    const thrice = await ctx.services.clients.rotateClientSecret(cast.maintainer, project.projectId, client.clientId, { clientVersion: twice.client.clientVersion });
    expect(thrice.client.secrets.filter((s) => s.status !== 'revoked').map((s) => s.secretId)).toEqual([thrice.secret.secretId, twice.secret.secretId]);
    const rows = await ctx.db.selectFrom('client_secrets').select(['secret_id', 'status']).where('client_id', '=', client.clientId).execute();
    expect(rows.filter((r) => r.status === 'retiring').map((r) => r.secret_id)).toEqual([twice.secret.secretId]);
  });

  it('grace 0 revokes the old secret at once; the longest grace period is accepted', async () => {
    const { client, secret } = await ctx.services.clients.registerClient(cast.owner, project.projectId, webClientInput);
    // Out-of-range grace periods are the contract's to refuse: test/api/client-rules.test.ts.
    const rotated = await ctx.services.clients.rotateClientSecret(cast.owner, project.projectId, client.clientId, { clientVersion: 1, gracePeriodSeconds: 0 });
    expect(rotated.client.secrets.find((s) => s.secretId === secret!.secretId)?.status).toBe('revoked');
    expect(await usableDigests(client.clientId)).toEqual([sha256Hex(rotated.secret.value)]);

    const max = await ctx.services.clients.rotateClientSecret(cast.owner, project.projectId, client.clientId, { clientVersion: 2, gracePeriodSeconds: 604_800 });
    expect(max.client.secrets.find((s) => s.secretId === rotated.secret.secretId)?.expiresAt).toBe(ctx.clock.now() + 604_800_000);
  });

  it('refuses rotation for spa clients, viewers, non-members and stale versions', async () => {
    const spa = await ctx.services.clients.registerClient(cast.maintainer, project.projectId, spaClientInput);
    await expectRefusedUnchanged(ctx, 'invalid_client_type', () =>
      ctx.services.clients.rotateClientSecret(cast.maintainer, project.projectId, spa.client.clientId, { clientVersion: 1 }),
    );
    const { client } = await ctx.services.clients.registerClient(cast.maintainer, project.projectId, webClientInput);
    await expectRefusedUnchanged(ctx, 'forbidden', () => ctx.services.clients.rotateClientSecret(cast.viewer, project.projectId, client.clientId, { clientVersion: 1 }));
    await expectRefusedUnchanged(ctx, 'not_found', () => ctx.services.clients.rotateClientSecret(cast.outsider, project.projectId, client.clientId, { clientVersion: 1 }));
    await expectRefusedUnchanged(ctx, 'version_conflict', () => ctx.services.clients.rotateClientSecret(cast.maintainer, project.projectId, client.clientId, { clientVersion: 7 }));
    const byAdmin = await ctx.services.clients.rotateClientSecret(cast.admin, project.projectId, client.clientId, { clientVersion: 1 });
    expect(byAdmin.client.clientVersion).toBe(2);
  });

  it('revokes a secret at once; unknown secrets are 404 and revoking a dead one changes nothing', async () => {
    const { client, secret } = await ctx.services.clients.registerClient(cast.maintainer, project.projectId, webClientInput);
    await expectRefusedUnchanged(ctx, 'forbidden', () =>
      ctx.services.clients.revokeClientSecret(cast.viewer, project.projectId, client.clientId, secret!.secretId, { clientVersion: 1 }),
    );
    await expectRefusedUnchanged(ctx, 'not_found', () =>
      ctx.services.clients.revokeClientSecret(cast.maintainer, project.projectId, client.clientId, 'sec_unknown', { clientVersion: 1 }),
    );
    const revoked = await ctx.services.clients.revokeClientSecret(cast.maintainer, project.projectId, client.clientId, secret!.secretId, { clientVersion: 1 });
    expect(revoked).toMatchObject({ clientVersion: 2, secrets: [{ secretId: secret!.secretId, status: 'revoked' }] });
    expect(await usableDigests(client.clientId)).toEqual([]);
    const audit = await ctx.db.selectFrom('audit_log').selectAll().where('target_id', '=', client.clientId).where('action', '=', 'client.secret_revoke').execute();
    expect(JSON.parse(audit[0]!.before_json!)).toMatchObject({ secretId: secret!.secretId, status: 'active' });
    expect(JSON.stringify(audit)).not.toContain(secret!.value);

    const again = await ctx.services.clients.revokeClientSecret(cast.maintainer, project.projectId, client.clientId, secret!.secretId, { clientVersion: 2 });
    expect(again.clientVersion).toBe(2);

    // With no active secret left, a rotation issues a fresh one.
    const fresh = await ctx.services.clients.rotateClientSecret(cast.maintainer, project.projectId, client.clientId, { clientVersion: 2 });
    expect(await usableDigests(client.clientId)).toEqual([sha256Hex(fresh.secret.value)]);

    // Another client's secret is not reachable through this client.
    const other = await ctx.services.clients.registerClient(cast.maintainer, project.projectId, webClientInput);
    await expectRefusedUnchanged(ctx, 'not_found', () =>
      ctx.services.clients.revokeClientSecret(cast.maintainer, project.projectId, client.clientId, other.secret!.secretId, { clientVersion: 3 }),
    );
  });
});
