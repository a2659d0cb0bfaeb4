/**
 * The ceiling of scenarios 1-3: oidc-provider alone, with its own in-memory adapter, configured
 * for the same protocol as Sesame (src/oidc/provider.ts): RS256 ID tokens (ES256 offered), opaque
 * access and refresh tokens, the same scopes and claims, PKCE S256 required, refresh rotation, the
 * same lifetimes. What Sesame adds (its database, client and account lookups, its pages, Fastify,
 * headers, limits, metrics) is absent: this is the most the stack under Sesame can do here.
 *
 * Its interaction URL signs the one person in and grants what is asked at once, so relying-party
 * flows reach a code without pages; only the timed requests (/token, /auth with a session,
 * /userinfo) matter.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';
// The adapter oidc-provider uses when given none; built here only to give its store room for a whole run (its default keeps ~1000 entries).
import MemoryAdapter from 'oidc-provider/lib/adapters/memory_adapter.js';
import LRU from 'oidc-provider/lib/helpers/lru.js';
import { CLAIMS_BY_SCOPE } from '../../src/oidc/account.ts';
import { SIGNING_ALGORITHMS, UNSUPPORTED_FEATURES_OFF } from '../../src/oidc/provider.ts';
import { TOKEN_LIFETIMES } from '../../src/oidc/token-lifetimes.ts';
import { SCOPES } from '../../src/domain/clients.ts';
import { CEILING_CLIENT } from './ceiling-client.ts';

const PERSON_CLAIMS = { sub: 'bench-person', name: 'Bench Person', preferred_username: 'bench-person', email: 'bench.person@example.edu', email_verified: true, student_status: 'active' };

async function signingKey(alg: 'RS256' | 'ES256') {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: `${alg.toLowerCase()}-ceiling`, alg, use: 'sig' };
}

async function main(): Promise<void> {
  const port = Number(process.argv[2]);
  const issuer = `http://127.0.0.1:${port}`;
  const store = new LRU({ maxSize: 5_000_000 });
  const configuration: Configuration = {
    adapter: (model: string) => new MemoryAdapter(model, store),
    clients: [
      {
        client_id: CEILING_CLIENT.clientId,
        client_secret: process.env.CEILING_CLIENT_SECRET!,
        redirect_uris: [CEILING_CLIENT.redirectUri],
        post_logout_redirect_uris: [],
        response_types: ['code'],
        grant_types: ['authorization_code', 'refresh_token'],
        scope: SCOPES.join(' '),
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'RS256',
      },
    ],
    jwks: { keys: [await signingKey('RS256'), await signingKey('ES256')] } as Configuration['jwks'],
    cookies: {
      keys: [randomBytes(32).toString('hex')],
      names: { session: 'sesame_session', interaction: 'sesame_interaction', resume: 'sesame_resume' },
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: () => ({ ...PERSON_CLAIMS, sub }) }),
    claims: CLAIMS_BY_SCOPE,
    scopes: [...SCOPES],
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'none'],
    pkce: { required: () => true },
    allowOmittingSingleRegisteredRedirectUri: false,
    enabledJWA: SIGNING_ALGORITHMS,
    features: {
      ...UNSUPPORTED_FEATURES_OFF,
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: true },
    },
    routes: { userinfo: '/userinfo' },
    ttl: {
      AuthorizationCode: TOKEN_LIFETIMES.authorizationCode,
      AccessToken: TOKEN_LIFETIMES.accessToken,
      IdToken: TOKEN_LIFETIMES.idToken,
      RefreshToken: TOKEN_LIFETIMES.refreshToken,
      Session: TOKEN_LIFETIMES.session,
      Grant: TOKEN_LIFETIMES.grant,
      Interaction: TOKEN_LIFETIMES.interaction,
    },
    rotateRefreshToken: true,
    async issueRefreshToken(_ctx, client, code) {
      return client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access');
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  const server = createServer((req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      void callback(req, res);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        await provider.interactionFinished(req, res, { login: { accountId: PERSON_CLAIMS.sub } }, { mergeWithLastSubmission: false });
        return;
      }
      const grant = details.grantId
        ? (await provider.Grant.find(details.grantId))!
        : new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: details.grantId ? {} : { grantId } }, { mergeWithLastSubmission: true });
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  // As long as Fastify's default, so idle keep-alive connections between phases stay open alike.
  server.keepAliveTimeout = 72_000;
  server.listen(port, '127.0.0.1', () => process.send?.({ ready: { pid: process.pid } }));
  // Exiting normally (not killed by the signal) lets --cpu-prof write its profile.
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
}

await main();
