import Provider, { errors, type Client, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config.ts';
import { nativeRedirectUriMatches } from '../domain/client-rules.ts';
import { SCOPES } from '../domain/clients.ts';
import type { Clock } from '../domain/clock.ts';
import type { InstanceSecrets } from '../domain/instance-secrets.ts';
import type { Services } from '../services/index.ts';
import type { Db, Engine } from '../storage/database.ts';
import type { Store } from '../storage/store.ts';
import { CLAIMS_BY_SCOPE, createFindAccount } from './account.ts';
import { assistantResources, assistantStaysConnected, resourceIndicatorsFeature } from './assistant-resources.ts';
import { METADATA_DOCUMENT_LIMITS, metadataDocumentFeature, metadataDocumentFetch, shapeMetadataDocumentClient } from './assistant-metadata-documents.ts';
import { explainMetadataDocumentRefusal, requireResourceForAssistants } from './assistant-request-checks.ts';
import { createOidcAdapterFactory } from './adapter.ts';
import { databaseUnavailableAnswers } from './database-unavailable.ts';
import { advertiseAssistantScopes } from './discovery-scopes.ts';
import { adviseOnTokenErrors } from './token-error-advice.ts';
import { SESAME_CLIENT_METADATA, type SesameClientFields } from './client-metadata.ts';
import { explainClientRefusal } from './client-refusal.ts';
import { explainProtocolError, renderErrorPage } from '../pages/error-page.ts';
import { renderLoggedOutPage, renderLogoutPage } from './pages/logout-page.ts';
import type { PageLanguage } from '../pages/layout.ts';
import { LOCALES } from '../i18n/locales.ts';
import { pageLanguage, rememberLanguageChoice } from '../pages/page-language.ts';
import { providerResponseHeaders } from './provider-headers.ts';
import { rememberedConsentScopes } from './remembered-consent.ts';
import { installSecretsBridge } from './secrets-bridge.ts';
import { interactionPolicyWithStepUp } from './step-up.ts';
import type { SigningJwks } from './signing-keys.ts';
import { TOKEN_LIFETIMES } from './token-lifetimes.ts';

export interface OidcDeps {
  config: Config;
  db: Db;
  /** Chooses how expired artifacts are pruned (PostgreSQL: without two instances taking the same rows). */
  engine: Engine;
  clock: Clock;
  services: Services;
  instanceSecrets: InstanceSecrets;
  log?: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Told of every token endpoint grant that issued tokens (metrics and the per-client token limit). */
  onTokenIssued?: (grant: { clientId: string; grantType: string }) => void;
  /** Koa middleware run around each provider route, innermost last (the token endpoint's failure counts). */
  middleware?: ((ctx: Ctx, next: () => Promise<unknown>) => Promise<void>)[];
}

type Ctx = KoaContextWithOIDC;

const disabled = { enabled: false } as const;

/** Everything SPEC.md lists as unsupported, and every other optional feature: off, so discovery cannot advertise it. */
export const UNSUPPORTED_FEATURES_OFF = {
  devInteractions: disabled,
  registration: disabled,
  registrationManagement: disabled,
  clientCredentials: disabled,
  deviceFlow: disabled,
  introspection: disabled,
  jwtIntrospection: disabled,
  revocation: disabled,
  backchannelLogout: disabled,
  ciba: disabled,
  claimsParameter: disabled,
  dPoP: disabled,
  encryption: disabled,
  jwtResponseModes: disabled,
  jwtUserinfo: disabled,
  pushedAuthorizationRequests: disabled,
  requestObjects: disabled,
  richAuthorizationRequests: disabled,
  webMessageResponseMode: disabled,
} as const;

export const SIGNING_ALGORITHMS = { idTokenSigningAlgValues: ['RS256', 'ES256'], userinfoSigningAlgValues: ['RS256', 'ES256'] } as const;

/** PKCE S256 for every spa client, and for web clients unless their configuration turned it off. */
function pkceRequired(_ctx: Ctx, client: Client): boolean {
  const fields = client as Client & SesameClientFields;
  return client.clientAuthMethod === 'none' || fields.sesame_client_type === 'spa' || fields.sesame_require_pkce !== false;
}

/**
 * Refuses a request for any known scope outside the client's whitelist. oidc-provider already does,
 * except for offline_access, which it silently drops for clients that may not have refresh tokens;
 * a spa asking for it should hear why it gets none.
 */
async function rejectScopesOutsideWhitelist(ctx: Ctx, _value: string | undefined, client: Client): Promise<void> {
  const source = (ctx.method === 'POST' ? ctx.oidc.body : ctx.query) as Record<string, unknown> | undefined;
  const requested = typeof source?.scope === 'string' ? source.scope.split(' ') : [];
  const allowed = new Set((client.scope ?? '').split(' '));
  const refused = requested.filter((scope) => (SCOPES as readonly string[]).includes(scope) && !allowed.has(scope));
  if (refused.length > 0) {
    throw new errors.InvalidScope(`requested scope is not allowed for this client: ${refused.join(' ')}`, refused.join(' '));
  }
}

/** A provider page's language (page-language.ts), remembering a switcher's choice; the page's own address is its switcher's target. */
function providerPageLanguage(ctx: Ctx, secureCookies: boolean): PageLanguage {
  const request = { url: ctx.originalUrl, method: ctx.method, headers: ctx.headers };
  rememberLanguageChoice(request, ctx.res, secureCookies);
  return pageLanguage(request, { uiLocales: (ctx.oidc?.params as { ui_locales?: unknown } | undefined)?.ui_locales });
}

function renderHtml(ctx: Ctx, page: string): void {
  ctx.type = 'html';
  ctx.body = page;
}

/** Builds the oidc-provider instance with the given signing keys over the store's repositories; everything else comes from `deps`. */
export function buildProvider(deps: OidcDeps, jwks: SigningJwks, store: Store): Provider {
  const { clock, services } = deps;
  const secureCookies = deps.config.issuer.startsWith('https://');

  const loadExistingGrant = async (ctx: Ctx) => {
    const client = ctx.oidc.client!;
    const accountId = ctx.oidc.account!.accountId;
    const grantId = (ctx.oidc.result?.consent as { grantId?: string } | undefined)?.grantId ?? ctx.oidc.session!.grantIdFor(client.clientId);
    if (grantId) {
      const grant = await ctx.oidc.provider.Grant.find(grantId);
      if (grant) return grant;
    }
    // No grant in this browser session: reuse a consent the person gave this client before.
    const allowed = new Set((client.scope ?? '').split(' '));
    const remembered = (await rememberedConsentScopes(store, clock, accountId, client.clientId)).filter((s) => allowed.has(s));
    if (remembered.length === 0) return undefined;
    const grant = new ctx.oidc.provider.Grant({ accountId, clientId: client.clientId });
    grant.addOIDCScope(remembered.join(' '));
    await grant.save();
    return grant;
  };

  // Grants this process's revocations actually deleted, until the grant.revoked event that follows reads them:
  // a grant ended by a reuse is audited once, by whichever request deleted it.
  const destroyedHere = new Set<string>();
  // A grant ended by a reused refresh token, of an assistant (the service decides), goes to the administrators' trail.
  const auditGrantEndedByReuse = (input: Parameters<Services['assistantGrants']['recordGrantEndedByReuse']>[0]) => {
    services.assistantGrants.recordGrantEndedByReuse(input).catch((error: unknown) => deps.log?.error({ err: error }, 'could not audit a grant ended by refresh token reuse'));
  };

  const storage = createOidcAdapterFactory({
    store,
    clock,
    onRefreshTokenReuse: ({ grantId, accountId, clientId, clientName }) => {
      if (accountId && clientId) auditGrantEndedByReuse({ subjectId: accountId, clientId, clientName, grantId, ip: null });
    },
    onGrantDestroyed: (grantId) => {
      if (destroyedHere.size > 1000) destroyedHere.clear();
      destroyedHere.add(grantId);
    },
  });

  const configuration: Configuration = {
    adapter: storage.adapterFor,
    jwks: { keys: jwks.keys } as Configuration['jwks'],
    cookies: {
      keys: deps.instanceSecrets.cookieKeys,
      names: { session: 'sesame_session', interaction: 'sesame_interaction', resume: 'sesame_resume' },
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    findAccount: createFindAccount(services),
    // acr and amr say how the person signed in (password, or password and one-time code): DESIGN section 10.
    claims: { ...CLAIMS_BY_SCOPE, openid: [...CLAIMS_BY_SCOPE.openid, 'acr', 'amr'] },
    // The ID token's claims are decided per client by the account's claims (account.ts: claimsInIdToken), not for all clients at once.
    conformIdTokenClaims: false,
    acrValues: ['pwd', 'mfa'],
    scopes: [...SCOPES],
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'none'],
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: 'RS256',
      token_endpoint_auth_method: 'client_secret_basic',
    },
    extraClientMetadata: {
      properties: [...SESAME_CLIENT_METADATA],
      validator(_ctx, _key, _value, metadata) {
        shapeMetadataDocumentClient(metadata as Record<string, unknown>);
      },
    },
    // Only client ID metadata documents are fetched (every other feature that fetches is off).
    fetch: metadataDocumentFetch(deps.config) as unknown as Configuration['fetch'],
    fetchResponseBodyLimits: { 'client_id metadata document': METADATA_DOCUMENT_LIMITS.maxBytes },
    extraParams: { scope: rejectScopesOutsideWhitelist },
    pkce: { required: pkceRequired },
    allowOmittingSingleRegisteredRedirectUri: false,
    enabledJWA: SIGNING_ALGORITHMS,
    features: {
      ...UNSUPPORTED_FEATURES_OFF,
      userinfo: { enabled: true },
      resourceIndicators: resourceIndicatorsFeature(deps.config),
      clientIdMetadataDocument: metadataDocumentFeature(deps.config),
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx) {
          renderHtml(ctx, renderLogoutPage({
            language: providerPageLanguage(ctx, secureCookies),
            action: ctx.oidc.urlFor('end_session_confirm'),
            xsrf: String((ctx.oidc.session!.state as { secret?: string } | undefined)?.secret ?? ''),
            clientName: ctx.oidc.client?.clientName,
          }));
        },
        async postLogoutSuccessSource(ctx) {
          renderHtml(ctx, renderLoggedOutPage({ clientName: ctx.oidc.client?.clientName, language: providerPageLanguage(ctx, secureCookies) }));
        },
      },
    },
    routes: { userinfo: '/userinfo' },
    // The pages speak these; `ui_locales` picks one (docs/languages.md).
    discovery: { claim_types_supported: ['normal'], ui_locales_supported: [...LOCALES] },
    ttl: {
      AuthorizationCode: TOKEN_LIFETIMES.authorizationCode,
      AccessToken: TOKEN_LIFETIMES.accessToken,
      IdToken: TOKEN_LIFETIMES.idToken,
      RefreshToken: (_ctx, token) => {
        const chainEnds = (token.iiat ?? Math.floor(Date.now() / 1000)) + TOKEN_LIFETIMES.refreshTokenAbsolute;
        return Math.max(1, Math.min(TOKEN_LIFETIMES.refreshToken, chainEnds - Math.floor(Date.now() / 1000)));
      },
      Session: TOKEN_LIFETIMES.session,
      // Counted from the first consent: oidc-provider saves a found grant again with its remaining time, so widening it does not extend it.
      Grant: TOKEN_LIFETIMES.grant,
      Interaction: TOKEN_LIFETIMES.interaction,
    },
    // Every use of a refresh token replaces it; presenting a replaced one revokes the whole grant.
    rotateRefreshToken: true,
    async issueRefreshToken(_ctx, client, code) {
      const publicClient = client.clientAuthMethod === 'none' && (client as Client & SesameClientFields).sesame_client_type !== 'native';
      return !publicClient && client.grantTypeAllowed('refresh_token') && (code.scopes.has('offline_access') || assistantStaysConnected(client, code));
    },
    async expiresWithSession(ctx, code) {
      return !code.scopes.has('offline_access') && !assistantStaysConnected(ctx.oidc.client!, code);
    },
    interactions: { policy: interactionPolicyWithStepUp(), url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    loadExistingGrant,
    clientBasedCORS(ctx, origin, client) {
      // A spa calls /token and /userinfo from its own origin: the origin of one of its redirect URIs.
      if (origin === 'null') return false;
      if (ctx.oidc.route === 'userinfo' || client.clientAuthMethod === 'none') {
        return client.redirectUris?.some((uri) => URL.parse(uri)?.origin === origin) ?? false;
      }
      return false;
    },
    async renderError(ctx, out, error) {
      const language = providerPageLanguage(ctx, secureCookies);
      const documentRefusal = explainMetadataDocumentRefusal(ctx, out, error, { enabled: deps.config.assistantMetadata.enabled, language });
      if (documentRefusal) return renderHtml(ctx, renderErrorPage(documentRefusal));
      const refusal = out.error === 'invalid_client' ? await explainClientRefusal(store, ctx) : undefined;
      renderHtml(ctx, renderErrorPage(explainProtocolError(out.error, refusal ?? out.error_description, language)));
    },
  };

  const provider = new Provider(deps.config.issuer, configuration);
  // Every request reaches oidc-provider with its forwarding headers rewritten to what Fastify
  // concluded from TRUST_PROXY (forwarded-headers.ts), so Koa may believe them.
  provider.proxy = true;
  installSecretsBridge(provider, { store, clock });
  useExactRedirectMatching(provider);
  provider.use(providerResponseHeaders);
  provider.use(advertiseAssistantScopes(deps.config));
  provider.use(adviseOnTokenErrors);
  const databaseUnavailable = databaseUnavailableAnswers(deps.log);
  provider.use(databaseUnavailable.middleware);
  provider.use(requireResourceForAssistants({
    resources: Object.values(assistantResources(deps.config)),
    language: (ctx) => providerPageLanguage(ctx, secureCookies),
    render: (ctx, page) => renderHtml(ctx, renderErrorPage(page)),
  }));
  for (const middleware of deps.middleware ?? []) provider.use(middleware);
  // Counted from the answer, not oidc-provider's grant.success: that comes before the request's write, whose
  // consume may still lose to a concurrent redemption and turn the answer into invalid_grant.
  provider.use(async function countIssuedTokens(ctx: Ctx, next: () => Promise<unknown>) {
    await next();
    if (ctx.method !== 'POST' || ctx.path !== '/token' || ctx.status !== 200) return;
    const clientId = ctx.oidc?.client?.clientId;
    if (clientId) deps.onTokenIssued?.({ clientId, grantType: String(ctx.oidc.params?.grant_type ?? '') });
  });
  // Innermost, so every middleware above sees the answer as it is once the request's writes are in.
  provider.use(storage.requestArtifacts.writeAtRequestEnd);
  provider.on('server_error', (ctx, error) => {
    if (!databaseUnavailable.noteServerError(ctx, error)) deps.log?.error({ err: error }, 'oidc-provider server error');
  });
  provider.on('grant.revoked', (ctx, grantId) => {
    // A refresh token presented again after its replacement ends the whole grant (oidc-provider revokes it).
    if (!destroyedHere.delete(grantId)) return;
    if (ctx.oidc?.route !== 'token' || ctx.oidc.params?.grant_type !== 'refresh_token') return;
    const client = ctx.oidc.client;
    const token = ctx.oidc.entities?.RefreshToken as { accountId?: string } | undefined;
    if (!client || !token?.accountId) return;
    auditGrantEndedByReuse({ subjectId: token.accountId, clientId: client.clientId, clientName: client.clientName, grantId, ip: ctx.ip });
  });
  return provider;
}

/**
 * A native client's loopback redirect URI matches with any port (RFC 8252 7.3), host and path exact.
 * Everything else matches exactly, as registered: oidc-provider would also relax the port for a web
 * or spa client whose redirect URIs make it look native (a private-use scheme).
 */
function useExactRedirectMatching(provider: Provider): void {
  const prototype = provider.Client.prototype as unknown as {
    redirectUris: string[];
    postLogoutRedirectUris?: string[];
    redirectUriAllowed(value: string): boolean;
    postLogoutRedirectUriAllowed(value: string): boolean;
  };
  prototype.redirectUriAllowed = function redirectUriAllowed(value) {
    if ((this as unknown as SesameClientFields).sesame_client_type === 'native') return this.redirectUris.some((registered) => nativeRedirectUriMatches(registered, value));
    return this.redirectUris.includes(value);
  };
  prototype.postLogoutRedirectUriAllowed = function postLogoutRedirectUriAllowed(value) {
    return (this.postLogoutRedirectUris ?? []).includes(value);
  };
}
