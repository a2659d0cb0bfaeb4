import { randomBytes } from 'node:crypto';
import * as oidcClient from 'openid-client';
import type { IdentityProvider, UpstreamClaimMapping } from '../domain/identity-providers.ts';
import { upstreamRedirectUri } from '../domain/identity-providers.ts';
import { constantTimeEqual } from '../security/constant-time.ts';
import type { UpstreamAttributes } from '../services/federated-sign-in.ts';
import type { Services } from '../services/index.ts';
import { discoverUpstream } from '../services/upstream-discovery.ts';

type OidcProvider = Extract<IdentityProvider, { type: 'oidc' }>;

/** What Sesame keeps in the interaction (server side) between sending the browser upstream and its return. */
export interface PendingUpstreamSignIn {
  provider: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** An upstream sign-in that Sesame stops: the page shows `message` with status 403, and the RP gets no code. */
export class UpstreamSignInStopped extends Error {}

type DiscoveryCache = Map<string, { key: string; configuration: Promise<oidcClient.Configuration> }>;
// Per server (its services): discovery documents by provider name, read again when the provider changes.
const caches = new WeakMap<Services, DiscoveryCache>();
const cacheOf = (services: Services): DiscoveryCache => {
  let cache = caches.get(services);
  if (!cache) caches.set(services, (cache = new Map()));
  return cache;
};

function configurationFor(services: Services, provider: OidcProvider, secret: string | null): Promise<oidcClient.Configuration> {
  const discovered = cacheOf(services);
  const key = JSON.stringify([provider.version, provider.updatedAt, provider.oidc.issuer, provider.oidc.clientId]);
  const cached = discovered.get(provider.name);
  if (cached?.key === key) return cached.configuration;
  const configuration = discoverUpstream(provider.oidc.issuer, provider.oidc.clientId, secret);
  discovered.set(provider.name, { key, configuration });
  // A failed discovery is tried again next time, not remembered.
  configuration.catch(() => discovered.get(provider.name)?.configuration === configuration && discovered.delete(provider.name));
  return configuration;
}

/** The login page's "Continue with" choices, and the origins its forms may be redirected to (the upstream authorization endpoints). */
export async function upstreamChoices(services: Services): Promise<{ choices: { name: string; displayName: string }[]; formTargets: string[] }> {
  const providers = (await services.identityProviders.enabledProviders('oidc')) as OidcProvider[];
  const formTargets = await Promise.all(
    providers.map(async (provider) => {
      const cached = cacheOf(services).get(provider.name);
      const endpoint = cached ? await cached.configuration.then((c) => c.serverMetadata().authorization_endpoint, () => undefined) : undefined;
      return endpoint ?? provider.oidc.issuer;
    }),
  );
  return { choices: providers.map(({ name, displayName }) => ({ name, displayName })), formTargets };
}

/** The state carries the interaction's uid, so the callback (outside the interaction cookie's path) finds it. */
export const interactionUidOfState = (state: string): string | null => {
  const dot = state.indexOf('.');
  return dot > 0 ? state.slice(0, dot) : null;
};

/** Starts the code flow with PKCE, state and nonce: the pending sign-in to keep, and where to send the browser. */
export async function startUpstreamSignIn(services: Services, issuer: string, providerName: string, interactionUid: string): Promise<{ pending: PendingUpstreamSignIn; url: string }> {
  const found = await services.identityProviders.providerForSignIn(providerName);
  if (!found || found.provider.type !== 'oidc') throw new UpstreamSignInStopped(`The sign-in provider ${providerName} is not available. Go back and choose another way to sign in.`);
  const provider = found.provider;
  let configuration: oidcClient.Configuration;
  try {
    configuration = await configurationFor(services, provider, found.secret);
  } catch {
    throw new UpstreamSignInStopped(`${provider.displayName} cannot be reached right now. Try again in a moment, or choose another way to sign in.`);
  }
  const codeVerifier = oidcClient.randomPKCECodeVerifier();
  const pending: PendingUpstreamSignIn = { provider: provider.name, state: `${interactionUid}.${randomBytes(24).toString('base64url')}`, nonce: oidcClient.randomNonce(), codeVerifier };
  const url = oidcClient.buildAuthorizationUrl(configuration, {
    redirect_uri: upstreamRedirectUri(issuer, provider.name),
    scope: provider.oidc.scopes.join(' '),
    code_challenge: await oidcClient.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state: pending.state,
    nonce: pending.nonce,
  });
  return { pending, url: url.href };
}

function mapClaims(claims: Record<string, unknown>, mapping: UpstreamClaimMapping): UpstreamAttributes {
  const text = (name: string) => {
    const value = claims[name];
    return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
  };
  const verified = claims[mapping.emailVerified];
  return { account: text(mapping.account), displayName: text(mapping.displayName), email: text(mapping.email), emailVerified: verified === true || verified === 'true' };
}

/**
 * The upstream's answer at `{issuer}/upstream/{name}/callback`: checks the state against the pending sign-in
 * (the caller has already used it up), redeems the code with the PKCE verifier, verifies the ID token (signature,
 * issuer, audience, nonce) and maps its claims, with the userinfo endpoint's filling in what the ID token lacks.
 */
export async function completeUpstreamSignIn(services: Services, issuer: string, pending: PendingUpstreamSignIn, callbackQuery: URLSearchParams): Promise<{ provider: OidcProvider; issuer: string; subject: string; attributes: UpstreamAttributes }> {
  const found = await services.identityProviders.providerForSignIn(pending.provider);
  if (!found || found.provider.type !== 'oidc') throw new UpstreamSignInStopped(`The sign-in provider ${pending.provider} is not available any more. Go back to the application and sign in again.`);
  const provider = found.provider;
  const upstreamError = callbackQuery.get('error');
  if (upstreamError !== null) {
    const description = callbackQuery.get('error_description');
    throw new UpstreamSignInStopped(`${provider.displayName} did not sign you in (${upstreamError}${description ? `: ${description}` : ''}). Go back to the application and try again.`);
  }
  if (!constantTimeEqual(callbackQuery.get('state') ?? '', pending.state)) {
    throw new UpstreamSignInStopped('The answer from the sign-in provider does not belong to this sign-in (its state does not match). Go back to the application and sign in again.');
  }
  let claims: Record<string, unknown>;
  let subject: string;
  let upstreamIssuer: string;
  try {
    const configuration = await configurationFor(services, provider, found.secret);
    const callbackUrl = new URL(upstreamRedirectUri(issuer, provider.name));
    callbackUrl.search = callbackQuery.toString();
    const tokens = await oidcClient.authorizationCodeGrant(configuration, callbackUrl, { pkceCodeVerifier: pending.codeVerifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true });
    const idToken = tokens.claims()!;
    subject = idToken.sub;
    upstreamIssuer = idToken.iss;
    claims = { ...idToken };
    if (configuration.serverMetadata().userinfo_endpoint) {
      const userinfo = await oidcClient.fetchUserInfo(configuration, tokens.access_token, subject);
      claims = { ...userinfo, ...idToken };
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UpstreamSignInStopped(`Sesame could not verify the answer from ${provider.displayName} (${reason}). Go back to the application and sign in again.`);
  }
  return { provider, issuer: upstreamIssuer, subject, attributes: mapClaims(claims, provider.oidc.claims) };
}
