import { randomBytes } from 'node:crypto';
import * as oidcClient from 'openid-client';
import { isConsolePath } from '../../domain/console-paths.ts';
import { sha256Hex } from '../../domain/digests.ts';
import type { HeldConsoleSignIn, IdentityProvider, UpstreamClaimMapping, UpstreamSignInChecks, UpstreamSignInPurpose } from '../../domain/identity-providers.ts';
import { upstreamRedirectUri } from '../../domain/identity-providers.ts';
import { constantTimeEqual } from '../../security/constant-time.ts';
import type { Repositories } from '../../storage/store.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import type { UpstreamAttributes } from './federated-person.ts';
import type { IdentityProviderService } from './identity-providers.ts';
import { discoverUpstream } from './upstream-discovery.ts';

type OidcProvider = Extract<IdentityProvider, { type: 'oidc' }>;

/** What Sesame keeps (server side) between sending the browser upstream and its return: kept under the state's digest. */
export interface PendingUpstreamSignIn extends UpstreamSignInChecks {
  state: string;
}

/** How long a person may take at the upstream provider. */
const PENDING_TTL_MS = 10 * 60 * 1000;
/** How long a console sign-in the upstream confirmed waits for its browser to finish it (and give a one-time code if the person has a factor). */
const CONSOLE_HOLD_TTL_MS = 5 * 60 * 1000;
const CONSOLE_STATE_PREFIX = 'console';

export type UpstreamStopReason = 'provider_unavailable' | 'provider_unreachable' | 'provider_gone' | 'upstream_error' | 'state_mismatch' | 'answer_unverified';

/**
 * An upstream sign-in that Sesame stops: status 403, and the RP gets no code. `message` is the English text;
 * the page says it in the person's language from `reason` and `details` (the names it mentions).
 */
export class UpstreamSignInStopped extends Error {
  readonly reason: UpstreamStopReason;
  readonly details: Readonly<Record<string, string>>;
  constructor(reason: UpstreamStopReason, message: string, details: Record<string, string> = {}) {
    super(message);
    this.reason = reason;
    this.details = details;
  }
}

function mapClaims(claims: Record<string, unknown>, mapping: UpstreamClaimMapping): UpstreamAttributes {
  const text = (name: string) => {
    const value = claims[name];
    return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
  };
  const verified = claims[mapping.emailVerified];
  return {
    account: text(mapping.account),
    displayName: text(mapping.displayName),
    email: text(mapping.email),
    emailVerified: verified === true || verified === 'true',
    groups: mapping.groups === undefined ? undefined : groupNames(claims[mapping.groups]),
  };
}

/** A groups claim as names: a list of strings (others dropped) or one name; absent or of another type: undefined, which leaves the memberships. */
function groupNames(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((name): name is string => typeof name === 'string');
  return undefined;
}

/**
 * The upstream's answer at `{issuer}/upstream/{name}/callback`: checks the state against the pending sign-in
 * (the caller has already used it up), redeems the code with the PKCE verifier, verifies the ID token (signature,
 * issuer, audience, nonce) and maps its claims, with the userinfo endpoint's filling in what the ID token lacks.
 */
async function completeUpstreamSignIn(
  identityProviders: IdentityProviders,
  configurationFor: ConfigurationFor,
  issuer: string,
  pending: PendingUpstreamSignIn,
  callbackQuery: URLSearchParams,
): Promise<{ provider: OidcProvider; issuer: string; subject: string; attributes: UpstreamAttributes }> {
  const found = await identityProviders.providerForSignIn(pending.provider);
  if (!found || found.provider.type !== 'oidc') throw new UpstreamSignInStopped('provider_gone', `The sign-in provider ${pending.provider} is not available any more. Go back to the application and sign in again.`, { provider: pending.provider });
  const provider = found.provider;
  const upstreamError = callbackQuery.get('error');
  if (upstreamError !== null) {
    const description = callbackQuery.get('error_description');
    const said = `${upstreamError}${description ? `: ${description}` : ''}`;
    throw new UpstreamSignInStopped('upstream_error', `${provider.displayName} did not sign you in (${said}). Go back to the application and try again.`, { provider: provider.displayName, error: said });
  }
  if (!constantTimeEqual(callbackQuery.get('state') ?? '', pending.state)) {
    throw new UpstreamSignInStopped('state_mismatch', 'The answer from the sign-in provider does not belong to this sign-in (its state does not match). Go back to the application and sign in again.');
  }
  let claims: Record<string, unknown>;
  let subject: string;
  let upstreamIssuer: string;
  try {
    const configuration = await configurationFor(provider, found.secret);
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
    throw new UpstreamSignInStopped('answer_unverified', `Sesame could not verify the answer from ${provider.displayName} (${reason}). Go back to the application and sign in again.`, { provider: provider.displayName, error: reason });
  }
  return { provider, issuer: upstreamIssuer, subject, attributes: mapClaims(claims, provider.oidc.claims) };
}

type IdentityProviders = IdentityProviderService;
type ConfigurationFor = (provider: OidcProvider, secret: string | null) => Promise<oidcClient.Configuration>;

/** The console path to come back to after signing in: the console's own, never an address elsewhere. */
const consoleReturnPath = (next: string | undefined): string => (next && isConsolePath(next) && next.length <= 512 ? next : '/');

/** The digest a console browser is known by here: of its login-CSRF nonce, which only that browser's cookie carries. */
export const consoleBrowserKey = (loginNonce: string): string => sha256Hex(`upstream-console:${loginNonce}`);

/**
 * Sign-in through upstream OpenID Connect providers, for the login page (an interaction) and the console:
 * code + PKCE + state + nonce with openid-client, the pending sign-in kept server side and used once.
 */
export function createUpstreamSignInService(deps: ServiceDeps, { identityProviders }: { identityProviders: IdentityProviderService }) {
  const { store, clock } = deps;
  // Discovery documents by provider name, read again when the provider changes.
  const discovered = new Map<string, { key: string; configuration: Promise<oidcClient.Configuration> }>();

  const configurationFor: ConfigurationFor = (provider, secret) => {
    const key = JSON.stringify([provider.version, provider.updatedAt, provider.oidc.issuer, provider.oidc.clientId]);
    const cached = discovered.get(provider.name);
    if (cached?.key === key) return cached.configuration;
    const configuration = discoverUpstream(provider.oidc.issuer, provider.oidc.clientId, secret);
    discovered.set(provider.name, { key, configuration });
    // A failed discovery is tried again next time, not remembered.
    configuration.catch(() => discovered.get(provider.name)?.configuration === configuration && discovered.delete(provider.name));
    return configuration;
  };

  function requireIssuer(): string {
    if (!deps.issuer) throw new Error('upstream sign-in needs OIDC_ISSUER');
    return deps.issuer;
  }

  return {
    /** The "Continue with" choices, and the origins a login form may be redirected to (the upstream authorization endpoints). */
    async choices(): Promise<{ choices: { name: string; displayName: string }[]; formTargets: string[] }> {
      const providers = (await identityProviders.enabledProviders('oidc')) as OidcProvider[];
      const formTargets = await Promise.all(
        providers.map(async (provider) => {
          const cached = discovered.get(provider.name);
          const endpoint = cached ? await cached.configuration.then((c) => c.serverMetadata().authorization_endpoint, () => undefined) : undefined;
          return endpoint ?? provider.oidc.issuer;
        }),
      );
      return { choices: providers.map(({ name, displayName }) => ({ name, displayName })), formTargets };
    },

    /** Starts the code flow with PKCE, state and nonce, keeps the pending sign-in, and says where to send the browser. */
    async start(providerName: string, purpose: UpstreamSignInPurpose): Promise<{ url: string }> {
      const found = await identityProviders.providerForSignIn(providerName);
      if (!found || found.provider.type !== 'oidc') throw new UpstreamSignInStopped('provider_unavailable', `The sign-in provider ${providerName} is not available. Go back and choose another way to sign in.`, { provider: providerName });
      const provider = found.provider;
      let configuration: oidcClient.Configuration;
      try {
        configuration = await configurationFor(provider, found.secret);
      } catch {
        throw new UpstreamSignInStopped('provider_unreachable', `${provider.displayName} cannot be reached right now. Try again in a moment, or choose another way to sign in.`, { provider: provider.displayName });
      }
      const kept: UpstreamSignInPurpose = 'console' in purpose ? { console: { browser: purpose.console.browser, next: consoleReturnPath(purpose.console.next) } } : purpose;
      // The state names what it is for, so the callback (outside the interaction cookie's path) finds it.
      const prefix = 'interaction' in kept ? kept.interaction : CONSOLE_STATE_PREFIX;
      const codeVerifier = oidcClient.randomPKCECodeVerifier();
      const pending: PendingUpstreamSignIn = { provider: provider.name, state: `${prefix}.${randomBytes(24).toString('base64url')}`, nonce: oidcClient.randomNonce(), codeVerifier, purpose: kept };
      const url = oidcClient.buildAuthorizationUrl(configuration, {
        redirect_uri: upstreamRedirectUri(requireIssuer(), provider.name),
        scope: provider.oidc.scopes.join(' '),
        code_challenge: await oidcClient.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      const { state, ...checks } = pending;
      const now = clock.now();
      await store.repos.upstreamSignIns.insertPending(sha256Hex(state), checks, now + PENDING_TTL_MS, now);
      return { url: url.href };
    },

    /** The pending sign-in a callback's state names, used up: of two requests with one state, one gets it. Null when unknown, expired, used or for another provider. */
    async take(state: string, providerName: string): Promise<PendingUpstreamSignIn | null> {
      const dot = state.indexOf('.');
      if (dot <= 0) return null;
      const prefix = state.slice(0, dot);
      const now = clock.now();
      const stateDigest = sha256Hex(state);
      const kept = await store.repos.upstreamSignIns.findPending(stateDigest, now);
      if (!kept || kept.provider !== providerName) return null;
      const expectedPrefix = 'interaction' in kept.purpose ? kept.purpose.interaction : CONSOLE_STATE_PREFIX;
      if (prefix !== expectedPrefix || !(await store.repos.upstreamSignIns.usePending(stateDigest, now))) return null;
      return { ...kept, state };
    },

    /** Checks the upstream's answer for a pending sign-in: code redeemed with PKCE, ID token verified, claims mapped. */
    complete(pending: PendingUpstreamSignIn, callbackQuery: URLSearchParams) {
      return completeUpstreamSignIn(identityProviders, configurationFor, requireIssuer(), pending, callbackQuery);
    },

    /** Keeps a console sign-in the upstream confirmed for the browser that started it, until it finishes (`POST /auth/upstream/finish`). */
    async holdForConsole(browser: string, subjectId: string, providerName: string): Promise<void> {
      const now = clock.now();
      await store.repos.upstreamSignIns.holdConsoleSignIn(browser, { subjectId, provider: providerName }, now + CONSOLE_HOLD_TTL_MS, now);
    },
  };
}

/** The console sign-in an upstream confirmed for this browser, if it is still waiting. */
export async function heldConsoleSignIn(repos: Repositories, browser: string, now: number): Promise<HeldConsoleSignIn | null> {
  return (await repos.upstreamSignIns.findConsoleSignIn(browser, now)) ?? null;
}

/** Uses up the held console sign-in: false when another request already did. */
export const useHeldConsoleSignIn = (repos: Repositories, browser: string, now: number): Promise<boolean> => repos.upstreamSignIns.useConsoleSignIn(browser, now);
