import { said, see, type PointedText } from '../../domain/pointed-text.ts';
import { PROJECT_ARCHIVED, VERSION_CONFLICT_RETRY } from '../../domain/refusal-texts.ts';
import type { ErrorCode } from '../../errors.ts';

export interface ErrorAdvice {
  /** When the server answers with this code. */
  meaning: string;
  /** What a caller (person, script or AI assistant) should do next; the operations it names, each surface words itself. */
  action: string | PointedText;
}

// The shared refusal texts live in the domain (the use cases say them); the guides and documents take them from here too.
export { PROJECT_ARCHIVED, SIGN_IN_FIRST, VERSION_CONFLICT_RETRY, versionConflictText } from '../../domain/refusal-texts.ts';

/** One entry per error code: a code added to ERROR_STATUS without advice here fails the type check. */
export const ERROR_ADVICE: Record<ErrorCode, ErrorAdvice> = {
  invalid_request: {
    meaning: 'The request is malformed: wrong JSON types, an unknown field, a missing required field, or a value out of range.',
    action: 'Read `field_errors`, fix those fields and send again. Numbers must be JSON numbers, not strings; send only documented fields.',
  },
  invalid_client_metadata: {
    meaning: 'The client\'s settings break a registration rule (redirect URIs, scopes, PKCE, names).',
    action: 'Read `field_errors`, correct the named fields (for example an https redirect URI, or a scope list containing openid) and send again.',
  },
  login_required: {
    meaning: 'No valid session: the token or cookie is missing, expired, revoked, or its user was disabled.',
    action: said`Log in again with ${see('login')} and repeat the request with the new token. Do not retry with the old one.`,
  },
  invalid_credentials: {
    meaning: 'The account, password or one-time code (`otp`) is wrong, or the account is disabled (the answer is the same on purpose).',
    action: 'Ask the user to check the account, the password and, when sent, the one-time code in `otp`. Do not guess or retry repeatedly: repeated failures may be refused with 429 rate_limited.',
  },
  mfa_required: {
    meaning: 'The account and password are right, but the account has a second factor and the login carried no one-time code.',
    action: 'Ask the person for the current 6-digit code of their authenticator app (or one unused recovery code, which a person whose second factor is a passkey uses here) and send the login again with it in `otp`. This answer is not counted as a failed login.',
  },
  forbidden: {
    meaning: 'You can see the project, but your role does not allow this operation.',
    action: 'Check `project.capabilities`. Ask the project owner (or an administrator) to do it, or to give you a role that can.',
  },
  mfa_enrolment_required: {
    meaning: 'The second-factor policy requires this account to have a second factor, and it has none yet: until it has one, this session may only say who it is, list its own factors, log out and, in the console, add a factor.',
    action: 'Tell the person to sign in to the console and add an authenticator app or a passkey under My account (Second factor), then sign in again with its one-time code. Do not retry this request before.',
  },
  insufficient_scope: {
    meaning: 'Your OAuth access token was granted fewer scopes than this operation needs (sesame:read for reads, sesame:write for changes, sesame:admin for the administrators\' operations).',
    action: 'Authorize again with the scope the WWW-Authenticate challenge names (your scopes plus the missing one); the person allows it on Sesame\'s consent page. Tell them why first; do not retry with the same token.',
  },
  browser_only: {
    meaning:
      'Only the person can do this, in the console under My account, in their own browser: it changes how they sign in (password, second factors, recovery codes, email, linked identities). ' +
      'For the administrators\' setUserPassword and resetUserFactors: not through an assistant\'s OAuth access token.',
    action:
      'Do not retry, and do not ask the person for their password or codes. Tell them what to do and where: in the Sesame console (`/console` on this server), My account (for an administrator\'s action on another person: Administration, Users).',
  },
  reauthentication_required: {
    meaning: 'Console only: this session proved the person too long ago (longer than REAUTH_WINDOW_SECONDS, default 10 minutes) to change how they sign in.',
    action: 'Send `POST /account/reauthenticate` with `currentPassword` (or `otp`: an authenticator code or an unused recovery code), then repeat the request.',
  },
  use_my_account: {
    meaning: 'An administrator\'s operation on other people (setUserPassword, resetUserFactors) aimed at the caller\'s own account.',
    action: 'Change your own password or second factors in the console under My account, where your current password or a code proves it is you.',
  },
  csrf_failed: {
    meaning: 'Console only: the X-CSRF-Token header is missing or does not match the session (or, for login, the login-CSRF cookie).',
    action: 'Fetch `GET /auth/context`, send its `csrfToken` in the X-CSRF-Token header, and try again.',
  },
  not_found: {
    meaning: 'The resource does not exist, or you are not a member of its project (the two are indistinguishable on purpose).',
    action: said`Check the identifiers; list your projects (${see('listProjects')}) or the project's clients (${see('listClients')}) to find the right one, or ask the owner to add you.`,
  },
  version_conflict: {
    meaning: 'The `expectedProjectVersion`, `clientVersion` or `expectedSettingsVersion` you sent is not the current one: someone changed the resource since you read it.',
    action:
      'GET the resource again (the project for `expectedProjectVersion`, the client for `clientVersion`, the settings for `expectedSettingsVersion`), check that your change still makes sense against what is there now, ' +
      `and send it again with the current version. ${VERSION_CONFLICT_RETRY}`,
  },
  project_archived: PROJECT_ARCHIVED,
  project_not_archived: {
    meaning: 'Only an archived project can be deleted, and this one is active.',
    action: said`Make sure the person really wants the project and its clients gone; archive it (${see('updateProject')} with \`status: "archived"\`), read it again (${see('getProject')}) for the new version, then delete it (${see('deleteProject')}).`,
  },
  last_sign_in_method: {
    meaning: 'The linked identity is the person\'s last way to sign in (no local password, no passkey, no other linked identity): removing it would lock them out.',
    action: said`First add a passkey (${see('passkeyOptions')}), set a password (the "Forgot your password?" link on the login page) or link another identity, then remove this one.`,
  },
  idempotency_key_reused: {
    meaning: 'This Idempotency-Key was already used by you, within the last 24 hours, for a request with a different body.',
    action: 'Use a new key for a new request. To repeat the earlier request, send exactly its body again with the same key.',
  },
  member_exists: {
    meaning: 'The user is already a member of the project.',
    action: said`List the members (${see('listMembers')}); to change their role use ${see('changeMemberRole')}.`,
  },
  last_owner: {
    meaning: 'The change would leave the project without its one owner (removing or demoting the owner).',
    action: said`Transfer ownership first with ${see('transferOwnership')}; the old owner then becomes a maintainer.`,
  },
  invalid_client_type: {
    meaning: 'The operation does not apply to this client type (for example rotating the secret of a spa client), or the request tries to change a client\'s type.',
    action: 'A client\'s type never changes. Register a new client of the wanted type instead; spa clients have no secret.',
  },
  secret_limit_exceeded: {
    meaning: 'The client already has an active secret and a retiring one that still works; a third usable secret is not allowed.',
    action: said`Wait until the retiring secret expires, or revoke it with ${see('revokeClientSecret')} (once nothing uses it: see \`lastUsedAt\`), then rotate.`,
  },
  request_too_large: {
    meaning: 'The request body is larger than the server accepts (64 KiB; see the limits).',
    action: 'Send a smaller body; no management request needs more.',
  },
  unsupported_media_type: {
    meaning: 'The body is not sent as JSON.',
    action: 'Send the body as JSON with `Content-Type: application/json`.',
  },
  rate_limited: {
    meaning: 'Too many attempts (for example failed logins) in a short time.',
    action: 'Wait the number of seconds in the Retry-After header before trying again.',
  },
  internal_error: {
    meaning: 'An unexpected failure on the server; nothing was changed unless a later read shows otherwise.',
    action: 'GET the resource to see its state, retry once, and report the problem if it persists.',
  },
  service_unavailable: {
    meaning: 'The server is temporarily unable to serve (for example its database is unreachable).',
    action: 'Wait the number of seconds in the Retry-After header, then retry.',
  },
  directory_unavailable: {
    meaning: 'The account is not a local one (or has no local password), and the LDAP directory that would check its password did not answer in time. Local accounts still sign in.',
    action: said`Wait the number of seconds in the Retry-After header, then retry the sign-in. If it persists, tell an administrator: the directory, or its settings (${see('listIdentityProviders')}), need a look.`,
  },
};
