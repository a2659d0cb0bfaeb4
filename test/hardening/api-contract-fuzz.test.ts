import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentDisconnect, agentLogin, agentLogout, agentWhoAmI } from '../../src/api/agent/auth-operations.ts';
import { consoleAuthOperations } from '../../src/api/management/auth-operations.ts';
import { createConsoleCookies } from '../../src/api/management/console-cookies.ts';
import { createCsrfTokens } from '../../src/api/management/csrf.ts';
import { toOpenApiPath } from '../../src/api/openapi.ts';
import type { AnyOperation, HttpMethod } from '../../src/api/operation.ts';
import { sharedOperations } from '../../src/api/operations/index.ts';
import type { Actor } from '../../src/domain/actor.ts';
import { ERROR_STATUS, type ErrorCode } from '../../src/errors.ts';
import { createDeviceCookie } from '../../src/security/device-cookie.ts';
import type { ApiResponse } from '../api/helpers/api-clients.ts';
import { createAgentClient, createConsoleClient, type AgentClient, type ConsoleClient } from '../api/helpers/api-clients.ts';
import { createOpenApiChecker, type OpenApiChecker } from '../api/helpers/openapi-checker.ts';
import { createAccounts, PASSWORD } from '../api/helpers/users.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { conforming, conformsTo, contractSchema, typesOf, violating, wellFormed, type JsonSchema } from '../helpers/contract-arbitraries.ts';
import { changeMark, sameSnapshot, snapshotEveryTable, type DatabaseSnapshot } from '../helpers/database-snapshot.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

/**
 * Property-based tests generated from the zod contracts: every operation of both management
 * surfaces gets malformed, oversized, wrongly typed, missing and extra fields, strange Unicode,
 * broken envelopes, absurd path parameters and bad credentials. Whatever arrives, the answer is
 * never a 5xx, every error has the one documented shape with a code documented for the operation,
 * and a refused request leaves every table of the database exactly as it was.
 *
 * SESAME_FUZZ_RUNS sets the requests per operation (default 40: 2,200 per engine in about half a minute; raise it for a deeper local run).
 */
const RUNS_PER_OPERATION = Number(process.env.SESAME_FUZZ_RUNS ?? 40);
const BODY_LIMIT = 64 * 1024;

type Surface = 'agent' | 'console';
const PREFIX: Record<Surface, string> = { agent: '/api/agent', console: '/api/management' };

interface FuzzTarget {
  surface: Surface;
  operationId: string;
  method: HttpMethod;
  path: string;
  access: 'public' | 'session';
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
}

const toTarget = (surface: Surface, operation: AnyOperation): FuzzTarget => ({
  surface,
  operationId: operation.operationId,
  method: operation.method,
  path: operation.path,
  access: operation.access,
  ...(operation.params ? { params: contractSchema(operation.params) } : {}),
  ...(operation.query ? { query: contractSchema(operation.query) } : {}),
  ...(operation.body ? { body: contractSchema(operation.body) } : {}),
});

// The discovery documents are built inside the surfaces' registration; they take no input at all.
const discovery = (surface: Surface, operationId: string, path: string): FuzzTarget => ({ surface, operationId, method: 'GET', path, access: 'public' });

const consoleAuth = consoleAuthOperations(createConsoleCookies('http://localhost:3000'), createCsrfTokens(['k'.repeat(32)]), createDeviceCookie({ issuer: 'http://localhost:3000', cookieKeys: ['k'.repeat(32)] }));
const CATALOG: FuzzTarget[] = [
  discovery('agent', 'getInstructions', '/instructions'),
  discovery('agent', 'getOpenApiDocument', '/openapi.json'),
  ...[agentLogin, agentLogout, agentWhoAmI, agentDisconnect, ...sharedOperations].map((operation) => toTarget('agent', operation)),
  discovery('console', 'getOpenApiDocument', '/openapi.json'),
  ...[...consoleAuth, ...sharedOperations].map((operation) => toTarget('console', operation)),
];

interface RealIds {
  projectId: string[];
  clientId: string[];
  subjectId: string[];
  secretId: string[];
  /** My account: ids of the caller's own things, well-formed (a real session id would end the fuzzer's session). */
  sessionId: string[];
  grantId: string[];
  factorId: string[];
  /** Identity providers: a real directory's name (no discovery needed), and a linked identity of nobody's. */
  name: string[];
  identityId: string[];
}

interface FuzzRequest {
  /** What was broken on purpose, for the failure message. */
  broken: string[];
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

const ABSURD_SEGMENTS = [
  '%00', '%ED%A0%80', '%E0%A4%A', '%', '%zz', '..', '.', '%2e%2e', '%2F', 'a%2Fb', '%20', '+', '*', '~', 'null', 'undefined', '__proto__',
  'constructor', 'prototype', 'hasOwnProperty', '0', '-1', '1e999', 'NaN', '%C0%AE', '%EF%BB%BF', '%27%20OR%201%3D1--', '%F0%9F%98%80', 'p'.repeat(101), 'p'.repeat(4000),
];

/**
 * Path parameters: mostly the fixture's real ids (so requests reach the services), else something no resource could be called.
 * `taken`: every group and identity provider name in use. Those are named by whoever made them (an earlier
 * operation's fuzzed createGroup may have made "0"), so neither a fixed absurd segment nor text of the fuzzer's own counts as absurd when it names one.
 */
function segmentsArbitrary(schema: JsonSchema, ids: () => RealIds, taken: () => ReadonlySet<string>): fc.Arbitrary<{ segments: Record<string, string>; absurd: string[] }> {
  const names = Object.keys(schema.properties ?? {});
  const one = (name: string) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.nat(1).map((i) => ({ value: encodeURIComponent(pick(ids()[name as keyof RealIds], i)), absurd: false })) },
      { weight: 1, arbitrary: fc.constantFrom(...ABSURD_SEGMENTS).filter((value) => !taken().has(decodedSegment(value))).map((value) => ({ value, absurd: true })) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }), fc.constantFrom('', ' ', '\u0000', 'x'), fc.boolean())
          .map(([text, suffix, upper]) => {
            const real = pick(ids()[name as keyof RealIds], 0);
            // A real id with a change, or text of its own: neither names a resource.
            const value = upper ? `${real.toUpperCase()}${suffix}` : text;
            return { value: value === real ? `${value}!` : value, absurd: true };
          })
          .filter((s) => s.value.length > 0 && wellFormed(s.value) === s.value && !taken().has(s.value))
          .map((s) => ({ value: encodeURIComponent(s.value), absurd: true })),
      },
    );
  return fc.tuple(...names.map((name) => one(name).map((choice) => [name, choice] as const))).map((choices) => ({
    segments: Object.fromEntries(choices.map(([name, choice]) => [name, choice.value])),
    absurd: choices.filter(([, choice]) => choice.absurd).map(([name]) => name),
  }));
}

const pick = (values: string[], index: number) => values[index % values.length]!;

/** The name a URL segment spells, or the segment itself when it is no valid escape (then no name spells it). */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function encodeQuery(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** Query strings carry text only: a violation is a missing, repeated (an array on arrival), too long or ill-formed value. */
function queryArbitrary(target: FuzzTarget): fc.Arbitrary<{ text: string; broken: boolean }> {
  const schema = target.query;
  if (!schema) {
    const ignored = fc.dictionary(fc.constantFrom('x', 'limit', 'account', '__proto__', 'a[b]', ''), fc.string({ maxLength: 20 }), { maxKeys: 3 });
    return fc.oneof({ weight: 4, arbitrary: fc.constant({ text: '', broken: false }) }, { weight: 1, arbitrary: ignored.map((q) => ({ text: encodeQuery(q), broken: false })) });
  }
  const properties = Object.entries(schema.properties ?? {});
  const asText = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const good = conforming(schema) as fc.Arbitrary<Record<string, unknown>>;
  // A query parameter is text: only a schema that refuses some text (a length, a pattern, a set of values, a
  // number) can be broken in a URL. Without this, filtering for textual violations of a free-text parameter
  // would never find one, and fast-check's filter would spin forever.
  const refusesSomeText = (inner: JsonSchema) =>
    inner.pattern !== undefined || inner.maxLength !== undefined || (inner.minLength ?? 0) > 0 || inner.enum !== undefined || inner.anyOf !== undefined || (typesOf(inner).length > 0 && !typesOf(inner).includes('string'));
  const bad = fc.oneof(
    ...properties.filter(([, inner]) => refusesSomeText(inner)).map(([key, inner]) =>
      fc.tuple(good, violating(inner).map(asText).filter((v): v is string => v !== undefined)).map(([query, value]) => ({ ...query, [key]: value })),
    ),
    ...properties.map(([key, inner]) => fc.tuple(good, conforming(inner), conforming(inner)).map(([query, a, b]) => ({ ...query, [key]: [a, b] }))),
    ...(schema.required ?? []).map((key) => good.map((query) => Object.fromEntries(Object.entries(query).filter(([k]) => k !== key)))),
  ).filter((query) => !conformsTo(schema, query));
  return fc.oneof(
    { weight: 2, arbitrary: good.map((query) => ({ text: encodeQuery(query), broken: false })) },
    { weight: 2, arbitrary: bad.map((query) => ({ text: encodeQuery(query), broken: true })) },
  );
}

// Not '': an empty body with a JSON content type counts as no body (a body-less POST from a generic client).
const INVALID_JSON = ['{', '{"a":', 'nul', '[1,]', "{'a':1}", '{"a":1}{"b":2}', 'NaN', '{"a": 01}', '{"a":"\\x41"}', '\u0000', '\uFEFF', '{"a":"\ud800', '--', '{}}'];
const OTHER_MEDIA_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/jsonx', 'text/json', 'application/octet-stream'];

interface BodyChoice {
  payload?: string;
  contentType?: string;
  broken?: string;
}

const json = (payload: string, broken?: string): BodyChoice => ({ payload, contentType: 'application/json', ...(broken ? { broken } : {}) });

/** What an operation that takes a body gets, or one that takes none but changes state (logout). */
function bodyArbitrary(target: FuzzTarget): fc.Arbitrary<BodyChoice> {
  if (target.method === 'GET') return fc.constant({});
  const schema = target.body;
  const envelope: fc.Arbitrary<BodyChoice> = fc.oneof(
    fc.oneof(fc.constantFrom(...INVALID_JSON), fc.string({ minLength: 1, maxLength: 40 }).filter((text) => !parsesAsJson(text))).map((text) => json(text, 'invalid JSON')),
    fc.tuple(fc.integer({ min: 50, max: 15_000 }), fc.boolean()).map(([depth, arrays]) =>
      json(arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(Math.floor(depth / 3))}1${'}'.repeat(Math.floor(depth / 3))}`, `nested ${depth} deep`),
    ),
    fc.integer({ min: 1, max: 20_000 }).map((extra) => json(JSON.stringify({ name: 'x'.repeat(BODY_LIMIT + extra) }), 'over 64 KiB')),
    fc.tuple(fc.constantFrom(...OTHER_MEDIA_TYPES), fc.constantFrom('{"name":"x"}', 'name=x', '<name>x</name>')).map(([contentType, payload]) => ({ payload, contentType, broken: `sent as ${contentType}` })),
    fc.constantFrom('{"name":"x"}', 'name=x').map((payload) => ({ payload, broken: 'no content type' })),
    fc.constantFrom('{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"isAdmin":true}}}', '{"a":{"__proto__":{"x":1}}}').map((payload) => json(payload, 'prototype keys')),
  );
  if (!schema) {
    // No body expected: nothing, `null` or `{}` passes; anything else is refused.
    const unexpected = fc.jsonValue().filter((value) => value !== null && !(typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0));
    return fc.oneof(unexpected.map((value) => json(JSON.stringify(value), 'a body where none is taken')), envelope);
  }
  const properties = Object.entries(schema.properties ?? {});
  // Duplicate JSON keys: the parser keeps the last one, which here breaks the contract.
  const duplicateKey = fc
    .tuple(conforming(schema) as fc.Arbitrary<Record<string, unknown>>, fc.constantFrom(...properties))
    .chain(([value, [key, inner]]) => violating(inner).map((bad) => ({ value, key, bad })))
    .map(({ value, key, bad }) => {
      const text = JSON.stringify(value);
      return json(`${text.slice(0, -1)}${text === '{}' ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(bad)}}`, `duplicate key ${key}`);
    });
  return fc.oneof(
    { weight: 3, arbitrary: conforming(schema).map((value) => json(JSON.stringify(value))) },
    { weight: 5, arbitrary: violating(schema).map((value) => json(JSON.stringify(value), 'contract violated')) },
    { weight: 1, arbitrary: duplicateKey },
    { weight: 2, arbitrary: envelope },
  );
}

/** As the server's parser sees it: a leading byte order mark is dropped (RFC 8259 lets a parser ignore it). */
function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text.replace(/^\uFEFF/, ''));
    return true;
  } catch {
    return false;
  }
}

describe.each(TEST_ENGINES)('every management operation under generated bad input, on %s', (engine) => {
  let ctx: TestContext;
  let agent: AgentClient;
  let consoleClient: ConsoleClient;
  const checkers = {} as Record<Surface, OpenApiChecker>;
  let actor: Actor;
  let ids: RealIds;
  let takenNames: ReadonlySet<string>;
  let fixtures = 0;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    const accounts = await createAccounts(ctx.services, ['fuzzer'], ['fuzzer']);
    actor = { subjectId: accounts.fuzzer.subjectId, isAdmin: true, surface: 'cli', ip: null };
    agent = createAgentClient(ctx.app);
    await agent.login('fuzzer', PASSWORD);
    consoleClient = createConsoleClient(ctx.app);
    await consoleClient.login('fuzzer', PASSWORD);
    checkers.agent = createOpenApiChecker((await agent.call('GET', '/openapi.json')).body);
    checkers.console = createOpenApiChecker((await consoleClient.call('GET', '/openapi.json')).body);
  });
  afterAll(() => ctx?.close());

  /** A fresh project and member per operation, so what one operation's accepted requests changed does not steer the next. */
  async function freshFixture(): Promise<RealIds> {
    fixtures += 1;
    const bob = (await ctx.services.users.createUser(actor, { account: `bob${fixtures}`, displayName: 'Bob', password: PASSWORD })).subjectId;
    const project = await ctx.services.projects.createProject(actor, { name: 'Fuzzed' });
    await ctx.services.members.addMember(actor, project.projectId, { subjectId: bob, role: 'maintainer', expectedProjectVersion: project.version });
    const redirect = { redirectUris: ['https://rp.example.com/cb'], scopeWhitelist: ['openid' as const] };
    const web = await ctx.services.clients.registerClient(actor, project.projectId, { clientType: 'web', displayName: 'Web', ...redirect });
    const spa = await ctx.services.clients.registerClient(actor, project.projectId, { clientType: 'spa', displayName: 'Spa', ...redirect });
    const pending = await ctx.services.factors.startTotp(actor, {});
    // Disabled: an enabled directory nobody answers at makes every sign-in of an account Sesame has no password for a 503 directory_unavailable.
    const directory = await ctx.services.identityProviders.addProvider(actor, {
      type: 'ldap', name: `fuzzed-${fixtures}`, displayName: 'Fuzzed directory', provisioning: 'existing_only', enabled: false,
      ldap: { url: 'ldap://127.0.0.1:1', bindDn: 'cn=sesame', userSearchBase: 'dc=example' },
    });
    return {
      projectId: [project.projectId],
      clientId: [web.client.clientId, spa.client.clientId],
      subjectId: [bob],
      secretId: [web.secret!.secretId],
      sessionId: ['ses_notasessionofmine'],
      grantId: ['grant-not-mine'],
      factorId: [pending.factorId],
      name: [directory.name],
      identityId: ['idn_notanidentityofmine'],
    };
  }

  function credentials(surface: Surface, method: HttpMethod): Record<string, string> {
    if (surface === 'agent') return { authorization: `Bearer ${agent.token!}` };
    const cookie = [...consoleClient.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    return { cookie, ...(method !== 'GET' ? { 'x-csrf-token': consoleClient.csrfToken! } : {}) };
  }

  /** Mostly the real session; sometimes none or a made-up one, which only a 401 (or the console's 403) may answer. */
  function authArbitrary(target: FuzzTarget): fc.Arbitrary<{ headers: Record<string, string>; broken?: string }> {
    const real = fc.constant(null).map(() => ({ headers: credentials(target.surface, target.method) }));
    if (target.access === 'public' || target.operationId === 'logout') return real;
    const token = fc.string({ unit: 'grapheme-ascii', minLength: 0, maxLength: 300 });
    const forged =
      target.surface === 'agent'
        ? fc.oneof(token.map((t) => ({ authorization: `Bearer ${t}` })), token.map((t) => ({ authorization: t })), fc.constant({}))
        : fc.oneof(token.map((t) => ({ cookie: `sesame_console=${encodeURIComponent(t)}` })), fc.constant({}));
    return fc.oneof({ weight: 12, arbitrary: real }, { weight: 1, arbitrary: forged.map((headers) => ({ headers, broken: 'credentials' })) });
  }

  function requestArbitrary(target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
    const segments = target.params ? segmentsArbitrary(target.params, () => ids, () => takenNames) : fc.constant({ segments: {} as Record<string, string>, absurd: [] as string[] });
    // Logging out for real would end the session the rest of the run uses: logout only gets refusable input.
    const query = target.operationId === 'logout' ? fc.constant({ text: '', broken: false }) : queryArbitrary(target);
    return fc.record({ segments, query, body: bodyArbitrary(target), auth: authArbitrary(target) }).map(({ segments: path, query: q, body, auth }) => {
      const url = `${PREFIX[target.surface]}${target.path.replace(/:([A-Za-z]+)/g, (_, name: string) => path.segments[name]!)}${q.text}`;
      const broken = [...path.absurd.map((name) => `path ${name}`), ...(q.broken ? ['query'] : []), ...(body.broken ? [body.broken] : []), ...(auth.broken ? [auth.broken] : [])];
      return {
        broken,
        method: target.method,
        url,
        headers: { ...auth.headers, ...(body.contentType ? { 'content-type': body.contentType } : {}) },
        ...(body.payload !== undefined ? { payload: body.payload } : {}),
      };
    });
  }

  function expectDocumentedError(target: FuzzTarget, request: FuzzRequest, response: ApiResponse, label: string): void {
    const body = response.body as Record<string, unknown> | undefined;
    expect(body, label).toBeTypeOf('object');
    expect(Object.keys(body!).filter((key) => !['error', 'error_description', 'field_errors'].includes(key)), label).toEqual([]);
    expect(ERROR_STATUS[body!.error as ErrorCode], label).toBe(response.status);
    expect(body!.error_description, label).toEqual(expect.any(String));
    if (body!.field_errors !== undefined) expect(Object.values(body!.field_errors as object).every((m) => typeof m === 'string'), label).toBe(true);
    expect(response.headers['cache-control'], label).toBe('no-store');
    // The status and code are documented for the operation this URL reaches (an unroutable URL is a plain 400 or 404).
    const checker = checkers[target.surface];
    const path = request.url.slice(PREFIX[target.surface].length);
    if (checker.operationFor(target.method, path)) expect(checker.check(target.method, path, response), label).toEqual([]);
    else expect([400, 404], label).toContain(response.status);
  }

  it('fuzzes exactly the operations the two OpenAPI documents describe', async () => {
    for (const surface of ['agent', 'console'] as const) {
      const document = JSON.parse((await ctx.app.inject({ url: `${PREFIX[surface]}/openapi.json` })).body) as { paths: Record<string, Record<string, { operationId: string }>> };
      const documented = Object.entries(document.paths).flatMap(([path, operations]) => Object.entries(operations).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`));
      const fuzzed = CATALOG.filter((target) => target.surface === surface).map((target) => `${target.method} ${toOpenApiPath(target.path)} ${target.operationId}`);
      expect(fuzzed.sort()).toEqual(documented.sort());
    }
  });

  /** A failure in one operation (say, a logout that went through) must not fail every operation after it. */
  async function ensureSignedIn(surface: Surface): Promise<void> {
    const me = await ctx.app.inject({ url: `${PREFIX[surface]}/auth/me`, headers: credentials(surface, 'GET') });
    if (me.statusCode === 200) return;
    if (surface === 'agent') await agent.login('fuzzer', PASSWORD);
    else await consoleClient.login('fuzzer', PASSWORD);
  }

  it.each(CATALOG.map((target) => [`${target.surface} ${target.operationId}`, target] as const))('%s', async (_name, target) => {
    await ensureSignedIn(target.surface);
    ids = await freshFixture();
    takenNames = new Set([
      ...(await ctx.db.selectFrom('groups').select('name').execute()).map((row) => row.name),
      ...(await ctx.db.selectFrom('identity_providers').select('name').execute()).map((row) => row.name),
    ]);
    let before: DatabaseSnapshot = await snapshotEveryTable(ctx.db, engine);
    let beforeMark = await changeMark(ctx.db, engine);
    const counts = { refused: 0, accepted: 0 };
    await fc.assert(
      fc.asyncProperty(requestArbitrary(target), async (request) => {
        const injected = await ctx.app.inject({ method: request.method, url: request.url, headers: request.headers, ...(request.payload !== undefined ? { payload: request.payload } : {}) });
        let body: unknown;
        try {
          body = injected.body === '' ? undefined : JSON.parse(injected.body);
        } catch {
          body = undefined;
        }
        const response: ApiResponse = { status: injected.statusCode, body, text: injected.body, headers: injected.headers };
        const label = `${request.method} ${request.url.slice(0, 300)} [${request.broken.join(', ') || 'contract-conforming'}] body ${String(request.payload).slice(0, 300)} -> ${response.status} ${response.text.slice(0, 300)}`;
        expect(response.status, label).toBeLessThan(500);
        // A full snapshot only when the data may have changed since the last one.
        const mark = await changeMark(ctx.db, engine);
        const after = mark === beforeMark ? before : await snapshotEveryTable(ctx.db, engine);
        if (response.status >= 400) {
          counts.refused += 1;
          expectDocumentedError(target, request, response, label);
          if (!sameSnapshot(before, after)) expect(after, `a refused request changed the database: ${label}`).toEqual(before);
        } else {
          counts.accepted += 1;
          expect(request.broken, `accepted although broken: ${label}`).toEqual([]);
          expect(checkers[target.surface].check(target.method, request.url.slice(PREFIX[target.surface].length), response), label).toEqual([]);
        }
        // Unchanged after a refusal: the mark a rolled-back write moved is the new baseline.
        before = after;
        beforeMark = mark;
      }),
      { numRuns: RUNS_PER_OPERATION, endOnFailure: true },
    );
    // The run reached past authentication: the session it used is still alive.
    const stillSignedIn = await ctx.app.inject({ url: `${PREFIX[target.surface]}/auth/me`, headers: credentials(target.surface, 'GET') });
    expect(stillSignedIn.statusCode).toBe(200);
    expect(counts.refused + counts.accepted).toBe(RUNS_PER_OPERATION);
  });
});
