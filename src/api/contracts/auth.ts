import { z } from 'zod';
import { SECRET_POLICY } from '../../domain/clients.ts';
import { LOCALES } from '../../i18n/locales.ts';
import type { User } from '../../services/users.ts';

export const loginRequest = z
  .object({
    account: z.string().min(1).max(256).meta({ description: 'The account name (case-insensitive).' }),
    password: z.string().min(1).max(1024).meta({ description: 'The password. It passes through the conversation: use only in a trusted environment.' }),
    otp: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({ description: 'The one-time code, needed when the account has a second factor (the login answers 401 mfa_required without it): the 6-digit code of the authenticator app, or one unused recovery code.' }),
  })
  .strict();

export const sessionUser = z
  .object({
    subjectId: z.string().meta({ description: 'The user\'s subject identifier (`sub` in ID tokens); use it to add members.' }),
    account: z.string(),
    displayName: z.string(),
    isAdmin: z.boolean().meta({ description: 'Administrators act as owner on every project and manage users.' }),
  })
  .meta({ id: 'SessionUser' });

export const clientSecretPolicy = z
  .object({
    defaultGraceSeconds: z.number().int().meta({ description: 'How long a rotated-out secret keeps working when no grace period is given.' }),
    maxGraceSeconds: z.number().int().meta({ description: 'The longest grace period a rotation accepts.' }),
  })
  .meta({ id: 'ClientSecretPolicy' });

const enrolmentRequired = z.boolean().meta({
  description:
    'true: the second-factor policy requires this person to have a second factor and they have none. The session may only read `GET /auth/me` and `GET /account/factors`, log out and, ' +
    'in the console, add a factor; everything else answers 403 mfa_enrolment_required. After adding one, sign in again with its code.',
});

export const agentLoginResponse = z.object({
  accessToken: z.string().meta({ description: 'Send as `Authorization: Bearer <accessToken>`. Keep it out of logs and chat transcripts.' }),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int().meta({ description: 'Seconds until the token expires.' }),
  user: sessionUser,
  clientSecretPolicy,
  enrolmentRequired,
});

export const consoleLoginResponse = z.object({
  expiresIn: z.number().int().meta({ description: 'Seconds until the session cookie expires.' }),
  csrfToken: z.string().meta({ description: 'Send in the `X-CSRF-Token` header of every state-changing request of this session.' }),
  user: sessionUser,
  clientSecretPolicy,
  enrolmentRequired,
});

export const whoAmIResponse = z.object({ user: sessionUser, clientSecretPolicy, enrolmentRequired });

export const consoleContextResponse = z.object({
  authenticated: z.boolean(),
  csrfToken: z.string().meta({
    description: 'Signed in: the session\'s CSRF token. Signed out: the login-CSRF token that `POST /auth/login` needs in `X-CSRF-Token`.',
  }),
  user: sessionUser.optional(),
  clientSecretPolicy: clientSecretPolicy.optional(),
  enrolmentRequired: enrolmentRequired.optional(),
  locale: z
    .enum(LOCALES)
    .nullable()
    .optional()
    .meta({ description: 'Signed in: the person\'s saved language (`PUT /account/locale`), null when none is saved (the console then follows the browser).' }),
  signInProviders: z
    .array(z.object({ name: z.string(), displayName: z.string() }))
    .optional()
    .meta({ description: 'Signed out: the enabled upstream OpenID Connect providers, each a "Continue with {displayName}" choice for `POST /auth/upstream/{name}/start`.' }),
});

export const upstreamLoginRequest = z
  .object({
    next: z
      .string()
      .min(1)
      .max(512)
      .regex(/^\/([^/].*)?$/, 'must be a console path starting with a single /')
      .optional()
      .meta({ description: 'The console path to return to once signed in (default `/`).' }),
  })
  .strict();

export const upstreamLoginResponse = z.object({
  authorizationUrl: z.string().meta({ description: 'The upstream provider\'s authorization address: send the browser there (a top-level navigation).' }),
});

export const upstreamFinishRequest = z
  .object({
    otp: loginRequest.shape.otp,
  })
  .strict();

export const presentSessionUser = (user: User): z.infer<typeof sessionUser> => ({
  subjectId: user.subjectId,
  account: user.account,
  displayName: user.displayName,
  isAdmin: user.isAdmin,
});

export const presentSecretPolicy = (): z.infer<typeof clientSecretPolicy> => ({
  defaultGraceSeconds: SECRET_POLICY.defaultGraceSeconds,
  maxGraceSeconds: SECRET_POLICY.maxGraceSeconds,
});

export const passkeyLoginOptionsResponse = z
  .object({
    challenge: z.string().meta({ description: 'base64url; single use, valid for 5 minutes, only for this browser\'s sign-in.' }),
    rpId: z.string().optional().meta({ description: 'The issuer\'s host.' }),
    timeout: z.number().optional(),
    userVerification: z.string().optional(),
    allowCredentials: z.array(z.object({ id: z.string(), type: z.string(), transports: z.array(z.string()).optional() })).optional(),
    hints: z.array(z.string()).optional(),
    extensions: z.unknown().optional(),
  })
  .meta({
    id: 'PasskeyRequestOptions',
    description: 'WebAuthn PublicKeyCredentialRequestOptions in their JSON form (for `startAuthentication` of @simplewebauthn/browser): any discoverable passkey of this site.',
  });

export const passkeyLoginRequest = z
  .object({
    response: z
      .looseObject({ id: z.string().min(1).max(1024), rawId: z.string().max(1024), type: z.literal('public-key'), response: z.looseObject({ clientDataJSON: z.string(), authenticatorData: z.string(), signature: z.string() }) })
      .meta({ description: 'The AuthenticationResponseJSON the browser made from the options.' }),
  })
  .strict();
