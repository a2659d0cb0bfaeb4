import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/digests.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createCast, createCastProject, expectRefusedUnchanged, spaClientInput, webClientInput, type Cast } from './fixtures.ts';
import type { Project } from '../../src/services/shared/types.ts';

describe.each(TEST_ENGINES)('client service on %s', (engine) => {
  let ctx: TestContext;
  let cast: Cast;
  let project: Project;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    cast = await createCast(ctx);
    project = await createCastProject(ctx, cast, 'Clients');
  });
  afterAll(() => ctx.close());

  it('registers a web client with one active secret returned once and stored only as a digest', async () => {
    const { client, secret } = await ctx.services.clients.registerClient(cast.maintainer, project.projectId, { ...webClientInput, description: 'Main site' });
    expect(client).toMatchObject({
      projectId: project.projectId,
      clientType: 'web',
      displayName: 'Web app',
      description: 'Main site',
      redirectUris: ['https://rp.example.com/callback'],
      postLogoutRedirectUris: [],
      scopeWhitelist: ['openid', 'profile', 'offline_access'],
      requirePkce: true,
      status: 'active',
      revision: 1,
      clientVersion: 1,
    });
    expect(secret?.value).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(client.secrets).toEqual([{ secretId: secret!.secretId, status: 'active', createdAt: secret!.createdAt, expiresAt: null, lastUsedAt: null }]);

    const stored = await ctx.db.selectFrom('client_secrets').selectAll().where('client_id', '=', client.clientId).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.digest).toBe(sha256Hex(secret!.value));
    expect(JSON.stringify(stored)).not.toContain(secret!.value);

    const read = await ctx.services.clients.getClient(cast.viewer, project.projectId, client.clientId);
    expect(read).toEqual(client);
    expect(JSON.stringify(read)).not.toContain(secret!.value);
    expect(JSON.stringify(read)).not.toContain(stored[0]!.digest);

    const revisions = await ctx.db.selectFrom('client_revisions').selectAll().where('client_id', '=', client.clientId).execute();
    expect(revisions).toEqual([expect.objectContaining({ revision: 1, redirect_uris: '["https://rp.example.com/callback"]', created_by: cast.maintainer.subjectId })]);

    const audit = await ctx.db.selectFrom('audit_log').selectAll().where('target_id', '=', client.clientId).execute();
    expect(audit.map((a) => a.action)).toEqual(['client.create']);
    expect(JSON.parse(audit[0]!.after_json!)).toMatchObject({ clientType: 'web', redirectUris: ['https://rp.example.com/callback'], secretIds: [secret!.secretId] });
    expect(JSON.stringify(audit)).not.toContain(secret!.value);
    expect(JSON.stringify(audit)).not.toContain(stored[0]!.digest);
  });

  it('registers a spa client with PKCE forced on and no secret', async () => {
    const result = await ctx.services.clients.registerClient(cast.owner, project.projectId, spaClientInput);
    expect(result.secret).toBeUndefined();
    expect(result.client).toMatchObject({ clientType: 'spa', requirePkce: true, secrets: [] });
    expect(await ctx.db.selectFrom('client_secrets').selectAll().where('client_id', '=', result.client.clientId).execute()).toEqual([]);
  });

  // Field rules (URIs, scopes, names, types) are the contracts' to apply: test/api/client-rules.test.ts.

  it('lets maintainers, owners and admins write clients; viewers get 403 and non-members 404', async () => {
    await expectRefusedUnchanged(ctx, 'forbidden', () => ctx.services.clients.registerClient(cast.viewer, project.projectId, webClientInput));
    await expectRefusedUnchanged(ctx, 'not_found', () => ctx.services.clients.registerClient(cast.outsider, project.projectId, webClientInput));
    await expectRefusedUnchanged(ctx, 'not_found', () => ctx.services.clients.listClients(cast.outsider, project.projectId));
    const { client } = await ctx.services.clients.registerClient(cast.admin, project.projectId, webClientInput);
    await expectRefusedUnchanged(ctx, 'not_found', () => ctx.services.clients.getClient(cast.outsider, project.projectId, client.clientId));
    await expectRefusedUnchanged(ctx, 'forbidden', () =>
      ctx.services.clients.updateClientMetadata(cast.viewer, project.projectId, client.clientId, { clientVersion: 1, displayName: 'Viewer edit' }),
    );
    await expectRefusedUnchanged(ctx, 'forbidden', () =>
      ctx.services.clients.reviseClientConfiguration(cast.viewer, project.projectId, client.clientId, { clientVersion: 1, ...webClientInput }),
    );
    const listed = await ctx.services.clients.listClients(cast.viewer, project.projectId);
    expect(listed.map((c) => c.clientId)).toContain(client.clientId);

    // A client id from another project is not found through this one.
    const other = await ctx.services.projects.createProject(cast.outsider, { name: 'Elsewhere' });
    await expectRefusedUnchanged(ctx, 'not_found', () => ctx.services.clients.getClient(cast.outsider, other.projectId, client.clientId));
    await expectRefusedUnchanged(ctx, 'not_found', () =>
      ctx.services.clients.updateClientMetadata(cast.outsider, other.projectId, client.clientId, { clientVersion: 1, displayName: 'Cross-project' }),
    );
  });

  it('changes metadata with the client version bumped and only the changed fields audited', async () => {
    const { client } = await ctx.services.clients.registerClient(cast.maintainer, project.projectId, webClientInput);
    const renamed = await ctx.services.clients.updateClientMetadata(cast.maintainer, project.projectId, client.clientId, { clientVersion: 1, displayName: 'Renamed' });
    expect(renamed).toMatchObject({ displayName: 'Renamed', clientVersion: 2, revision: 1 });
    const disabled = await ctx.services.clients.updateClientMetadata(cast.owner, project.projectId, client.clientId, { clientVersion: 2, status: 'disabled' });
    expect(disabled).toMatchObject({ status: 'disabled', clientVersion: 3 });

    await expectRefusedUnchanged(ctx, 'version_conflict', () =>
      ctx.services.clients.updateClientMetadata(cast.owner, project.projectId, client.clientId, { clientVersion: 2, status: 'active' }),
    );
    await expectRefusedUnchanged(ctx, 'invalid_client_type', () =>
      ctx.services.clients.updateClientMetadata(cast.owner, project.projectId, client.clientId, { clientVersion: 3, clientType: 'spa' }),
    );

    const audit = await ctx.db.selectFrom('audit_log').selectAll().where('target_id', '=', client.clientId).orderBy('at').orderBy('audit_id').execute();
    const update = audit.find((a) => a.action === 'client.update')!;
    expect(JSON.parse(update.before_json!)).toEqual({ displayName: 'Web app' });
    expect(JSON.parse(update.after_json!)).toEqual({ displayName: 'Renamed' });
    const disable = audit.find((a) => a.action === 'client.disable')!;
    expect(JSON.parse(disable.after_json!)).toEqual({ status: 'disabled' });
  });

  it('revises the OIDC configuration as a new revision with history', async () => {
    const { client } = await ctx.services.clients.registerClient(cast.maintainer, project.projectId, webClientInput);
    const revised = await ctx.services.clients.reviseClientConfiguration(cast.maintainer, project.projectId, client.clientId, {
      clientVersion: 1,
      redirectUris: ['https://rp.example.com/callback', 'https://rp.example.com/new'],
      postLogoutRedirectUris: ['https://rp.example.com/bye'],
      scopeWhitelist: ['openid', 'email'],
      requirePkce: false,
    });
    expect(revised).toMatchObject({
      revision: 2,
      clientVersion: 2,
      redirectUris: ['https://rp.example.com/callback', 'https://rp.example.com/new'],
      postLogoutRedirectUris: ['https://rp.example.com/bye'],
      scopeWhitelist: ['openid', 'email'],
      requirePkce: false,
    });
    const revisions = await ctx.db.selectFrom('client_revisions').selectAll().where('client_id', '=', client.clientId).orderBy('revision').execute();
    expect(revisions.map((r) => [r.revision, JSON.parse(r.scope_whitelist)])).toEqual([
      [1, ['openid', 'profile', 'offline_access']],
      [2, ['openid', 'email']],
    ]);
    const audit = await ctx.db.selectFrom('audit_log').selectAll().where('target_id', '=', client.clientId).where('action', '=', 'client.revise').execute();
    expect(JSON.parse(audit[0]!.before_json!)).toEqual({
      revision: 1,
      redirectUris: ['https://rp.example.com/callback'],
      postLogoutRedirectUris: [],
      scopeWhitelist: ['openid', 'profile', 'offline_access'],
      requirePkce: true,
    });

    await expectRefusedUnchanged(ctx, 'version_conflict', () =>
      ctx.services.clients.reviseClientConfiguration(cast.maintainer, project.projectId, client.clientId, { clientVersion: 1, ...webClientInput }),
    );
    await expectRefusedUnchanged(ctx, 'invalid_client_type', () =>
      ctx.services.clients.reviseClientConfiguration(cast.maintainer, project.projectId, client.clientId, { clientVersion: 2, ...spaClientInput }),
    );

    const spa = await ctx.services.clients.registerClient(cast.maintainer, project.projectId, spaClientInput);
    await expectRefusedUnchanged(ctx, 'invalid_client_metadata', () =>
      ctx.services.clients.reviseClientConfiguration(cast.maintainer, project.projectId, spa.client.clientId, {
        clientVersion: 1,
        redirectUris: spaClientInput.redirectUris,
        scopeWhitelist: ['openid', 'offline_access'],
      }),
    );
  });

  it('refuses every client write on an archived project but still lets members read', async () => {
    const frozen = await createCastProject(ctx, cast, 'Frozen clients');
    const { client } = await ctx.services.clients.registerClient(cast.maintainer, frozen.projectId, webClientInput);
    await ctx.services.projects.updateProject(cast.owner, frozen.projectId, { expectedProjectVersion: frozen.version, status: 'archived' });
    await expectRefusedUnchanged(ctx, 'project_archived', () => ctx.services.clients.registerClient(cast.admin, frozen.projectId, webClientInput));
    await expectRefusedUnchanged(ctx, 'project_archived', () =>
      ctx.services.clients.updateClientMetadata(cast.maintainer, frozen.projectId, client.clientId, { clientVersion: 1, displayName: 'x' }),
    );
    await expectRefusedUnchanged(ctx, 'project_archived', () =>
      ctx.services.clients.reviseClientConfiguration(cast.owner, frozen.projectId, client.clientId, { clientVersion: 1, ...webClientInput, scopeWhitelist: ['openid'] }),
    );
    await expectRefusedUnchanged(ctx, 'project_archived', () =>
      ctx.services.clients.rotateClientSecret(cast.maintainer, frozen.projectId, client.clientId, { clientVersion: 1 }),
    );
    await expectRefusedUnchanged(ctx, 'project_archived', () =>
      ctx.services.clients.revokeClientSecret(cast.maintainer, frozen.projectId, client.clientId, client.secrets[0]!.secretId, { clientVersion: 1 }),
    );
    // The role check comes first: a viewer learns nothing more than 403.
    await expectRefusedUnchanged(ctx, 'forbidden', () => ctx.services.clients.registerClient(cast.viewer, frozen.projectId, webClientInput));
    expect((await ctx.services.clients.getClient(cast.viewer, frozen.projectId, client.clientId)).clientId).toBe(client.clientId);
  });
});
