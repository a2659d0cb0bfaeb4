import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { mintAssistantToken } from '../helpers/assistant-token.ts';
import { createStore } from '../../src/storage/store.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { freePort } from '../helpers/oidc-server.ts';
import { PEOPLE_DN, SERVICE_BIND, SLAPD_AVAILABLE, startTestDirectory } from '../helpers/slapd.ts';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.ts';
import { startUpstreamProvider, type UpstreamProvider } from '../helpers/upstream-oidc.ts';
import { createAgentClient, createConsoleClient, type ApiResponse, type Method, type RawRequest } from './helpers/api-clients.ts';
import { createOpenApiChecker, type OpenApiChecker } from './helpers/openapi-checker.ts';

/*
 * What Sesame serves and what it does must agree. The test reads only what the server serves (the
 * /instructions guide and each surface's OpenAPI document), replays every documented request example and
 * provokes every documented error against the live server on both engines and both surfaces, and compares
 * status, error code, field_errors and the response's shape and schema. It also holds the guide, the
 * OpenAPI texts and the real answers to one meaning where an assistant once found three (audit paging, an
 * administrator's role after a transfer, the retry after a conflict, the archived project's text, times).
 */

type Json = Record<string, any>;
interface DocumentedOperation {
  operationId: string;
  method: Method;
  template: string;
  operation: Json;
}

/** The password the documented examples use (login, changePassword, removeFactor): the test's people have it. */
const EXAMPLE_PASSWORD = 'correct horse battery staple';
const TIME_KEY = /(At|Until)$/;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/;
const FIELD_PATH = /^[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z0-9]+)*$/;
/** An error text names what to do next: an operation, the fields at fault, a header to send, or how long to wait. */
const NEXT_STEP = /\b(GET|POST|PUT|PATCH|DELETE) \/|field_errors|Retry-After|wait \d+ seconds|X-CSRF-Token|WWW-Authenticate|application\/json|Idempotency-Key|at most \d+ bytes/;
/** Free-form records: their keys are data, not shape. */
const FREE_FORM = new Set(['before', 'after', 'field_errors', 'paths', 'components', 'info']);

const operationsOf = (document: Json): DocumentedOperation[] =>
  Object.entries(document.paths as Json).flatMap(([template, methods]) =>
    Object.entries(methods as Json).map(([method, operation]) => ({ operationId: operation.operationId as string, method: method.toUpperCase() as Method, template, operation })),
  );

const successStatus = (operation: Json) => Number(Object.keys(operation.responses).find((status) => status.startsWith('2')));

/** The codes an operation documents under a status. */
const documentedCodes = (operation: Json, status: number): string[] => operation.responses[String(status)]?.content?.['application/json']?.schema?.properties?.error?.enum ?? [];

/** Where the example has a field, the answer has it too (recursively; free-form records and nulls aside). */
function shapeProblems(example: unknown, actual: unknown, at = ''): string[] {
  if (example === null || example === undefined || actual === null) return [];
  if (Array.isArray(example)) {
    if (!Array.isArray(actual)) return [`${at || '/'}: the example has an array`];
    return example.length > 0 && actual.length > 0 ? shapeProblems(example[0], actual[0], `${at}.0`) : [];
  }
  if (typeof example === 'object') {
    if (typeof actual !== 'object' || Array.isArray(actual)) return [`${at || '/'}: the example has an object`];
    return Object.entries(example as Json).flatMap(([key, value]) => {
      if (!(key in (actual as Json))) return [`${at}.${key}: in the documented example, not in the answer`];
      return FREE_FORM.has(key) ? [] : shapeProblems(value, (actual as Json)[key], `${at}.${key}`);
    });
  }
  return typeof example === typeof actual ? [] : [`${at}: ${typeof actual} where the example has ${typeof example}`];
}

/** Times are ISO-8601 everywhere: no epoch milliseconds, not even inside audit entries' before/after. */
function timeProblems(value: unknown, at = ''): string[] {
  if (typeof value === 'number') return value >= 1e12 && value < 1e14 ? [`${at}: ${value} looks like epoch milliseconds`] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => timeProblems(item, `${at}.${index}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Json).flatMap(([key, inner]) => [
    ...(TIME_KEY.test(key) && inner !== null && typeof inner !== 'object' && !(typeof inner === 'string' && ISO_TIME.test(inner)) ? [`${at}.${key}: ${JSON.stringify(inner)} is not an ISO-8601 time`] : []),
    ...timeProblems(inner, `${at}.${key}`),
  ]);
}

/** The rows of a Markdown table with the given header, cells unescaped. */
function markdownTable(markdown: string, header: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === header);
  if (start < 0) return [];
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|')));
  }
  return rows;
}

/** The identifier an audit page continues after, as a text says it: "the `auditId` of the last entry". */
const pagingField = (text: string) => /the `(\w+)` of the last entry/.exec(text)?.[1];
/** What a text says the old owner's role becomes after a transfer: "`role` becomes `maintainer`". */
const roleAfterTransfer = (text: string) => /`role` becomes `(\w+)`/.exec(text)?.[1];

describe.each(TEST_ENGINES.flatMap((engine) => (['agent', 'console'] as const).map((surface) => [engine, surface] as const)))('what Sesame serves agrees with what it does, on %s through the %s surface', (engine, surface) => {
  let ctx: TestContext;
  let smtp: SmtpCapture;
  let upstream: UpstreamProvider;
  let document: Json;
  let guide: string;
  let checker: OpenApiChecker;
  const answers: { label: string; response: ApiResponse }[] = [];
  let users = 0;

  const observe = (call: { method: Method; path: string; response: ApiResponse }) => answers.push({ label: `${call.method} ${call.path}`, response: call.response });

  /** A signed-in caller of this surface. */
  async function signIn(account: string, password = EXAMPLE_PASSWORD) {
    const client = surface === 'agent' ? createAgentClient(ctx.app, observe) : createConsoleClient(ctx.app, observe);
    await client.login(account, password);
    return client;
  }
  const anonymous = () => (surface === 'agent' ? createAgentClient(ctx.app, observe) : createConsoleClient(ctx.app, observe));
  type Caller = Awaited<ReturnType<typeof signIn>>;

  let alice: Caller; // an administrator, owner of every world below
  let erin: Caller; // a person whose own account the account operations change
  let bobAccount: string;
  let bob: Caller; // a viewer of the shared world

  async function newPerson(prefix: string, isAdmin = false) {
    users += 1;
    const account = `${prefix}${users}`;
    const user = await ctx.services.users.createUser(cliActor, { account, displayName: `Person ${users}`, email: `${account}@example.edu`, emailVerified: true, password: EXAMPLE_PASSWORD, isAdmin });
    return { subjectId: user.subjectId, account };
  }

  /** A signed-in person with an account at the upstream linked to them (by their verified address, as a first sign-in there does). */
  let linkedIdentityId = '';
  async function personWithLinkedIdentity() {
    const person = await newPerson('linked');
    const caller = await signIn(person.account);
    const email = `${person.account}@example.edu`;
    const { identity } = await ctx.services.federatedSignIn.signIn({ providerName: 'linking', issuer: upstream.issuer, subject: `upstream-${person.account}`, attributes: { account: person.account, displayName: null, email, emailVerified: true }, ip: null });
    linkedIdentityId = identity.identityId;
    return caller;
  }

  /**
   * A person's connection of an assistant (a native client) in the world, written as oidc-provider's adapter
   * writes a grant after the consent page (that ceremony needs a browser), and used once since.
   */
  async function connectedAssistant(world: World): Promise<string> {
    const native = (await alice.call('POST', `/projects/${world.projectId}/clients`, { clientType: 'native', displayName: 'Claude Code', redirectUris: ['http://127.0.0.1/callback'], scopeWhitelist: ['openid'] })).body.client;
    const grantId = `grant-${native.clientId as string}`;
    const now = ctx.clock.now();
    await createStore(ctx.db, engine).repos.oidcPayloads.upsert({
      kind: 'Grant', id: grantId, grantId, uid: null, accountId: world.member.subjectId, expiresAt: now + 3_600_000,
      payload: { kind: 'Grant', accountId: world.member.subjectId, clientId: native.clientId, iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 3600, openid: { scope: 'openid' }, resources: { [`${ctx.config.issuer}/api`]: 'sesame:read sesame:write' } },
    });
    await ctx.services.assistantGrants.noteGrantUsed(grantId);
    return grantId;
  }

  /** An LDAP directory of the identity providers, added through the service; removed again by the caller. */
  const addDirectory = (name: string, url: string) =>
    ctx.services.identityProviders.addProvider(cliActor, { type: 'ldap', name, displayName: name, provisioning: 'create', ldap: { url, bindDn: SERVICE_BIND.dn, bindPassword: SERVICE_BIND.password, userSearchBase: PEOPLE_DN } });
  const removeProvider = async (name: string) => {
    const provider = (await ctx.services.identityProviders.listProviders(cliActor)).find((candidate) => candidate.name === name)!;
    await ctx.services.identityProviders.removeProvider(cliActor, name, provider.version);
  };

  /** A project of alice's with a member, a web client and a spa client, made through the API as an assistant would. */
  async function newWorld() {
    const project = (await alice.call('POST', '/projects', { name: `World ${users}` })).body.project;
    const member = await newPerson('member');
    const outsider = await newPerson('outsider');
    await alice.call('POST', `/projects/${project.projectId}/members`, { subjectId: member.subjectId, expectedProjectVersion: project.version });
    const web = (await alice.call('POST', `/projects/${project.projectId}/clients`, { clientType: 'web', displayName: 'Web', redirectUris: ['https://rp.example.com/cb'], scopeWhitelist: ['openid', 'offline_access'] })).body.client;
    const spa = (await alice.call('POST', `/projects/${project.projectId}/clients`, { clientType: 'spa', displayName: 'Spa', redirectUris: ['https://spa.example.com/cb'], scopeWhitelist: ['openid'] })).body.client;
    return { projectId: project.projectId as string, clientId: web.clientId as string, spaClientId: spa.clientId as string, secretId: web.secrets[0].secretId as string, member, outsider };
  }
  type World = Awaited<ReturnType<typeof newWorld>>;
  let shared: World;

  const projectVersion = async (projectId: string) => (await alice.call('GET', `/projects/${projectId}`)).body.project.version as number;
  const clientVersion = async (world: World, clientId = world.clientId) => (await alice.call('GET', `/projects/${world.projectId}/clients/${clientId}`)).body.client.clientVersion as number;
  const totpCode = async (secret: string): Promise<string> => generate({ secret, epoch: Math.floor(ctx.clock.now() / 1000) });

  const fill = (template: string, params: Record<string, string>) =>
    template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
      if (params[name] === undefined) throw new Error(`no value for {${name}} in ${template}`);
      return encodeURIComponent(params[name]);
    });

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    ctx = await createTestContext(engine, { SMTP_URL: smtp.url, MAIL_FROM: 'Sesame <sesame@example.test>', SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '3' });
    // The upstream OpenID Connect provider the identity provider operations discover.
    upstream = await startUpstreamProvider([{ client_id: 'sesame', client_secret: 'the secret the upstream gave Sesame', redirect_uris: [`${ctx.config.issuer}/upstream/campus/callback`] }], {});
    await ctx.services.identityProviders.addProvider(cliActor, { type: 'oidc', name: 'linking', displayName: 'Linking', provisioning: 'create', linkByVerifiedEmail: true, oidc: { issuer: upstream.issuer, clientId: 'sesame', clientSecret: 'the secret the upstream gave Sesame' } });
    await ctx.services.users.createUser(cliActor, { account: 'alice', displayName: 'Alice', password: EXAMPLE_PASSWORD, isAdmin: true });
    const prefix = surface === 'agent' ? '/api/agent' : '/api/management';
    document = (await ctx.app.inject({ method: 'GET', url: `${prefix}/openapi.json` })).json();
    guide = (await ctx.app.inject({ method: 'GET', url: '/api/agent/instructions' })).json().prompt;
    checker = createOpenApiChecker(document);
    alice = await signIn('alice');
    erin = await signIn((await newPerson('erin')).account);
    shared = await newWorld();
    bobAccount = (await newPerson('bob')).account;
    const bobId = (await alice.call('GET', `/users/lookup?account=${bobAccount}`)).body.user.subjectId;
    await alice.call('POST', `/projects/${shared.projectId}/members`, { subjectId: bobId, role: 'viewer', expectedProjectVersion: await projectVersion(shared.projectId) });
    bob = await signIn(bobAccount);
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.stop();
    await upstream?.stop();
  });

  /**
   * How each documented operation is replayed: its example body with only identifiers, versions and one-time
   * codes replaced by live ones. An operation missing here fails the test, so a new one is replayed too.
   */
  interface Replay {
    /** Who calls; alice (an administrator who owns the world) by default. */
    caller?: () => Promise<Caller>;
    /** The example is handed over for the fields only a live value can fill (an upstream issuer). */
    setUp?: (world: World, example: Json | undefined) => Promise<{ params?: Record<string, string>; query?: string; body?: Json }>;
  }
  const withProjectVersion = async (world: World) => ({ body: { expectedProjectVersion: await projectVersion(world.projectId) } });
  const withClientVersion = async (world: World) => ({ body: { clientVersion: await clientVersion(world) } });
  const withUpstreamProvider = async () => {
    const provider = await ctx.services.identityProviders.addProvider(cliActor, { type: 'oidc', name: `upstream${(users += 1)}`, displayName: 'Upstream', provisioning: 'create', oidc: { issuer: upstream.issuer, clientId: 'sesame', clientSecret: 'the secret the upstream gave Sesame' } });
    return { params: { name: provider.name }, body: { expectedVersion: provider.version } };
  };
  /** A group of its own for the replay (with the world's member in it, when asked), named in the path. */
  const withGroup = async (world: World, withMember = false) => {
    const group = await ctx.services.groups.addGroup(cliActor, { name: `replayed-${(users += 1)}`, displayName: 'Replayed' });
    if (withMember) await ctx.services.groups.putMember(cliActor, group.name, world.member.subjectId);
    return { params: { name: group.name, subjectId: world.member.subjectId }, body: { expectedVersion: group.version } };
  };
  /** A person-only operation (DESIGN.md section 14) answers the Agent API 403 browser_only; it is replayed through the console. */
  const personOnly = (replay: Replay): Replay | { skip: string } =>
    surface === 'agent' ? { skip: 'person-only: the Agent API answers 403 browser_only (test/mcp/person-only-tools.test.ts); the console surface replays it' } : replay;
  /** Alice's read-only assistant, calling with its OAuth access token for the Agent API (the console has no such operation). */
  const assistantOfAlice = async (): Promise<Caller> => {
    const { client } = await ctx.services.clients.registerClient(cliActor, shared.projectId, { clientType: 'native', displayName: 'Replayed assistant', redirectUris: ['http://127.0.0.1/callback'], scopeWhitelist: ['openid'] });
    const caller = createAgentClient(ctx.app, observe);
    const subjectId = (await alice.call('GET', '/auth/me')).body.user.subjectId as string;
    caller.token = await mintAssistantToken(ctx.app, { accountId: subjectId, clientId: client.clientId, resource: `${ctx.config.issuer}/api/agent`, scopes: ['sesame:read'] });
    return caller;
  };
  const REPLAYS: Record<string, Replay | { skip: string }> = {
    getOpenApiDocument: {},
    getInstructions: {},
    getConsoleContext: {},
    login: { caller: async () => { const client = anonymous(); if ('context' in client) await client.context(); return client; } },
    logout: { caller: () => signIn('alice') },
    whoAmI: {},
    listProjects: {},
    createProject: {},
    getProject: {},
    updateProject: { setUp: withProjectVersion },
    deleteProject: {
      setUp: async (world) => {
        await alice.call('PATCH', `/projects/${world.projectId}`, { status: 'archived', expectedProjectVersion: await projectVersion(world.projectId) });
        return withProjectVersion(world);
      },
    },
    listMembers: {},
    addMember: { setUp: async (world) => ({ body: { subjectId: world.outsider.subjectId, expectedProjectVersion: await projectVersion(world.projectId) } }) },
    changeMemberRole: { setUp: async (world) => ({ params: { subjectId: world.member.subjectId }, ...(await withProjectVersion(world)) }) },
    removeMember: { setUp: async (world) => ({ params: { subjectId: world.member.subjectId }, ...(await withProjectVersion(world)) }) },
    transferOwnership: { setUp: async (world) => ({ body: { toSubjectId: world.member.subjectId, expectedProjectVersion: await projectVersion(world.projectId) } }) },
    listClients: {},
    registerClient: {},
    getClient: {},
    updateClientMetadata: { setUp: withClientVersion },
    deleteClient: { setUp: withClientVersion },
    reviseClientConfiguration: { setUp: withClientVersion },
    rotateClientSecret: { setUp: withClientVersion },
    revokeClientSecret: { setUp: withClientVersion },
    revokeClientTokens: { setUp: withClientVersion },
    listAuditLogs: {},
    // Only an assistant's OAuth token has a connection to end (a password session is refused, 400): a read-only one.
    disconnectAssistant: { caller: () => assistantOfAlice() },
    lookupUser: { setUp: async (world) => ({ query: `account=${world.member.account}` }) },
    listUsers: {},
    createUser: {},
    updateUser: { setUp: async (world) => ({ params: { subjectId: world.outsider.subjectId } }) },
    setUserPassword: { setUp: async (world) => ({ params: { subjectId: world.outsider.subjectId } }) },
    resetUserFactors: { setUp: async (world) => ({ params: { subjectId: world.outsider.subjectId } }) },
    changeMyEmail: personOnly({ caller: () => Promise.resolve(erin) }),
    getMyEmail: { caller: () => Promise.resolve(erin) },
    listAdminAuditLogs: {},
    getSettings: {},
    updateSettings: { setUp: async () => ({ body: { expectedSettingsVersion: (await alice.call('GET', '/admin/settings')).body.settings.version } }) },
    changePassword: personOnly({ caller: async () => signIn((await newPerson('pw')).account) }),
    listMySessions: { caller: () => Promise.resolve(erin) },
    endMySession: {
      caller: () => Promise.resolve(erin),
      setUp: async () => {
        const account = (await erin.call('GET', '/auth/me')).body.user.account;
        await signIn(account);
        const other = (await erin.call('GET', '/account/sessions')).body.sessions.find((session: Json) => !session.current);
        return { params: { sessionId: other.sessionId } };
      },
    },
    listMyConsents: { caller: () => Promise.resolve(erin) },
    revokeMyConsent: { skip: 'needs an OpenID Connect consent of a browser sign-in; test/oidc/account-consents.test.ts revokes one through both surfaces' },
    listMyFactors: { caller: () => Promise.resolve(erin) },
    startTotp: personOnly({ caller: () => Promise.resolve(erin) }),
    confirmTotp: personOnly({
      caller: () => Promise.resolve(erin),
      setUp: async () => {
        const started = (await erin.call('POST', '/account/factors/totp', { name: 'Replay' })).body;
        return { params: { factorId: started.factorId }, body: { code: await totpCode(started.secret) } };
      },
    }),
    newRecoveryCodes: personOnly({ caller: () => Promise.resolve(erin) }),
    removeFactor: personOnly({
      caller: () => Promise.resolve(erin),
      setUp: async () => ({ params: { factorId: (await erin.call('GET', '/account/factors')).body.factors[0].factorId } }),
    }),
    passkeyOptions: personOnly({ caller: () => Promise.resolve(erin) }),
    addPasskey: { skip: 'needs a WebAuthn attestation made by an authenticator for the options; test/browser/passkeys.test.ts and test/e2e/console-passkey.test.ts add passkeys with Chromium\'s virtual authenticator' },
    passkeyLoginOptions: { caller: async () => { const client = anonymous(); if ('context' in client) await client.context(); return client; } },
    upstreamLogin: {
      caller: async () => { const client = anonymous(); if ('context' in client) await client.context(); return client; },
      setUp: async () => ({ params: (await withUpstreamProvider()).params }),
    },
    upstreamFinish: { skip: 'needs a browser the upstream provider has just sent back; test/browser/console-upstream-sign-in.test.ts finishes sign-ins in Chromium, with and without a one-time code' },
    passkeyLogin: { skip: 'needs a WebAuthn assertion of a registered passkey; test/browser/passkeys.test.ts and test/e2e/console-passkey.test.ts sign in with Chromium\'s virtual authenticator' },
    setMyLocale: { caller: async () => signIn((await newPerson('locale')).account) },
    listAssistantGrants: {
      setUp: async (world) => {
        await connectedAssistant(world);
        return {};
      },
    },
    revokeAssistantGrant: { setUp: async (world) => ({ params: { grantId: await connectedAssistant(world) } }) },
    listIdentityProviders: {},
    // The documented issuer is not reachable from here; the upstream this test started stands in for it.
    createIdentityProvider: { setUp: async (_world, example) => ({ body: { oidc: { ...example!.oidc, issuer: upstream.issuer } } }) },
    updateIdentityProvider: { setUp: withUpstreamProvider },
    deleteIdentityProvider: { setUp: withUpstreamProvider },
    listGroups: {},
    createGroup: { setUp: async () => ({ body: { name: `replayed-${(users += 1)}` } }) },
    updateGroup: { setUp: (world) => withGroup(world) },
    deleteGroup: { setUp: (world) => withGroup(world) },
    listGroupMembers: { setUp: (world) => withGroup(world, true) },
    addGroupMember: { setUp: async (world) => ({ params: (await withGroup(world)).params }) },
    removeGroupMember: { setUp: async (world) => ({ params: (await withGroup(world, true)).params }) },
    listMyIdentities: { caller: personWithLinkedIdentity },
    removeMyIdentity: personOnly({ caller: personWithLinkedIdentity, setUp: async () => ({ params: { identityId: linkedIdentityId } }) }),
    reauthenticate: personOnly({ caller: () => Promise.resolve(erin) }),
  };
  // Operations that change the callers' own standing run last, in this order.
  const LAST = ['logout', 'updateSettings'];

  it('replays every documented request example: the documented status, schema and shape', async () => {
    const operations = operationsOf(document).sort((a, b) => LAST.indexOf(a.operationId) - LAST.indexOf(b.operationId));
    expect(operations.length).toBeGreaterThan(30);
    const problems: string[] = [];
    const replayed: string[] = [];
    for (const { operationId, method, template, operation } of operations) {
      const replay = REPLAYS[operationId];
      if (!replay) {
        problems.push(`${operationId}: documented, but this test does not know how to replay it; add it to REPLAYS`);
        continue;
      }
      if ('skip' in replay) continue;
      const world = await newWorld();
      const caller = await (replay.caller ?? (() => Promise.resolve(alice)))();
      const example = operation.requestBody?.content['application/json'].example as Json | undefined;
      const setUp = (await replay.setUp?.(world, example)) ?? {};
      const params = { projectId: world.projectId, clientId: world.clientId, secretId: world.secretId, subjectId: world.member.subjectId, ...setUp.params };
      const path = `${fill(template, params)}${setUp.query ? `?${setUp.query}` : ''}`;
      const request: RawRequest = { method, path, ...(example !== undefined || setUp.body ? { body: { ...example, ...setUp.body } } : {}) };
      const response = await caller.request(request);
      replayed.push(operationId);
      const status = successStatus(operation);
      if (response.status !== status) {
        problems.push(`${operationId}: documented ${status}, answered ${response.status} ${response.text.slice(0, 300)}`);
        continue;
      }
      problems.push(...checker.check(method, path, response));
      const documented = operation.responses[String(status)].content?.['application/json']?.example;
      problems.push(...shapeProblems(documented, response.body).map((problem) => `${operationId} answer${problem}`));
      if (operationId === 'transferOwnership') {
        // The documents say what the old owner's role becomes; alice, an administrator and the owner, is that.
        const documentedRole = roleAfterTransfer(operation.responses['200'].description as string);
        if (documentedRole === undefined) problems.push('transferOwnership: the documented answer does not say what the old owner\'s `role` becomes');
        else if (response.body.project.role !== documentedRole) problems.push(`transferOwnership: documented role ${documentedRole}, answered ${response.body.project.role}`);
        if (surface === 'agent' && roleAfterTransfer(guide) !== documentedRole) problems.push(`the guide says the old owner's role becomes ${roleAfterTransfer(guide)}, the OpenAPI document ${documentedRole}`);
      }
    }
    // The sign-in policy the updateSettings example set would ask the administrators for a second factor.
    await alice.call('PATCH', '/admin/settings', { mfaRequired: 'none', expectedSettingsVersion: (await alice.call('GET', '/admin/settings')).body.settings.version });
    expect(problems).toEqual([]);
    expect(replayed).toEqual(expect.arrayContaining(['createProject', 'registerClient', 'rotateClientSecret', 'transferOwnership', 'createUser', 'deleteProject']));
  }, 120_000);

  it('replays the request bodies the guide shows: each is an operation of the OpenAPI document, matches its schema, and the server does it', async () => {
    if (surface !== 'agent') return;
    const shown = [...guide.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s]*)`[^`]{0,40}`(\{[^`]*\})`/g)];
    expect(shown.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const [, method, template, json] of shown) {
      const where = `guide: ${method} ${template} ${json}`;
      const documented = operationsOf(document).find((entry) => entry.method === method && entry.template === template);
      if (!documented) {
        problems.push(`${where}: not an operation of the OpenAPI document`);
        continue;
      }
      const world = await newWorld();
      // What the guide's steps do first: archive before deleting or un-archiving a project.
      if ((method === 'DELETE' && template === '/projects/{projectId}') || json!.includes('"active"')) {
        await alice.call('PATCH', `/projects/${world.projectId}`, { status: 'archived', expectedProjectVersion: await projectVersion(world.projectId) });
      }
      // The guide's placeholders: N is the version read just before, "..." the identifier or credential at hand.
      const version = json!.includes('expectedProjectVersion') ? await projectVersion(world.projectId) : await clientVersion(world);
      const atHand: Json = { subjectId: world.outsider.subjectId, toSubjectId: world.member.subjectId, account: 'alice', password: EXAMPLE_PASSWORD };
      const body = JSON.parse(json!.replace(/\bN\b/g, String(version))) as Json;
      for (const [field, value] of Object.entries(body)) if (value === '...') body[field] = atHand[field];
      const schema = documented.operation.requestBody?.content['application/json'].schema;
      if (!schema) problems.push(`${where}: the operation takes no body`);
      else problems.push(...checker.validateSchema(schema, body).map((problem) => `${where}: ${problem}`));
      const path = fill(template!, { projectId: world.projectId, clientId: world.clientId, subjectId: world.member.subjectId });
      const response = await (template === '/auth/login' ? anonymous() : alice).call(method as Method, path, body);
      if (response.status !== successStatus(documented.operation)) problems.push(`${where}: documented ${successStatus(documented.operation)}, answered ${response.status} ${response.text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  /** How each documented error is provoked; a code missing here fails the test. */
  const PROVOKE: Record<string, ((world: World) => Promise<{ operationId: string; response: ApiResponse }>) | { skip: string }> = {
    invalid_request: async (world) => ({
      operationId: 'updateProject',
      // The documented example: a version sent as text.
      response: await alice.call('PATCH', `/projects/${world.projectId}`, { expectedProjectVersion: String(await projectVersion(world.projectId)) }),
    }),
    invalid_client_metadata: async (world) => ({
      operationId: 'registerClient',
      // The documented example: the first redirect URI on plain http.
      response: await alice.call('POST', `/projects/${world.projectId}/clients`, { clientType: 'web', displayName: 'Bad', redirectUris: ['http://rp.example.com/cb'], scopeWhitelist: ['openid'] }),
    }),
    login_required: async () => ({ operationId: 'whoAmI', response: await anonymous().call('GET', '/auth/me') }),
    invalid_credentials: async () => {
      const client = anonymous();
      if ('context' in client) await client.context();
      return { operationId: 'login', response: await client.call('POST', '/auth/login', { account: 'alice', password: 'not the password' }) };
    },
    mfa_required: async () => {
      const person = await newPerson('mfa');
      // Adding a factor is the person's alone, in the console (DESIGN.md section 14).
      const caller = createConsoleClient(ctx.app, observe);
      await caller.login(person.account, EXAMPLE_PASSWORD);
      const started = (await caller.call('POST', '/account/factors/totp', { name: 'Phone' })).body;
      await caller.call('POST', `/account/factors/totp/${started.factorId}/confirm`, { code: await totpCode(started.secret) });
      const client = anonymous();
      if ('context' in client) await client.context();
      return { operationId: 'login', response: await client.call('POST', '/auth/login', { account: person.account, password: EXAMPLE_PASSWORD }) };
    },
    mfa_enrolment_required: async () => {
      // The policy binds each person from their next sign-in: a person signing in while it asks for a factor they have not got.
      const policy = await ctx.services.settings.getSettings(cliActor);
      const strict = await ctx.services.settings.updateSettings(cliActor, { mfaRequired: 'everyone', expectedSettingsVersion: policy.version });
      try {
        const person = await newPerson('must-enrol');
        const caller = await signIn(person.account);
        return { operationId: 'listProjects', response: await caller.call('GET', '/projects') };
      } finally {
        await ctx.services.settings.updateSettings(cliActor, { mfaRequired: policy.mfaRequired, expectedSettingsVersion: strict.version });
      }
    },
    forbidden: async () => ({ operationId: 'updateProject', response: await bob.call('PATCH', `/projects/${shared.projectId}`, { name: 'Renamed', expectedProjectVersion: await projectVersion(shared.projectId) }) }),
    csrf_failed: async (world) => ({ operationId: 'createProject', response: await alice.request({ method: 'POST', path: '/projects', body: { name: `No CSRF ${world.projectId}` }, ...({ withCsrf: false } as object) }) }),
    insufficient_scope:
      surface === 'agent'
        ? async () => {
            const response = await (await assistantOfAlice()).call('POST', '/projects', { name: 'Not with sesame:read' });
            expect(response.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="sesame:read sesame:write", resource_metadata="${ctx.config.issuer}/.well-known/oauth-protected-resource/api/agent"`);
            return { operationId: 'createProject', response };
          }
        : { skip: 'the console has no OAuth access tokens; test/mcp/assistant-scope-challenge.test.ts provokes it on MCP too' },
    not_found: async () => ({ operationId: 'getProject', response: await alice.call('GET', '/projects/prj_doesNotExist01') }),
    version_conflict: async (world) => ({ operationId: 'updateProject', response: await alice.call('PATCH', `/projects/${world.projectId}`, { name: 'Stale', expectedProjectVersion: (await projectVersion(world.projectId)) + 1 }) }),
    project_archived: async (world) => {
      await alice.call('PATCH', `/projects/${world.projectId}`, { status: 'archived', expectedProjectVersion: await projectVersion(world.projectId) });
      return { operationId: 'updateClientMetadata', response: await alice.call('PATCH', `/projects/${world.projectId}/clients/${world.clientId}`, { displayName: 'Renamed', clientVersion: await clientVersion(world) }) };
    },
    member_exists: async (world) => ({ operationId: 'addMember', response: await alice.call('POST', `/projects/${world.projectId}/members`, { subjectId: world.member.subjectId, expectedProjectVersion: await projectVersion(world.projectId) }) }),
    last_owner: async (world) => {
      const me = (await alice.call('GET', '/auth/me')).body.user.subjectId;
      return { operationId: 'changeMemberRole', response: await alice.call('PATCH', `/projects/${world.projectId}/members/${me}`, { role: 'viewer', expectedProjectVersion: await projectVersion(world.projectId) }) };
    },
    invalid_client_type: async (world) => ({
      operationId: 'rotateClientSecret',
      response: await alice.call('POST', `/projects/${world.projectId}/clients/${world.spaClientId}/secrets/rotate`, { clientVersion: await clientVersion(world, world.spaClientId) }),
    }),
    secret_limit_exceeded: async (world) => {
      await alice.call('POST', `/projects/${world.projectId}/clients/${world.clientId}/secrets/rotate`, { clientVersion: await clientVersion(world) });
      return { operationId: 'rotateClientSecret', response: await alice.call('POST', `/projects/${world.projectId}/clients/${world.clientId}/secrets/rotate`, { clientVersion: await clientVersion(world) }) };
    },
    idempotency_key_reused: async (world) => {
      const key = `reused-${world.projectId}`;
      await alice.request({ method: 'POST', path: '/projects', body: { name: 'First' }, headers: { 'idempotency-key': key } });
      return { operationId: 'createProject', response: await alice.request({ method: 'POST', path: '/projects', body: { name: 'Second' }, headers: { 'idempotency-key': key } }) };
    },
    project_not_archived: async (world) => ({ operationId: 'deleteProject', response: await alice.call('DELETE', `/projects/${world.projectId}`, { expectedProjectVersion: await projectVersion(world.projectId) }) }),
    request_too_large: async () => ({ operationId: 'createProject', response: await alice.call('POST', '/projects', { name: 'Big', description: 'x'.repeat(70_000) }) }),
    unsupported_media_type: async () => ({ operationId: 'createProject', response: await alice.request({ method: 'POST', path: '/projects', payload: 'name=Form', headers: { 'content-type': 'application/x-www-form-urlencoded' } }) }),
    rate_limited: async () => {
      const person = await newPerson('limited');
      const client = anonymous();
      if ('context' in client) await client.context();
      let response = await client.call('POST', '/auth/login', { account: person.account, password: 'wrong' });
      for (let attempt = 0; attempt < 5 && response.status !== 429; attempt += 1) response = await client.call('POST', '/auth/login', { account: person.account, password: 'wrong' });
      return { operationId: 'login', response };
    },
    last_sign_in_method: SLAPD_AVAILABLE
      ? async () => {
        // A person the directory created at their first sign-in has no password in Sesame: the directory's link is their only way in.
        const directory = await startTestDirectory();
        try {
          await directory.addPerson({ uid: 'dora', cn: 'Dora Directory', password: 'dora-directory-password' });
          await addDirectory('people', directory.url);
          // Unlinking is the person's alone, in the console (DESIGN.md section 14).
          const dora = createConsoleClient(ctx.app, observe);
          await dora.login('dora', 'dora-directory-password');
          const [identity] = (await dora.call('GET', '/account/identities')).body.identities;
          const response = await dora.call('DELETE', `/account/identities/${identity.identityId}`);
          await removeProvider('people');
          return { operationId: 'removeMyIdentity', response };
        } finally {
          await directory.close();
        }
      }
      : { skip: 'needs slapd (/usr/sbin/slapd) for a person without a password in Sesame; test/services/federated-sign-in.test.ts provokes it in the service' },
    directory_unavailable: async () => {
      // A directory nobody answers at: an account Sesame has no password for cannot be checked.
      await addDirectory('down', `ldap://127.0.0.1:${await freePort()}`);
      const client = anonymous();
      if ('context' in client) await client.context();
      const response = await client.call('POST', '/auth/login', { account: 'somebody-only-the-directory-knows', password: 'a directory password' });
      await removeProvider('down');
      return { operationId: 'login', response };
    },
    browser_only: async () => ({ operationId: 'newRecoveryCodes', response: await erin.call('POST', '/account/recovery-codes') }),
    reauthentication_required: async () => {
      const person = await newPerson('stale');
      const caller = await signIn(person.account);
      ctx.clock.advance((ctx.config.reauthWindowSeconds + 1) * 1000);
      return { operationId: 'newRecoveryCodes', response: await caller.call('POST', '/account/recovery-codes') };
    },
    use_my_account: async () => {
      const me = (await alice.call('GET', '/auth/me')).body.user.subjectId;
      return { operationId: 'setUserPassword', response: await alice.call('POST', `/admin/users/${me}/password`, { password: 'another long passphrase' }) };
    },
    internal_error: { skip: 'an unexpected failure cannot be provoked from outside; test/hardening/crash-safety.test.ts forces one' },
    service_unavailable: { skip: 'needs the database cut off; test/hardening/database-faults.test.ts cuts it' },
  };

  it('provokes every documented error: the documented status, code, schema, field paths and text', async () => {
    const examples = document.components.examples as Record<string, { summary: string; description: string; value: Json }>;
    const documentedHere = new Set(operationsOf(document).flatMap(({ operation }) => Object.keys(operation.responses).flatMap((status) => documentedCodes(operation, Number(status)))));
    const problems: string[] = [];
    const byId = new Map(operationsOf(document).map((entry) => [entry.operationId, entry]));
    for (const code of documentedHere) {
      const provoke = PROVOKE[code];
      if (!provoke) {
        problems.push(`${code}: documented, but this test does not know how to provoke it; add it to PROVOKE`);
        continue;
      }
      if ('skip' in provoke) continue;
      const { operationId, response } = await provoke(await newWorld());
      const where = `${code} (${operationId})`;
      if (response.body?.error !== code) {
        problems.push(`${where}: answered ${response.status} ${response.text.slice(0, 300)}`);
        continue;
      }
      const documented = byId.get(operationId)!;
      if (!documentedCodes(documented.operation, response.status).includes(code)) problems.push(`${where}: answered with status ${response.status}, which ${operationId} does not document for ${code}`);
      problems.push(...checker.validateSchema({ $ref: '#/components/schemas/Error' }, response.body).map((problem) => `${where}: ${problem}`));
      if (response.headers['cache-control'] !== 'no-store') problems.push(`${where}: Cache-Control ${String(response.headers['cache-control'])}`);
      if (['rate_limited', 'service_unavailable', 'directory_unavailable'].includes(code) && response.headers['retry-after'] === undefined) problems.push(`${where}: no Retry-After`);
      if (!NEXT_STEP.test(response.body.error_description)) problems.push(`${where}: "${response.body.error_description}" names no operation, field or header to use next`);
      for (const key of Object.keys(response.body.field_errors ?? {})) if (!FIELD_PATH.test(key)) problems.push(`${where}: field_errors key ${key} is not a field path`);
      // The two documented examples with field_errors are reproduced exactly above.
      const example = examples[code]!.value;
      if (example.field_errors) {
        const real = response.body.field_errors ?? {};
        if (JSON.stringify(real) !== JSON.stringify(example.field_errors)) problems.push(`${where}: documented field_errors ${JSON.stringify(example.field_errors)}, answered ${JSON.stringify(real)}`);
      }
      if (code === 'project_archived') {
        if (response.body.error_description !== example.error_description) problems.push(`${where}: documented "${example.error_description}", answered "${response.body.error_description}"`);
        if (!/`(PATCH|POST|PUT) \/[^`]+`/.test(response.body.error_description) || !/status/.test(response.body.error_description)) problems.push(`${where}: the text names no operation and field to un-archive with`);
      }
      if (code === 'version_conflict') {
        if (/\d/.test(response.body.error_description)) problems.push(`${where}: the text hands over a number`);
        const retry = example.error_description.split('. ').at(-1);
        if (!response.body.error_description.endsWith(retry)) problems.push(`${where}: the retry rule differs: documented "${retry}", answered "${response.body.error_description}"`);
        if (surface === 'agent') {
          const guideRetry = /## 5\.[\s\S]*?\n3\. [^\n]*?version\. ([^\n]*)/.exec(guide)?.[1];
          if (guideRetry !== retry) problems.push(`version_conflict: the guide's retry rule "${guideRetry}" differs from the documented "${retry}"`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('gives every error code the same status, meaning and advice in the guide\'s table as in the OpenAPI document', () => {
    if (surface !== 'agent') return;
    const rows = markdownTable(guide, '| status | error | meaning | what to do |');
    const examples = document.components.examples as Record<string, { summary: string; description: string }>;
    expect(rows.map((row) => row[1]!.replace(/`/g, '')).sort()).toEqual(Object.keys(examples).sort());
    for (const [status, code, meaning, action] of rows) {
      const name = code!.replace(/`/g, '');
      expect({ code: name, meaning, action }).toEqual({ code: name, meaning: examples[name]!.summary, action: examples[name]!.description });
      const documentedStatuses = new Set(operationsOf(document).flatMap(({ operation }) => Object.keys(operation.responses).filter((s) => documentedCodes(operation, Number(s)).includes(name))));
      // A code of the other surface (csrf_failed) is documented by none of this one's operations.
      if (documentedStatuses.size > 0) expect([...documentedStatuses], name).toEqual([status]);
    }
  });

  it('pages the audit trail the one way the guide and the OpenAPI document both say, skipping and repeating nothing', async () => {
    const audit = byOperationId(document, 'listAuditLogs');
    const beforeParameter = (audit.parameters as Json[]).find((parameter) => parameter.name === 'before')!;
    const documentedField = pagingField(beforeParameter.description);
    expect(documentedField, beforeParameter.description).toBeDefined();
    if (surface === 'agent') {
      const guideLine = guide.split('\n').find((line) => line.includes('Audit trail pages'))!;
      expect(pagingField(guideLine), guideLine).toBe(documentedField);
    }
    // Many entries share one millisecond here (the test clock stands still): the documented field must not skip them.
    const world = await newWorld();
    for (let change = 0; change < 4; change += 1) await alice.call('PATCH', `/projects/${world.projectId}`, { description: `change ${change}`, expectedProjectVersion: await projectVersion(world.projectId) });
    const everything = (await alice.call('GET', `/projects/${world.projectId}/audit-logs?limit=200`)).body.auditLogs as Json[];
    expect(everything.length).toBeGreaterThan(6);
    const paged: Json[] = [];
    let page = (await alice.call('GET', `/projects/${world.projectId}/audit-logs?limit=2`)).body.auditLogs as Json[];
    while (page.length > 0 && paged.length <= everything.length) {
      paged.push(...page);
      const last = page.at(-1)![documentedField!];
      page = (await alice.call('GET', `/projects/${world.projectId}/audit-logs?limit=2&before=${encodeURIComponent(String(last))}`)).body.auditLogs;
    }
    expect(paged.map((entry) => entry.auditId)).toEqual(everything.map((entry) => entry.auditId));
  });

  it('answered every time as ISO-8601 text, audit entries\' before and after included', async () => {
    // The audit trails now hold rotations, revocations, deletions and people changed above.
    await alice.call('GET', `/projects/${shared.projectId}/audit-logs?limit=200`);
    await alice.call('GET', '/admin/audit-logs?limit=200');
    const world = await newWorld();
    const version = await clientVersion(world);
    await alice.call('POST', `/projects/${world.projectId}/clients/${world.clientId}/secrets/rotate`, { clientVersion: version, gracePeriodSeconds: 600 });
    await alice.call('POST', `/projects/${world.projectId}/clients/${world.clientId}/secrets/${world.secretId}/revoke`, { clientVersion: version + 1 });
    const trail = await alice.call('GET', `/projects/${world.projectId}/audit-logs`);
    expect(trail.body.auditLogs.map((entry: Json) => entry.action)).toEqual(expect.arrayContaining(['client.secret_rotate', 'client.secret_revoke']));
    expect(answers.length).toBeGreaterThan(100);
    expect(answers.flatMap(({ label, response }) => timeProblems(response.body).map((problem) => `${label}${problem}`))).toEqual([]);
  });
});

function byOperationId(document: Json, operationId: string): Json {
  return operationsOf(document).find((entry) => entry.operationId === operationId)!.operation;
}
