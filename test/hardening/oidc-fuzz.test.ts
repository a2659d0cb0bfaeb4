import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { createAccounts } from '../api/helpers/users.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { STRANGE_TEXT, wellFormed } from '../helpers/contract-arbitraries.ts';
import { sameSnapshot, snapshotEveryTable, type DatabaseSnapshot } from '../helpers/database-snapshot.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

/**
 * Malformed OpenID Connect requests, generated: bad and look-alike redirect URIs, duplicate
 * parameters, huge values, broken percent-encoding, bad Basic headers and garbage bodies at /token,
 * junk at the logout, userinfo and interaction endpoints. The provider never answers with a 5xx,
 * never redirects anywhere but to a redirect URI registered for the client and sent in the request,
 * and what the management side stores stays as it was.
 *
 * SESAME_FUZZ_RUNS scales the runs (default 50: /auth gets 8 times that, /token 6, the rest 2 to 4).
 */
const RUNS = Number(process.env.SESAME_FUZZ_RUNS ?? 50);
const ISSUER = 'http://localhost:3000';

// The provider's own working state, and the secrets' last-use times (a right secret with a wrong
// grant still counts as a use): compared apart. Everything else must not move.
const PROTOCOL_TABLES = new Set(['oidc_payloads', 'client_secrets']);

interface Fixture {
  web: { clientId: string; secret: string; redirectUris: string[]; postLogoutRedirectUris: string[] };
  spa: { clientId: string; redirectUris: string[]; postLogoutRedirectUris: string[] };
  disabled: { clientId: string; redirectUris: string[] };
  archived: { clientId: string; redirectUris: string[] };
}

const variantsOf = (uri: string): string[] => {
  const url = new URL(uri);
  return [
    uri,
    `${uri}/`,
    `${uri}/extra`,
    `${uri}?x=1`,
    `${uri}#frag`,
    `${uri}%2F..%2F`,
    uri.toUpperCase(),
    uri.replace(url.host, url.host.toUpperCase()),
    uri.replace(url.protocol, url.protocol === 'https:' ? 'http:' : 'https:'),
    uri.replace(url.host, `${url.hostname}:8443`),
    uri.replace(url.host, `evil.example@${url.host}`),
    uri.replace(url.host, `${url.host}.evil.example`),
    uri.replace('//', '//evil.example/'),
    uri.slice(0, -1),
    ` ${uri}`,
    `${uri}\u0000`,
    encodeURIComponent(uri),
  ];
};

const EVIL_URIS = [
  'https://evil.example/cb',
  '//evil.example/cb',
  '/\\evil.example',
  'javascript:alert(document.cookie)',
  'data:text/html,<script>alert(1)</script>',
  'http://localhost:3000/interaction/x',
  'urn:ietf:wg:oauth:2.0:oob',
  'about:blank',
  '',
  `https://evil.example/${'a'.repeat(5000)}`,
];

const strangeText = fc.oneof(
  fc.constantFrom(...STRANGE_TEXT),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 1000, max: 60_000 }).map((n) => 'x'.repeat(n)),
);

/** A parameter's values: usually one, sometimes repeated (duplicate parameters), sometimes absent. */
const occurrences = (value: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 8, arbitrary: value.map((v) => [v]) }, { weight: 2, arbitrary: fc.array(value, { minLength: 2, maxLength: 3 }) }, { weight: 2, arbitrary: fc.constant([] as string[]) });

/** Form/query encoding that sometimes leaves a value raw or breaks its percent-encoding on purpose. */
function encodePairs(pairs: [string, string][], mangle: fc.Arbitrary<number>): fc.Arbitrary<string> {
  return fc.array(mangle, { minLength: pairs.length, maxLength: pairs.length }).map((modes) =>
    pairs
      .map(([key, value], index) => {
        const encoded = encodeURIComponent(wellFormed(value));
        switch (modes[index]) {
          case 1:
            return `${key}=${encoded}%`;
          case 2:
            return `${key}=%zz${encoded}`;
          case 3:
            return `${key}=${encoded}%E0%A4%A`;
          case 4:
            return `${key}`;
          default:
            return `${key}=${encoded}`;
        }
      })
      .join('&'),
  );
}

const mangling = fc.oneof({ weight: 12, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }) });

function flatten(params: Record<string, string[]>): [string, string][] {
  return Object.entries(params).flatMap(([key, values]) => values.map((value) => [key, value] as [string, string]));
}

const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|quot|apos|lt|gt|#39);/gi, (_, entity: string) => {
    const named: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
    if (entity.startsWith('#x') || entity.startsWith('#X')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    return named[entity.toLowerCase()] ?? '';
  });

/** Where an HTML answer would send the browser by itself: form actions and meta refreshes. */
function formTargets(body: string): string[] {
  const actions = [...body.matchAll(/<form\b[^>]*\baction\s*=\s*["']([^"']*)["']/gi)].map((match) => decodeEntities(match[1]!));
  const refreshes = [...body.matchAll(/<meta\b[^>]*http-equiv\s*=\s*["']?refresh["']?[^>]*content\s*=\s*["'][^"']*url=([^"']*)["']/gi)].map((match) => decodeEntities(match[1]!));
  return [...actions, ...refreshes];
}

type Params = Record<string, string[]>;

/**
 * A well-formed request broken in one to three places: a value replaced, a parameter repeated,
 * dropped, or a stranger added. Mostly-valid requests reach the provider's deeper checks (client,
 * redirect URI, PKCE, the stored code) instead of failing at the first one.
 */
function mutated(base: fc.Arbitrary<Params>, values: Record<string, fc.Arbitrary<string>>, extras: string[]): fc.Arbitrary<Params> {
  const keys = Object.keys(values);
  const mutation = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...keys).chain((key) => values[key]!.map((value) => (params: Params) => ({ ...params, [key]: [value] }))) },
    { weight: 2, arbitrary: fc.constantFrom(...keys).chain((key) => values[key]!.map((value) => (params: Params) => ({ ...params, [key]: [...(params[key] ?? []), value] }))) },
    { weight: 1, arbitrary: fc.constantFrom(...keys).map((key) => (params: Params) => Object.fromEntries(Object.entries(params).filter(([k]) => k !== key))) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...extras), strangeText).map(([key, value]) => (params: Params) => ({ ...params, [key]: [...(params[key] ?? []), value] })) },
  );
  return fc.tuple(base, fc.array(mutation, { minLength: 0, maxLength: 3 })).map(([params, changes]) => changes.reduce((current, change) => change(current), params));
}

describe.each(TEST_ENGINES)('malformed OpenID Connect requests on %s', (engine) => {
  let ctx: TestContext;
  let fixture: Fixture;
  let registered: Map<string, string[]>;
  let registeredLogout: Map<string, string[]>;
  let before: DatabaseSnapshot;

  const managementState = async () => {
    const snapshot = await snapshotEveryTable(ctx.db, engine);
    const secrets = await ctx.db.selectFrom('client_secrets').select(['secret_id', 'client_id', 'digest', 'status', 'created_at', 'expires_at']).orderBy('secret_id').execute();
    return { ...Object.fromEntries(Object.entries(snapshot).filter(([table]) => !PROTOCOL_TABLES.has(table))), client_secrets: secrets.map((row) => JSON.stringify(row)) };
  };

  beforeAll(async () => {
    // Token limits off: the run sends hundreds of /token requests from one address on purpose.
    ctx = await createTestContext(engine, { OIDC_ISSUER: ISSUER, TOKEN_RATE_PER_IP: '0', TOKEN_RATE_PER_CLIENT: '0' });
    const accounts = await createAccounts(ctx.services, ['owner'], ['owner']);
    const actor: Actor = { subjectId: accounts.owner.subjectId, isAdmin: true, surface: 'cli', ip: null };
    const project = await ctx.services.projects.createProject(actor, { name: 'Relying parties' });
    const register = (clientType: 'web' | 'spa', name: string, projectId = project.projectId) =>
      ctx.services.clients.registerClient(actor, projectId, {
        clientType,
        displayName: name,
        redirectUris: [`https://${name}.example.com/callback`, `http://127.0.0.1:9/${name}/cb`],
        postLogoutRedirectUris: [`https://${name}.example.com/bye`],
        scopeWhitelist: clientType === 'web' ? ['openid', 'profile', 'email', 'offline_access'] : ['openid', 'profile'],
      });
    const web = await register('web', 'web');
    const spa = await register('spa', 'spa');
    const disabled = await register('spa', 'disabled');
    await ctx.services.clients.updateClientMetadata(actor, project.projectId, disabled.client.clientId, { clientVersion: disabled.client.clientVersion, status: 'disabled' });
    const other = await ctx.services.projects.createProject(actor, { name: 'Archived' });
    const archived = await register('web', 'archived', other.projectId);
    await ctx.services.projects.updateProject(actor, other.projectId, { expectedProjectVersion: other.version, status: 'archived' });
    fixture = {
      web: { clientId: web.client.clientId, secret: web.secret!.value, redirectUris: web.client.redirectUris, postLogoutRedirectUris: web.client.postLogoutRedirectUris },
      spa: { clientId: spa.client.clientId, redirectUris: spa.client.redirectUris, postLogoutRedirectUris: spa.client.postLogoutRedirectUris },
      disabled: { clientId: disabled.client.clientId, redirectUris: disabled.client.redirectUris },
      archived: { clientId: archived.client.clientId, redirectUris: archived.client.redirectUris },
    };
    // Only active clients of active projects may be redirected to at all.
    registered = new Map([[fixture.web.clientId, fixture.web.redirectUris], [fixture.spa.clientId, fixture.spa.redirectUris]]);
    registeredLogout = new Map([[fixture.web.clientId, fixture.web.postLogoutRedirectUris], [fixture.spa.clientId, fixture.spa.postLogoutRedirectUris]]);
    before = await managementState();
  });
  afterAll(() => ctx?.close());

  const clientIds = () => fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(fixture.web.clientId, fixture.spa.clientId) },
    { weight: 2, arbitrary: fc.constantFrom(fixture.disabled.clientId, fixture.archived.clientId) },
    { weight: 2, arbitrary: fc.oneof(strangeText, fc.constantFrom('unknown-client', fixture.web.clientId.toUpperCase(), `${fixture.spa.clientId} `)) },
  );

  const redirectUris = () => {
    const all = [...fixture.web.redirectUris, ...fixture.spa.redirectUris, ...fixture.disabled.redirectUris, ...fixture.archived.redirectUris];
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...all) }, { weight: 4, arbitrary: fc.constantFrom(...all.flatMap(variantsOf)) }, { weight: 2, arbitrary: fc.constantFrom(...EVIL_URIS) }, { weight: 1, arbitrary: strangeText });
  };

  /**
   * Whatever comes back: below 500, and a redirect (a Location, or a self-submitting form as
   * response_mode=form_post makes) only to the provider itself or to a URI registered for a client
   * named in the request and sent in it.
   */
  function expectSafe(response: LightMyRequestResponse, sent: Record<string, string[]>, allowed: Map<string, string[]>, uriParam: string, label: string) {
    const context = `${label} -> ${response.statusCode} ${String(response.headers.location ?? '').slice(0, 200)} ${response.body.slice(0, 200)}`;
    expect(response.statusCode, context).toBeLessThan(500);
    const targets = formTargets(response.body);
    if (response.statusCode >= 300 && response.statusCode < 400) targets.push(String(response.headers.location ?? ''));
    for (const location of targets) {
      if (new URL(location, ISSUER).origin === ISSUER) {
        // The provider's own pages (the interaction), never an off-site hop disguised as a path.
        expect(location.startsWith('/') && !location.startsWith('//') ? true : location.startsWith(`${ISSUER}/`), context).toBe(true);
      } else {
        const candidates = (sent.client_id ?? []).flatMap((clientId) => allowed.get(clientId) ?? []).filter((uri) => (sent[uriParam] ?? []).includes(uri));
        const matches = candidates.some((uri) => location === uri || location.startsWith(`${uri}?`) || location.startsWith(`${uri}#`));
        expect(matches, `sent the browser to an unregistered URI ${location.slice(0, 200)}: ${context}`).toBe(true);
      }
    }
  }

  async function expectManagementStateUnchanged(label: string) {
    const after = await managementState();
    if (!sameSnapshot(before, after)) expect(after, `changed the stored state: ${label}`).toEqual(before);
  }

  it('/auth: look-alike and foreign redirect URIs, duplicate and huge parameters, broken encoding', async () => {
    const relyingParties = [fixture.web, fixture.spa, fixture.disabled, fixture.archived];
    const base = fc.tuple(fc.constantFrom(...relyingParties), fc.nat(1), fc.string({ maxLength: 20 })).map(([rp, index, state]) => ({
      client_id: [rp.clientId],
      redirect_uri: [rp.redirectUris[index]!],
      response_type: ['code'],
      scope: ['openid'],
      state: [state],
      nonce: ['n-0S6_WzA2Mj'],
      code_challenge: ['E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'],
      code_challenge_method: ['S256'],
    }));
    const params = mutated(
      base,
      {
        client_id: clientIds(),
        redirect_uri: redirectUris(),
        response_type: fc.oneof(fc.constantFrom('code', 'token', 'id_token', 'code id_token', 'none', 'code token', ''), strangeText),
        scope: fc.oneof(fc.constantFrom('openid', 'openid profile email', 'openid offline_access', 'profile', 'openid student', 'openid openid', ''), strangeText),
        state: fc.oneof(strangeText, fc.integer({ min: 4000, max: 100_000 }).map((n) => 's'.repeat(n))),
        nonce: strangeText,
        code_challenge: fc.oneof(fc.constantFrom('', 'short', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-c'), strangeText),
        code_challenge_method: fc.oneof(fc.constantFrom('S256', 'plain', 's256', ''), strangeText),
        response_mode: fc.constantFrom('query', 'fragment', 'form_post', 'web_message', 'jwt', 'query.jwt', 'junk'),
        prompt: fc.constantFrom('none', 'login', 'consent', 'select_account', 'create', 'login consent', 'none login', 'junk'),
        max_age: fc.constantFrom('0', '-1', 'abc', '1e309', '99999999999999999999'),
      },
      ['request', 'request_uri', 'claims', 'id_token_hint', 'login_hint', 'ui_locales', 'acr_values', 'registration', 'resource', 'authorization_details', 'dpop_jkt', 'x'],
    );
    // POST /auth is off in oidc-provider 9 (a plain 404); a few keep it that way.
    const request = fc.tuple(params, fc.constantFrom('GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'POST')).chain(([sent, method]) =>
      encodePairs(flatten(sent), mangling).map((encoded) => ({ sent, encoded, method: method as 'GET' | 'POST' })),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ sent, encoded, method }) => {
        const response =
          method === 'GET'
            ? await ctx.app.inject({ method, url: `/auth?${encoded}` })
            : await ctx.app.inject({ method, url: '/auth', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: encoded });
        expectSafe(response, sent, registered, 'redirect_uri', `${method} /auth?${encoded.slice(0, 400)}`);
      }),
      { numRuns: RUNS * 8, endOnFailure: true },
    );
    await expectManagementStateUnchanged('/auth');
  });

  it('/token: bad Basic headers, garbage bodies, wrong media types, duplicate parameters', async () => {
    const basic = (user: string, password: string, encode: boolean) => {
      const e = (s: string) => (encode ? encodeURIComponent(wellFormed(s)) : s);
      return `Basic ${Buffer.from(`${e(user)}:${e(password)}`).toString('base64')}`;
    };
    const authorization = fc.oneof(
      fc.constant(undefined),
      { arbitrary: fc.constant(basic(fixture.web.clientId, fixture.web.secret, true)), weight: 4 },
      fc.tuple(clientIds(), fc.oneof(fc.constantFrom('wrong-secret', '', `${fixture.web.secret}x`, fixture.web.secret.toUpperCase()), strangeText), fc.boolean()).map(([id, secret, encode]) => basic(id, secret, encode)),
      fc.constantFrom(
        'Basic',
        'Basic ',
        'Basic !!!not-base64!!!',
        'Basic ====',
        `Basic ${Buffer.from('no-colon-here').toString('base64')}`,
        `Basic ${Buffer.from(':').toString('base64')}`,
        `Basic ${Buffer.from('%zz:%E0%A4%A').toString('base64')}`,
        `Basic ${Buffer.from(`${fixture.web.clientId}:%`).toString('base64')}`,
        `Basic ${Buffer.from('a:b:c:d').toString('base64')}`,
        `Basic ${'QUFB'.repeat(4000)}`,
        `basic ${Buffer.from(`${fixture.web.clientId}:x`).toString('base64')}`,
        `Basic  ${Buffer.from(`${fixture.web.clientId}:x`).toString('base64')}`,
        `Bearer ${fixture.web.secret}`,
        'Digest username="x"',
        `Basic ${Buffer.from(`${fixture.web.clientId}:x`).toString('base64')}, Basic abc`,
      ),
      fc.string({ unit: 'grapheme-ascii', maxLength: 200 }).map((text) => `Basic ${text}`),
    );
    const tokenValues = {
      grant_type: fc.oneof(fc.constantFrom('authorization_code', 'refresh_token', 'client_credentials', 'password', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code', 'urn:ietf:params:oauth:grant-type:jwt-bearer', ''), strangeText),
      code: fc.oneof(fc.string({ maxLength: 43 }), strangeText),
      redirect_uri: redirectUris(),
      code_verifier: fc.oneof(fc.string({ minLength: 43, maxLength: 128 }), strangeText),
      refresh_token: fc.oneof(fc.string({ minLength: 43, maxLength: 43 }), strangeText),
      client_id: clientIds(),
      client_secret: fc.constantFrom('wrong', fixture.web.secret),
      client_assertion_type: fc.constantFrom('urn:ietf:params:oauth:client-assertion-type:jwt-bearer', 'junk'),
      client_assertion: fc.constantFrom('e30.e30.', 'a.b.c', 'not a jwt'),
      scope: fc.constantFrom('openid', 'openid offline_access', 'junk'),
    };
    // A plausible code or refresh grant of the web client (authenticated with Basic) or the spa (client_id in the body).
    const tokenBase = fc.tuple(fc.boolean(), fc.boolean(), fc.string({ minLength: 43, maxLength: 43 }), fc.nat(1)).map(([spa, refresh, artifact, index]) => {
      const rp = spa ? fixture.spa : fixture.web;
      const grant: Params = refresh ? { grant_type: ['refresh_token'], refresh_token: [artifact] } : { grant_type: ['authorization_code'], code: [artifact], redirect_uri: [rp.redirectUris[index]!], code_verifier: ['dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'] };
      return spa ? { ...grant, client_id: [rp.clientId] } : grant;
    });
    const form = mutated(tokenBase, tokenValues, ['client_secret', 'resource', 'audience', 'assertion', 'username', 'password', 'device_code', 'x']);
    const body = fc.oneof(
      { weight: 6, arbitrary: form.chain((f) => encodePairs(flatten(f), mangling)).map((payload) => ({ payload, contentType: 'application/x-www-form-urlencoded' as string | undefined })) },
      { weight: 1, arbitrary: fc.tuple(fc.jsonValue(), fc.constantFrom('application/json', 'application/x-www-form-urlencoded')).map(([value, contentType]) => ({ payload: JSON.stringify(value) ?? 'null', contentType })) },
      { weight: 1, arbitrary: fc.tuple(fc.string({ unit: 'binary', maxLength: 300 }), fc.constantFrom(undefined, 'text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded; charset=utf-16', 'application/xml')).map(([payload, contentType]) => ({ payload, contentType })) },
      { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 300_000 }).map((n) => ({ payload: `grant_type=authorization_code&code=${'c'.repeat(n)}`, contentType: 'application/x-www-form-urlencoded' })) },
    );
    await fc.assert(
      fc.asyncProperty(authorization, body, async (auth, { payload, contentType }) => {
        const headers: Record<string, string> = { accept: 'application/json', ...(auth !== undefined ? { authorization: auth } : {}), ...(contentType !== undefined ? { 'content-type': contentType } : {}) };
        const response = await ctx.app.inject({ method: 'POST', url: '/token', headers, payload });
        const label = `POST /token ${JSON.stringify(headers).slice(0, 300)} ${payload.slice(0, 300)} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
        expect(response.statusCode, label).toBeLessThan(500);
        expect(response.statusCode, label).toBeGreaterThanOrEqual(400);
        expect(response.headers.location, label).toBeUndefined();
        expect(response.headers['cache-control'], label).toBe('no-store');
        expect(JSON.parse(response.body), label).toEqual(expect.objectContaining({ error: expect.any(String) }));
      }),
      { numRuns: RUNS * 6, endOnFailure: true },
    );
    await expectManagementStateUnchanged('/token');
  });

  it('/session/end: foreign post-logout URIs, garbage hints, duplicates', async () => {
    const all = [...fixture.web.postLogoutRedirectUris, ...fixture.spa.postLogoutRedirectUris, 'https://disabled.example.com/bye', 'https://archived.example.com/bye'];
    const base = fc.tuple(fc.constantFrom(fixture.web, fixture.spa), fc.string({ maxLength: 20 })).map(([rp, state]) => ({
      client_id: [rp.clientId],
      post_logout_redirect_uri: [rp.postLogoutRedirectUris[0]!],
      state: [state],
    }));
    const params = mutated(
      base,
      {
        client_id: clientIds(),
        post_logout_redirect_uri: fc.oneof(fc.constantFrom(...all.flatMap(variantsOf)), fc.constantFrom(...EVIL_URIS), strangeText),
        id_token_hint: fc.oneof(fc.constantFrom('e30.e30.', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'a.b.c'), strangeText),
        state: strangeText,
        logout_hint: strangeText,
        ui_locales: strangeText,
      },
      ['x', 'xsrf', 'logout'],
    );
    const request = fc.tuple(params, fc.constantFrom('GET', 'POST')).chain(([sent, method]) => encodePairs(flatten(sent), mangling).map((encoded) => ({ sent, encoded, method: method as 'GET' | 'POST' })));
    await fc.assert(
      fc.asyncProperty(request, async ({ sent, encoded, method }) => {
        const response =
          method === 'GET'
            ? await ctx.app.inject({ method, url: `/session/end?${encoded}` })
            : await ctx.app.inject({ method, url: '/session/end', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: encoded });
        expectSafe(response, sent, registeredLogout, 'post_logout_redirect_uri', `${method} /session/end ${encoded.slice(0, 400)}`);
      }),
      { numRuns: RUNS * 2, endOnFailure: true },
    );
    await expectManagementStateUnchanged('/session/end');
  });

  it('/userinfo, /jwks, discovery and the interaction pages: junk credentials, queries, ids and forms', async () => {
    // A real interaction to aim forms at, with its cookies, so the pages get past "no such sign-in".
    const start = await ctx.app.inject({
      url: `/auth?${new URLSearchParams({ client_id: fixture.spa.clientId, redirect_uri: fixture.spa.redirectUris[0]!, response_type: 'code', scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', state: 's' })}`,
    });
    expect(start.statusCode).toBe(303);
    const uid = String(start.headers.location).split('/').pop()!;
    const cookies = ([start.headers['set-cookie']].flat().filter(Boolean) as string[]).map((c) => c.split(';')[0]).join('; ');

    const uidArb = fc.oneof({ weight: 3, arbitrary: fc.constant(uid) }, { weight: 1, arbitrary: fc.constantFrom('x', '..', '%00', '%E0%A4%A', 'u'.repeat(500), '%2F') });
    const formArb = fc.dictionary(fc.constantFrom('account', 'password', 'csrf', 'scope', 'prompt', '__proto__', 'submit', 'xsrf', 'logout'), occurrences(strangeText), { maxKeys: 4 }).chain((f) => encodePairs(flatten(f), mangling));
    const request = fc.oneof(
      fc.tuple(fc.constantFrom('/userinfo'), fc.constantFrom('GET', 'POST'), fc.oneof(strangeText.map((t) => `Bearer ${t.replace(/[^\x20-\x7e]/g, '')}`), fc.constantFrom('Bearer', 'Basic abc', '', 'Bearer a b c'))).map(([path, method, authorization]) => ({ method, url: path, headers: { authorization }, payload: undefined as string | undefined })),
      fc.tuple(fc.constantFrom('/jwks', '/.well-known/openid-configuration'), fc.string({ maxLength: 40 })).map(([path, query]) => ({ method: 'GET', url: `${path}?${encodeURIComponent(query)}=${encodeURIComponent(query)}`, headers: {}, payload: undefined })),
      fc.tuple(uidArb, fc.constantFrom('', '/login', '/confirm', '/abort'), formArb, fc.boolean()).map(([id, step, form, withCookies]) => ({
        method: step === '' ? 'GET' : 'POST',
        url: `/interaction/${id}${step}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(withCookies ? { cookie: cookies } : {}) },
        payload: step === '' ? undefined : form,
      })),
      fc.tuple(uidArb, fc.boolean()).map(([id, withCookies]) => ({ method: 'GET', url: `/auth/${id}`, headers: withCookies ? { cookie: cookies } : {}, payload: undefined })),
      fc.tuple(formArb, fc.boolean()).map(([form, withCookies]) => ({
        method: 'POST',
        url: '/session/end/confirm',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(withCookies ? { cookie: cookies } : {}) },
        payload: form,
      })),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ method, url, headers, payload }) => {
        const response = await ctx.app.inject({ method: method as 'GET' | 'POST', url, headers, ...(payload !== undefined ? { payload } : {}) });
        const label = `${method} ${url.slice(0, 200)} ${JSON.stringify(headers).slice(0, 200)} ${String(payload).slice(0, 200)} -> ${response.statusCode} ${response.body.slice(0, 200)}`;
        expect(response.statusCode, label).toBeLessThan(500);
        if (response.statusCode >= 300 && response.statusCode < 400) {
          // The provider's own pages, or (an aborted sign-in) back to the interaction's client with an error.
          const location = String(response.headers.location);
          expect(new URL(location, ISSUER).origin === ISSUER || location.startsWith(`${fixture.spa.redirectUris[0]!}?`), label).toBe(true);
        }
      }),
      { numRuns: RUNS * 4, endOnFailure: true },
    );
    await expectManagementStateUnchanged('userinfo, jwks, discovery, interactions');
  });
});
