import type { ClientType, Scope } from './clients.ts';
import { CLAIMS_BY_SCOPE } from './scopes.ts';

// How an application signs people in with a Sesame client, in one place: the Agent API's guide renders it
// as Markdown and the console's client page as HTML. Code is written between backticks in both.

export interface RecipeClient {
  clientId: string;
  clientType: ClientType;
  scopeWhitelist: readonly Scope[];
  requirePkce: boolean;
  /** Whether the ID token also carries the profile, email and groups claims (absent: false). */
  claimsInIdToken?: boolean;
}

/** Which step, and which wording of it: lets the console say the same in another language from `values`. */
export type RecipeStepId =
  | 'discovery'
  | 'authorization'
  | 'authorizationPkceOptional'
  | 'tokenWeb'
  | 'tokenPublic'
  | 'tokenAny'
  | 'claims'
  | 'claimsInIdToken'
  | 'refreshSpa'
  | 'refreshNone'
  | 'refreshRotating'
  | 'refreshRotatingAny'
  | 'signOut';

export interface RecipeStep {
  id: RecipeStepId;
  title: string;
  text: string;
  /** The names and values the text mentions (issuer, client id, scopes, claims), code already in backticks. */
  values: Record<string, string>;
}

const code = (text: string) => `\`${text}\``;
const list = (values: readonly string[]) => values.map(code).join(', ');

/** The claims of the ID token, and those that come only from /userinfo, by scope. */
export const ID_TOKEN_CLAIMS = ['iss', 'sub', 'aud', 'exp', 'iat', 'nonce', 'acr', 'amr'] as const;
export const USERINFO_SCOPES = ['profile', 'email', 'student', 'groups'] as const;

/** The OIDC Core rule every relying-party developer trips over, in one sentence. */
export const REFRESH_TOKEN_RULE =
  'A refresh token comes only when the request asks for `offline_access` together with `prompt=consent` (and the client\'s `scopeWhitelist` contains `offline_access`): ' +
  'without `prompt=consent` Sesame drops `offline_access` silently and no refresh token comes (OpenID Connect Core 1.0, section 11); the `scope` of the token response shows what was granted.';

/**
 * The steps of a sign-in with the Authorization Code flow. Without a client, the recipe covers every client
 * type; with one, it speaks of that client (its id, type, PKCE setting and scopes).
 */
export function relyingPartyRecipe(issuer: string, client?: RecipeClient): RecipeStep[] {
  const clientId = client ? code(client.clientId) : 'your `clientId`';
  const type = client?.clientType;
  const pkceOptional = client !== undefined && client.clientType === 'web' && !client.requirePkce;
  const scopes = client ? client.scopeWhitelist.filter((scope) => scope !== 'offline_access') : ['openid', 'profile', 'email'];
  const refresh = client ? client.clientType !== 'spa' && client.scopeWhitelist.includes('offline_access') : true;

  const tokenRequest =
    type === 'web'
      ? 'authenticate with `client_secret_basic` (HTTP Basic: the client id and the client secret, each form-URL-encoded first); the secret never goes in the body or to a browser'
      : type === 'spa' || type === 'native'
        ? `send \`client_id\` in the body and no secret (a ${type} client is public: \`none\`)`
        : 'a `web` client authenticates with `client_secret_basic` (HTTP Basic: the client id and the secret, each form-URL-encoded first; never `client_secret_post`); a `spa` or `native` client sends `client_id` in the body and no secret';

  const claimsOf = Object.fromEntries(USERINFO_SCOPES.map((scope) => [scope, list(CLAIMS_BY_SCOPE[scope])]));
  const steps: RecipeStep[] = [
    {
      id: 'discovery',
      values: { issuer: code(issuer), configuration: code(`${issuer}/.well-known/openid-configuration`) },
      title: 'Discovery',
      text: `Give your OpenID Connect library the issuer ${code(issuer)}; it reads ${code(`${issuer}/.well-known/openid-configuration`)} for the endpoints and signing keys. Do not hard-code endpoints.`,
    },
    {
      id: pkceOptional ? 'authorizationPkceOptional' : 'authorization',
      values: { clientId, scopes: code(`scope=${scopes.join(' ')}`) },
      title: 'Authorization request',
      text:
        `Send the browser to the \`authorization_endpoint\` with \`response_type=code\`, \`client_id\`=${clientId}, a \`redirect_uri\` exactly as registered, ` +
        `\`scope=${scopes.join(' ')}\` (only scopes of the client's \`scopeWhitelist\`), a random \`state\` and \`nonce\`, and PKCE: \`code_challenge\` = BASE64URL(SHA-256(\`code_verifier\`)) with \`code_challenge_method=S256\` (\`plain\` is refused)` +
        (pkceOptional ? '; PKCE is optional for this client, and still recommended.' : '.'),
    },
    {
      id: type === 'web' ? 'tokenWeb' : type === 'spa' || type === 'native' ? 'tokenPublic' : 'tokenAny',
      values: type === 'spa' || type === 'native' ? { type } : {},
      title: 'Token request',
      text: `Your redirect URI receives \`code\` and \`state\` (check \`state\`). POST to the \`token_endpoint\` with \`grant_type=authorization_code\`, the \`code\`, the same \`redirect_uri\` and the \`code_verifier\`; ${tokenRequest}.`,
    },
    client?.claimsInIdToken
      ? {
          id: 'claimsInIdToken',
          values: { idTokenClaims: list(ID_TOKEN_CLAIMS), ...claimsOf },
          title: 'Claims',
          text:
            `The ID token (check its signature, \`iss\`, \`aud\` and \`nonce\`) carries ${list(ID_TOKEN_CLAIMS)}: \`sub\` is the person's stable identifier, the key to store. ` +
            'This client has `claimsInIdToken`, so the ID token also carries the `profile`, `email` and `groups` claims of the granted scopes; ' +
            'the `userinfo_endpoint` (with `Authorization: Bearer <access_token>`) gives every claim of the granted scopes: ' +
            USERINFO_SCOPES.map((scope) => `\`${scope}\` gives ${list(CLAIMS_BY_SCOPE[scope])}`).join('; ') +
            '.',
        }
      : {
          id: 'claims',
          values: { idTokenClaims: list(ID_TOKEN_CLAIMS), ...claimsOf },
          title: 'Claims',
          text:
            `The ID token (check its signature, \`iss\`, \`aud\` and \`nonce\`) carries ${list(ID_TOKEN_CLAIMS)}: \`sub\` is the person's stable identifier, the key to store. ` +
            'It carries no profile data unless the client\'s `claimsInIdToken` is true: ' +
            `call the \`userinfo_endpoint\` with \`Authorization: Bearer <access_token>\` for the claims of the granted scopes: ` +
            USERINFO_SCOPES.map((scope) => `\`${scope}\` gives ${list(CLAIMS_BY_SCOPE[scope])}`).join('; ') +
            '.',
        },
  ];
  if (type === 'spa') {
    steps.push({ id: 'refreshSpa', values: {}, title: 'Refresh tokens', text: 'A `spa` client never gets a refresh token: when the tokens expire, send the browser to the authorization endpoint again (`prompt=none` signs in without a page while the person\'s Sesame session lasts).' });
  } else if (!refresh) {
    steps.push({
      id: 'refreshNone',
      values: {},
      title: 'Refresh tokens',
      text: `This client has no \`offline_access\` in its \`scopeWhitelist\`, so it gets no refresh token; add it with a new revision if the application must act while the person is away. ${REFRESH_TOKEN_RULE}`,
    });
  } else {
    steps.push({
      id: type === undefined ? 'refreshRotatingAny' : 'refreshRotating',
      values: {},
      title: 'Refresh tokens',
      text: `${REFRESH_TOKEN_RULE} Every refresh (\`grant_type=refresh_token\`) returns a new refresh token and spends the old one; presenting a spent one ends the whole grant.${type === undefined ? ' A `spa` client never gets one.' : ''}`,
    });
  }
  steps.push({
    id: 'signOut',
    values: {},
    title: 'Sign-out',
    text: 'Send the browser to the `end_session_endpoint` with `id_token_hint` (the ID token you received) and a registered `post_logout_redirect_uri`.',
  });
  return steps;
}
