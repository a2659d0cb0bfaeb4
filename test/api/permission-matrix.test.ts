import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedOperations } from '../../src/api/operations/index.ts';
import type { Actor } from '../../src/domain/actor.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, createConsoleClient, type ApiResponse, type Method } from './helpers/api-clients.ts';
import { snapshotDatabase } from './helpers/db-snapshot.ts';
import { createOpenApiChecker, type OpenApiChecker } from './helpers/openapi-checker.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

const ROLES = ['owner', 'maintainer', 'viewer', 'outsider', 'admin'] as const;
type Role = (typeof ROLES)[number];
const SURFACES = ['agent', 'console'] as const;

interface Fixture {
  projectId: string;
  projectVersion: number;
  webClientId: string;
  webClientVersion: number;
  webSecretId: string;
  spaClientId: string;
  /** Another project of the same people, archived (only an archived project can be deleted). */
  archivedProjectId: string;
  archivedProjectVersion: number;
}

interface Ids {
  maintainer: string;
  viewer: string;
  extra: string;
}

interface Case {
  operationId: string;
  request(f: Fixture, ids: Ids, n: number): { method: Method; path: string; body?: unknown };
  /** Who may: everyone signed in, the project's readers, its client writers, its managers, or administrators. */
  allowed: 'everyone' | 'read' | 'write_clients' | 'manage' | 'admin';
  status: number;
  /** A person-only operation (DESIGN.md section 14): on the Agent API everyone gets 403 browser_only. */
  consoleOnly?: true;
}

const webConfiguration = { redirectUris: ['https://rp.example.com/cb'], scopeWhitelist: ['openid', 'profile'] };

const CASES: Case[] = [
  { operationId: 'listProjects', allowed: 'everyone', status: 200, request: () => ({ method: 'GET', path: '/projects' }) },
  { operationId: 'createProject', allowed: 'everyone', status: 201, request: (_f, _i, n) => ({ method: 'POST', path: '/projects', body: { name: `Created ${n}` } }) },
  { operationId: 'getProject', allowed: 'read', status: 200, request: (f) => ({ method: 'GET', path: `/projects/${f.projectId}` }) },
  {
    operationId: 'updateProject',
    allowed: 'manage',
    status: 200,
    request: (f) => ({ method: 'PATCH', path: `/projects/${f.projectId}`, body: { expectedProjectVersion: f.projectVersion, status: 'archived' } }),
  },
  { operationId: 'listMembers', allowed: 'read', status: 200, request: (f) => ({ method: 'GET', path: `/projects/${f.projectId}/members` }) },
  {
    operationId: 'addMember',
    allowed: 'manage',
    status: 201,
    request: (f, ids) => ({ method: 'POST', path: `/projects/${f.projectId}/members`, body: { subjectId: ids.extra, role: 'viewer', expectedProjectVersion: f.projectVersion } }),
  },
  {
    operationId: 'changeMemberRole',
    allowed: 'manage',
    status: 200,
    request: (f, ids) => ({ method: 'PATCH', path: `/projects/${f.projectId}/members/${ids.viewer}`, body: { role: 'maintainer', expectedProjectVersion: f.projectVersion } }),
  },
  {
    operationId: 'removeMember',
    allowed: 'manage',
    status: 200,
    request: (f, ids) => ({ method: 'DELETE', path: `/projects/${f.projectId}/members/${ids.viewer}`, body: { expectedProjectVersion: f.projectVersion } }),
  },
  {
    operationId: 'transferOwnership',
    allowed: 'manage',
    status: 200,
    request: (f, ids) => ({ method: 'POST', path: `/projects/${f.projectId}/ownership/transfer`, body: { toSubjectId: ids.maintainer, expectedProjectVersion: f.projectVersion } }),
  },
  { operationId: 'listClients', allowed: 'read', status: 200, request: (f) => ({ method: 'GET', path: `/projects/${f.projectId}/clients` }) },
  {
    operationId: 'registerClient',
    allowed: 'write_clients',
    status: 201,
    request: (f) => ({ method: 'POST', path: `/projects/${f.projectId}/clients`, body: { clientType: 'web', displayName: 'Another', ...webConfiguration } }),
  },
  { operationId: 'getClient', allowed: 'read', status: 200, request: (f) => ({ method: 'GET', path: `/projects/${f.projectId}/clients/${f.webClientId}` }) },
  {
    operationId: 'updateClientMetadata',
    allowed: 'write_clients',
    status: 200,
    request: (f) => ({ method: 'PATCH', path: `/projects/${f.projectId}/clients/${f.webClientId}`, body: { clientVersion: f.webClientVersion, status: 'disabled' } }),
  },
  {
    operationId: 'reviseClientConfiguration',
    allowed: 'write_clients',
    status: 200,
    request: (f) => ({
      method: 'PUT',
      path: `/projects/${f.projectId}/clients/${f.webClientId}/revision`,
      body: { clientVersion: f.webClientVersion, redirectUris: ['https://rp.example.com/other'], scopeWhitelist: ['openid'] },
    }),
  },
  {
    operationId: 'rotateClientSecret',
    allowed: 'write_clients',
    status: 201,
    request: (f) => ({ method: 'POST', path: `/projects/${f.projectId}/clients/${f.webClientId}/secrets/rotate`, body: { clientVersion: f.webClientVersion } }),
  },
  {
    operationId: 'revokeClientSecret',
    allowed: 'write_clients',
    status: 200,
    request: (f) => ({ method: 'POST', path: `/projects/${f.projectId}/clients/${f.webClientId}/secrets/${f.webSecretId}/revoke`, body: { clientVersion: f.webClientVersion } }),
  },
  {
    operationId: 'revokeClientTokens',
    allowed: 'write_clients',
    status: 200,
    request: (f) => ({ method: 'POST', path: `/projects/${f.projectId}/clients/${f.webClientId}/tokens/revoke`, body: { clientVersion: f.webClientVersion } }),
  },
  {
    operationId: 'deleteClient',
    allowed: 'write_clients',
    status: 204,
    request: (f) => ({ method: 'DELETE', path: `/projects/${f.projectId}/clients/${f.spaClientId}`, body: { clientVersion: 1 } }),
  },
  {
    operationId: 'deleteProject',
    allowed: 'manage',
    status: 204,
    request: (f) => ({ method: 'DELETE', path: `/projects/${f.archivedProjectId}`, body: { expectedProjectVersion: f.archivedProjectVersion } }),
  },
  { operationId: 'listAdminAuditLogs', allowed: 'admin', status: 200, request: () => ({ method: 'GET', path: '/admin/audit-logs?limit=5' }) },
  { operationId: 'listAuditLogs', allowed: 'read', status: 200, request: (f) => ({ method: 'GET', path: `/projects/${f.projectId}/audit-logs?limit=5` }) },
  { operationId: 'lookupUser', allowed: 'everyone', status: 200, request: () => ({ method: 'GET', path: '/users/lookup?account=extra' }) },
  { operationId: 'listUsers', allowed: 'admin', status: 200, request: () => ({ method: 'GET', path: '/admin/users' }) },
  {
    operationId: 'createUser',
    allowed: 'admin',
    status: 201,
    request: (_f, _i, n) => ({ method: 'POST', path: '/admin/users', body: { account: `new${n}`, displayName: 'New user', password: 'a long enough password' } }),
  },
  { operationId: 'updateUser', allowed: 'admin', status: 200, request: (_f, ids) => ({ method: 'PATCH', path: `/admin/users/${ids.extra}`, body: { displayName: 'Renamed' } }) },
  {
    operationId: 'setUserPassword',
    allowed: 'admin',
    status: 204,
    request: (_f, ids) => ({ method: 'POST', path: `/admin/users/${ids.extra}/password`, body: { password: 'another long password' } }),
  },
  { operationId: 'whoAmI', allowed: 'everyone', status: 200, request: () => ({ method: 'GET', path: '/auth/me' }) },
  { operationId: 'getMyEmail', allowed: 'everyone', status: 200, request: () => ({ method: 'GET', path: '/account/email' }) },
  { operationId: 'changeMyEmail', consoleOnly: true, allowed: 'everyone', status: 202, request: () => ({ method: 'POST', path: '/account/email', body: { email: `me${Math.random().toString(36).slice(2, 8)}@example.test` } }) },
  { operationId: 'getSettings', allowed: 'admin', status: 200, request: () => ({ method: 'GET', path: '/admin/settings' }) },
  // A stale version: administrators get past the permission check to the lock; everyone else is refused before it.
  { operationId: 'updateSettings', allowed: 'admin', status: 409, request: () => ({ method: 'PATCH', path: '/admin/settings', body: { mfaRequired: 'none', expectedSettingsVersion: 999 } }) },
  { operationId: 'resetUserFactors', allowed: 'admin', status: 204, request: (_f, ids) => ({ method: 'POST', path: `/admin/users/${ids.extra}/factors/reset` }) },
  { operationId: 'listAssistantGrants', allowed: 'admin', status: 200, request: () => ({ method: 'GET', path: '/admin/assistant-grants?limit=5' }) },
  // Nobody's grant: administrators get past the permission check to the lookup; everyone else is refused before it.
  { operationId: 'revokeAssistantGrant', allowed: 'admin', status: 404, request: () => ({ method: 'DELETE', path: '/admin/assistant-grants/nobodys-grant' }) },
  { operationId: 'listIdentityProviders', allowed: 'admin', status: 200, request: () => ({ method: 'GET', path: '/admin/identity-providers' }) },
  {
    operationId: 'createIdentityProvider',
    allowed: 'admin',
    status: 201,
    request: (_f, _i, n) => ({
      method: 'POST',
      path: '/admin/identity-providers',
      body: { type: 'ldap', name: `directory-${n}`, displayName: 'Directory', provisioning: 'existing_only', ldap: { url: 'ldap://127.0.0.1:1', bindDn: 'cn=sesame', bindPassword: 'directory secret', userSearchBase: 'dc=example' } },
    }),
  },
  // Administrators get past the permission check to the lookup; everyone else is refused before it.
  { operationId: 'updateIdentityProvider', allowed: 'admin', status: 404, request: () => ({ method: 'PATCH', path: '/admin/identity-providers/nothing-here', body: { expectedVersion: 1, enabled: false } }) },
  { operationId: 'deleteIdentityProvider', allowed: 'admin', status: 404, request: () => ({ method: 'DELETE', path: '/admin/identity-providers/nothing-here', body: { expectedVersion: 1 } }) },
  { operationId: 'listGroups', allowed: 'admin', status: 200, request: () => ({ method: 'GET', path: '/admin/groups' }) },
  { operationId: 'createGroup', allowed: 'admin', status: 201, request: (_f, _i, n) => ({ method: 'POST', path: '/admin/groups', body: { name: `matrix-${n}`, displayName: 'Matrix' } }) },
  { operationId: 'updateGroup', allowed: 'admin', status: 404, request: () => ({ method: 'PATCH', path: '/admin/groups/nothing-here', body: { expectedVersion: 1, displayName: 'x' } }) },
  { operationId: 'deleteGroup', allowed: 'admin', status: 404, request: () => ({ method: 'DELETE', path: '/admin/groups/nothing-here', body: { expectedVersion: 1 } }) },
  { operationId: 'listGroupMembers', allowed: 'admin', status: 404, request: () => ({ method: 'GET', path: '/admin/groups/nothing-here/members' }) },
  { operationId: 'addGroupMember', allowed: 'admin', status: 404, request: (_f, ids) => ({ method: 'PUT', path: `/admin/groups/nothing-here/members/${ids.extra}` }) },
  { operationId: 'removeGroupMember', allowed: 'admin', status: 404, request: (_f, ids) => ({ method: 'DELETE', path: `/admin/groups/nothing-here/members/${ids.extra}` }) },
  { operationId: 'listMyIdentities', allowed: 'everyone', status: 200, request: () => ({ method: 'GET', path: '/account/identities' }) },
  { operationId: 'removeMyIdentity', consoleOnly: true, allowed: 'everyone', status: 404, request: () => ({ method: 'DELETE', path: '/account/identities/idn_nobodys' }) },
  // My account: every signed-in person, on their own account only (ids of nobody's session, consent or factor are not found).
  { operationId: 'changePassword', consoleOnly: true, allowed: 'everyone', status: 400, request: () => ({ method: 'POST', path: '/account/password', body: { currentPassword: PASSWORD, newPassword: 'short' } }) },
  { operationId: 'setMyLocale', allowed: 'everyone', status: 200, request: () => ({ method: 'PUT', path: '/account/locale', body: { locale: 'zh-CN' } }) },
  { operationId: 'listMySessions', allowed: 'everyone', status: 200, request: () => ({ method: 'GET', path: '/account/sessions' }) },
  { operationId: 'endMySession', allowed: 'everyone', status: 404, request: () => ({ method: 'DELETE', path: '/account/sessions/ses_nobodys' }) },
  { operationId: 'listMyConsents', allowed: 'everyone', status: 200, request: () => ({ method: 'GET', path: '/account/consents' }) },
  { operationId: 'revokeMyConsent', allowed: 'everyone', status: 404, request: () => ({ method: 'DELETE', path: '/account/consents/nobodys-grant' }) },
  { operationId: 'listMyFactors', allowed: 'everyone', status: 200, request: () => ({ method: 'GET', path: '/account/factors' }) },
  { operationId: 'startTotp', consoleOnly: true, allowed: 'everyone', status: 201, request: () => ({ method: 'POST', path: '/account/factors/totp', body: { name: 'Phone' } }) },
  { operationId: 'confirmTotp', consoleOnly: true, allowed: 'everyone', status: 404, request: () => ({ method: 'POST', path: '/account/factors/totp/fac_nobodys/confirm', body: { code: '123456' } }) },
  { operationId: 'passkeyOptions', consoleOnly: true, allowed: 'everyone', status: 200, request: () => ({ method: 'POST', path: '/account/factors/passkeys/options' }) },
  {
    operationId: 'addPasskey',
    consoleOnly: true,
    allowed: 'everyone',
    status: 400,
    request: () => ({ method: 'POST', path: '/account/factors/passkeys', body: { name: 'Laptop', response: { id: 'Kx3u', rawId: 'Kx3u', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'oA' } } } }),
  },
  { operationId: 'newRecoveryCodes', consoleOnly: true, allowed: 'everyone', status: 400, request: () => ({ method: 'POST', path: '/account/recovery-codes' }) },
  { operationId: 'reauthenticate', consoleOnly: true, allowed: 'everyone', status: 204, request: () => ({ method: 'POST', path: '/account/reauthenticate', body: { currentPassword: PASSWORD } }) },
  { operationId: 'removeFactor', consoleOnly: true, allowed: 'everyone', status: 404, request: () => ({ method: 'DELETE', path: '/account/factors/fac_nobodys', body: { currentPassword: PASSWORD } }) },
];

const ALLOWED: Record<Case['allowed'], readonly Role[]> = {
  everyone: ROLES,
  read: ['owner', 'maintainer', 'viewer', 'admin'],
  write_clients: ['owner', 'maintainer', 'admin'],
  manage: ['owner', 'admin'],
  admin: ['admin'],
};

/** Not a member and not an administrator: the project is invisible (404). A member without the capability, or a non-admin on admin routes: 403. */
function refusal(kase: Case, role: Role): { status: number; error: string } {
  if (kase.allowed === 'admin' || role !== 'outsider') return { status: 403, error: 'forbidden' };
  return { status: 404, error: 'not_found' };
}

describe.each(TEST_ENGINES)('permission matrix on %s', (engine) => {
  let ctx: TestContext;
  let ids: Ids;
  let owner: Actor;
  const callers = {} as Record<(typeof SURFACES)[number], Record<Role, { call(method: Method, path: string, body?: unknown): Promise<ApiResponse> }>>;
  const checkers = {} as Record<(typeof SURFACES)[number], OpenApiChecker>;
  let counter = 0;

  beforeAll(async () => {
    // Mail is on (to a port where nothing listens: it stays queued), so address changes are accepted.
    ctx = await createTestContext(engine, { SMTP_URL: 'smtp://127.0.0.1:9' });
    // The bootstrap administrator already holds the account `admin`.
    const accounts = await createAccounts(ctx.services, ['owner', 'maintainer', 'viewer', 'outsider', 'administrator', 'extra'], ['administrator']);
    ids = { maintainer: accounts.maintainer.subjectId, viewer: accounts.viewer.subjectId, extra: accounts.extra.subjectId };
    owner = { subjectId: accounts.owner.subjectId, isAdmin: false, surface: 'cli', ip: null };
    callers.agent = {} as never;
    callers.console = {} as never;
    for (const role of ROLES) {
      const account = role === 'admin' ? 'administrator' : role;
      const agent = createAgentClient(ctx.app);
      await agent.login(account, PASSWORD);
      callers.agent[role] = agent;
      const consoleClient = createConsoleClient(ctx.app);
      await consoleClient.login(account, PASSWORD);
      callers.console[role] = consoleClient;
    }
    checkers.agent = createOpenApiChecker((await ctx.app.inject({ method: 'GET', url: '/api/agent/openapi.json' })).json());
    checkers.console = createOpenApiChecker((await ctx.app.inject({ method: 'GET', url: '/api/management/openapi.json' })).json());
  });
  afterAll(() => ctx.close());

  /** A project owned by `owner`, with a maintainer and a viewer, a web client (with its secret) and a spa client. */
  async function createFixture(): Promise<Fixture> {
    const n = ++counter;
    const project = await ctx.services.projects.createProject(owner, { name: `Matrix ${n}` });
    const projectId = project.projectId;
    await ctx.services.members.addMember(owner, projectId, { subjectId: ids.maintainer, role: 'maintainer', expectedProjectVersion: 1 });
    const { project: withMembers } = await ctx.services.members.addMember(owner, projectId, { subjectId: ids.viewer, role: 'viewer', expectedProjectVersion: 2 });
    const web = await ctx.services.clients.registerClient(owner, projectId, { clientType: 'web', displayName: 'Web', ...webConfiguration });
    const spa = await ctx.services.clients.registerClient(owner, projectId, { clientType: 'spa', displayName: 'Spa', ...webConfiguration });
    const other = await ctx.services.projects.createProject(owner, { name: `Matrix ${n} archived` });
    await ctx.services.members.addMember(owner, other.projectId, { subjectId: ids.maintainer, role: 'maintainer', expectedProjectVersion: 1 });
    await ctx.services.members.addMember(owner, other.projectId, { subjectId: ids.viewer, role: 'viewer', expectedProjectVersion: 2 });
    const archived = await ctx.services.projects.updateProject(owner, other.projectId, { expectedProjectVersion: 3, status: 'archived' });
    return {
      projectId,
      projectVersion: withMembers.version,
      webClientId: web.client.clientId,
      webClientVersion: web.client.clientVersion,
      webSecretId: web.secret!.secretId,
      spaClientId: spa.client.clientId,
      archivedProjectId: archived.projectId,
      archivedProjectVersion: archived.version,
    };
  }

  it('covers every shared operation and who-am-I', () => {
    expect(CASES.map((c) => c.operationId).sort()).toEqual([...sharedOperations.map((o) => o.operationId), 'whoAmI'].sort());
  });

  const matrix = SURFACES.flatMap((surface) => CASES.flatMap((kase) => ROLES.map((role) => ({ surface, kase, role }))));

  // Refused requests change nothing (asserted below) and reads change nothing, so the fixture is rebuilt only after an allowed write.
  let current: Fixture | undefined;

  it.each(matrix.map((m) => [`${m.surface} ${m.kase.operationId} as ${m.role}`, m] as const))('%s', async (_name, { surface, kase, role }) => {
    current ??= await createFixture();
    const fixture = current;
    const request = kase.request(fixture, ids, ++counter);
    const before = await snapshotDatabase(ctx.db);
    const response = await callers[surface][role].call(request.method, request.path, request.body);
    expect(checkers[surface].check(request.method, request.path, response)).toEqual([]);

    if (surface === 'agent' && kase.consoleOnly) {
      expect(response.status, response.text).toBe(403);
      expect(response.body.error).toBe('browser_only');
      expect(await snapshotDatabase(ctx.db)).toEqual(before);
      return;
    }

    if (ALLOWED[kase.allowed].includes(role)) {
      if (request.method !== 'GET') current = undefined;
      expect(response.status, response.text).toBe(kase.status);
      if (kase.operationId === 'listProjects') {
        const visible = response.body.projects.some((p: { projectId: string }) => p.projectId === fixture.projectId);
        expect(visible).toBe(role !== 'outsider');
      }
      return;
    }
    const expected = refusal(kase, role);
    expect(response.status, response.text).toBe(expected.status);
    expect(response.body.error).toBe(expected.error);
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
  });
});
