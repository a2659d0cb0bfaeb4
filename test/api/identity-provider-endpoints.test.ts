import { importIdentityProvidersFile } from '../../src/startup/first-deployment.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { AppError } from '../../src/errors.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { startUpstreamProvider, type UpstreamProvider } from '../helpers/upstream-oidc.ts';
import { createAgentClient } from './helpers/api-clients.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

const CLIENT_SECRET = 'the secret the upstream gave Sesame';
const BIND_PASSWORD = 'the directory bind password';

// DESIGN.md section 14, "Upstream and directory": no directory password in clear off this machine, and a
// stored secret never follows a provider to a new endpoint.
describe.each(TEST_ENGINES)('identity provider endpoints and their secrets on %s', (engine) => {
  let ctx: TestContext;
  let upstream: UpstreamProvider;
  let admin: ReturnType<typeof createAgentClient>;
  /** Another server, standing in for an endpoint an administrator's change would point at: it records what reaches it. */
  let elsewhere: Server;
  const reachedElsewhere: IncomingMessage[] = [];
  let elsewhereUrl = '';

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    upstream = await startUpstreamProvider([{ client_id: 'sesame', client_secret: CLIENT_SECRET, redirect_uris: ['http://localhost:3000/upstream/campus/callback'] }], {});
    elsewhere = createServer((request, response) => {
      reachedElsewhere.push(request);
      response.statusCode = 404;
      response.end();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const address = elsewhere.address();
    elsewhereUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/realms/other`;
    await createAccounts(ctx.services, ['boss'], ['boss']);
    admin = createAgentClient(ctx.app);
    await admin.login('boss', PASSWORD);
  }, 60_000);
  afterAll(async () => {
    await upstream?.stop();
    await new Promise((resolve) => elsewhere?.close(resolve));
    await ctx?.close();
  });

  const directory = (name: string, ldap: Record<string, unknown>) => ({
    type: 'ldap', name, displayName: `Directory ${name}`, provisioning: 'existing_only',
    ldap: { bindDn: 'cn=sesame,dc=example,dc=edu', bindPassword: BIND_PASSWORD, userSearchBase: 'ou=people,dc=example,dc=edu', ...ldap },
  });

  it('refuses plain ldap:// to a remote host with 400 naming ldap.url; accepts loopback, ldaps:// and StartTLS', async () => {
    const remote = await admin.call('POST', '/admin/identity-providers', directory('remote-clear', { url: 'ldap://ldap.example.net:389' }));
    expect(remote.status).toBe(400);
    expect(remote.body.error).toBe('invalid_request');
    expect(remote.body.field_errors['ldap.url']).toMatch(/in clear/);
    const spoofed = await admin.call('POST', '/admin/identity-providers', directory('spoofed', { url: 'ldap://127.0.0.1.example.net', startTls: false }));
    expect(spoofed.status).toBe(400);
    expect(spoofed.body.field_errors).toHaveProperty(['ldap.url']);
    expect(await ctx.db.selectFrom('identity_providers').select('name').where('name', 'in', ['remote-clear', 'spoofed']).execute()).toEqual([]);

    for (const [name, ldap] of [
      ['loopback-v4', { url: 'ldap://127.0.0.1:389' }],
      ['loopback-v6', { url: 'ldap://[::1]:389' }],
      ['loopback-name', { url: 'ldap://localhost:389' }],
      ['remote-tls', { url: 'ldaps://ldap.example.net' }],
      ['remote-starttls', { url: 'ldap://ldap.example.net', startTls: true }],
    ] as const) {
      const created = await admin.call('POST', '/admin/identity-providers', directory(name, ldap));
      expect(created.status, `${name}: ${created.text}`).toBe(201);
    }

    // A change cannot take a directory off TLS either.
    const offTls = await admin.call('PATCH', '/admin/identity-providers/remote-starttls', { expectedVersion: 1, ldap: { startTls: false } });
    expect(offTls.status).toBe(400);
    expect(offTls.body.field_errors['ldap.url']).toMatch(/in clear/);
  });

  it('refuses a first-deployment file whose directory would get passwords in clear, naming the entry', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sesame-providers-'));
    try {
      const path = join(dir, 'clients.json');
      writeFileSync(path, JSON.stringify({ identityProviders: [directory('from-file', { url: 'ldap://ldap.example.net' })] }));
      const error = await importIdentityProvidersFile(ctx.services, cliActor, path).then(() => undefined, (caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).fieldErrors).toHaveProperty(['identityProviders[0].ldap.url']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('needs the bind password again when the directory url changes, and keeps it for any other change', async () => {
    await admin.call('POST', '/admin/identity-providers', directory('moving', { url: 'ldaps://ldap.example.edu' }));
    const withoutPassword = await admin.call('PATCH', '/admin/identity-providers/moving', { expectedVersion: 1, ldap: { url: 'ldaps://ldap.attacker.example' } });
    expect(withoutPassword.status).toBe(400);
    expect(Object.keys(withoutPassword.body.field_errors)).toEqual(['ldap.bindPassword']);
    const renamed = await admin.call('PATCH', '/admin/identity-providers/moving', { expectedVersion: 1, displayName: 'Renamed directory', ldap: { userSearchBase: 'ou=staff,dc=example,dc=edu' } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.identityProvider).toMatchObject({ hasBindPassword: true, ldap: { url: 'ldaps://ldap.example.edu' } });
    const moved = await admin.call('PATCH', '/admin/identity-providers/moving', { expectedVersion: 2, ldap: { url: 'ldaps://ldap2.example.edu', bindPassword: 'the new directory password' } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.identityProvider).toMatchObject({ version: 3, hasBindPassword: true, ldap: { url: 'ldaps://ldap2.example.edu' } });
  });

  it('needs the client secret again when the issuer changes, before anything reaches the new issuer', async () => {
    const created = await admin.call('POST', '/admin/identity-providers', { type: 'oidc', name: 'campus', displayName: 'Campus', provisioning: 'create', oidc: { issuer: upstream.issuer, clientId: 'sesame', clientSecret: CLIENT_SECRET } });
    expect(created.status, created.text).toBe(201);
    const withoutSecret = await admin.call('PATCH', '/admin/identity-providers/campus', { expectedVersion: 1, oidc: { issuer: elsewhereUrl } });
    expect(withoutSecret.status).toBe(400);
    expect(Object.keys(withoutSecret.body.field_errors)).toEqual(['oidc.clientSecret']);
    expect(reachedElsewhere).toEqual([]);
    const stored = await admin.call('GET', '/admin/identity-providers');
    expect(stored.body.identityProviders.find((p: { name: string }) => p.name === 'campus')).toMatchObject({ version: 1, oidc: { issuer: upstream.issuer } });
    // The same issuer written again is no change of endpoint.
    const same = await admin.call('PATCH', '/admin/identity-providers/campus', { expectedVersion: 1, displayName: 'Campus login', oidc: { issuer: upstream.issuer } });
    expect(same.status, same.text).toBe(200);
  });
});
