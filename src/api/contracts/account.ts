import { z } from 'zod';
import { CLIENT_TYPES } from '../../domain/clients.ts';
import { MFA_POLICIES, type SecuritySettings } from '../../domain/mfa-policy.ts';
import { PASSWORD_RULES } from '../../domain/passwords.ts';
import type { AccountConsent, AccountSession, FactorView } from '../../domain/views.ts';
import { timestamp, toIso, toIsoOrNull } from './common.ts';

const currentPassword = z.string().min(1).max(1024).meta({ description: 'Your current password, to confirm it is you.', writeOnly: true });

export const changePasswordRequest = z
  .object({
    currentPassword,
    newPassword: z.string().meta({ minLength: PASSWORD_RULES.minLength, maxLength: PASSWORD_RULES.maxLength, writeOnly: true }),
  })
  .strict();

export const accountSessionJson = z
  .object({
    sessionId: z.string().meta({ description: 'Opaque id of the session (never its token).' }),
    kind: z.enum(['console', 'agent', 'oidc']).meta({ description: '`console`: a browser signed in to the console; `agent`: an Agent API token; `oidc`: a sign-in session at Sesame used by applications.' }),
    createdAt: timestamp,
    lastSeenAt: timestamp,
    current: z.boolean().meta({ description: 'The session making this request.' }),
  })
  .meta({ id: 'AccountSession' });
export const sessionListResponse = z.object({ sessions: z.array(accountSessionJson) });
export const sessionParams = z.object({ sessionId: z.string().min(1).max(200) });
export const presentAccountSession = (session: AccountSession): z.infer<typeof accountSessionJson> => ({
  sessionId: session.sessionId,
  kind: session.kind,
  createdAt: toIso(session.createdAt),
  lastSeenAt: toIso(session.lastSeenAt),
  current: session.current,
});

export const consentJson = z
  .object({
    grantId: z.string(),
    clientId: z.string(),
    clientType: z.enum(CLIENT_TYPES).nullable().meta({ description: 'Assistants are the `native` ones; null when the client no longer exists.' }),
    displayName: z.string().nullable(),
    scopes: z.array(z.string()),
    grantedAt: timestamp.nullable(),
    lastUsedAt: timestamp.nullable().meta({ description: 'When a code or token was last issued under this consent.' }),
  })
  .meta({ id: 'Consent' });
export const consentListResponse = z.object({ consents: z.array(consentJson) });
export const grantParams = z.object({ grantId: z.string().min(1).max(200) });
export const presentConsent = (consent: AccountConsent): z.infer<typeof consentJson> => ({
  ...consent,
  grantedAt: toIsoOrNull(consent.grantedAt),
  lastUsedAt: toIsoOrNull(consent.lastUsedAt),
});

export const factorJson = z
  .object({
    factorId: z.string(),
    type: z.enum(['totp', 'passkey', 'recovery_codes']),
    name: z.string(),
    unusedCodes: z.number().int().min(0).optional().meta({ description: 'Recovery codes only: how many are still unused.' }),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable(),
  })
  .meta({ id: 'Factor' });
export const presentFactor = (factor: FactorView): z.infer<typeof factorJson> => ({ ...factor, createdAt: toIso(factor.createdAt), lastUsedAt: toIsoOrNull(factor.lastUsedAt) });
export const factorListResponse = z.object({
  factors: z.array(factorJson),
  mfaRequired: z.boolean().meta({ description: 'Whether the instance\'s policy requires you to sign in with a second factor.' }),
});

export const startTotpRequest = z.object({ name: z.string().min(1).max(100).optional().meta({ description: 'Your name for the authenticator, e.g. "Phone".' }) }).strict();
export const startTotpResponse = z.object({
  factorId: z.string(),
  secret: z.string().meta({ description: 'Base32 TOTP secret, for typing into the app by hand; shown only now.' }),
  otpauthUri: z.string().meta({ description: 'The otpauth:// URI the QR code holds (HMAC-SHA-1, 30 s, 6 digits).' }),
  qrCodeSvg: z.string().meta({ description: 'The QR code as SVG markup, drawn by Sesame.' }),
});
export const factorParams = z.object({ factorId: z.string().min(1).max(100) });
export const confirmTotpRequest = z.object({ code: z.string().min(1).max(16).meta({ description: 'The 6-digit code the app shows now.' }) }).strict();
const recoveryCodes = z.array(z.string()).meta({ description: 'Ten single-use codes, each standing in for the authenticator once; shown only now, kept only as digests.' });
export const confirmTotpResponse = z.object({ factor: factorJson, recoveryCodes: recoveryCodes.optional() });
export const recoveryCodesResponse = z.object({ recoveryCodes });
// Optional: in a session with a recent proof the removal needs no password (DESIGN.md section 14).
export const removeFactorRequest = z
  .object({ currentPassword: currentPassword.optional().meta({ description: 'Your current password: the proof this removal needs. Leave it out in a session with a recent proof (sign-in or POST /account/reauthenticate).' }) })
  .strict()
  .optional();

export const reauthenticateRequest = z
  .object({
    currentPassword: currentPassword.optional(),
    otp: z.string().min(1).max(64).optional().meta({ description: 'A code from your authenticator app, or an unused recovery code.', writeOnly: true }),
  })
  .strict()
  .superRefine((input, context) => {
    if ((input.currentPassword === undefined) === (input.otp === undefined)) {
      context.addIssue({ code: 'custom', path: [input.currentPassword === undefined ? 'currentPassword' : 'otp'], message: 'send exactly one of currentPassword and otp' });
    }
  });

export const passkeyOptionsResponse = z
  .object({
    challenge: z.string().meta({ description: 'base64url; single use, valid for 5 minutes, only for you.' }),
    rp: z.object({ id: z.string().optional(), name: z.string() }).meta({ description: 'The relying party; its id is the issuer\'s host.' }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ type: z.string(), alg: z.number() })),
    timeout: z.number().optional(),
    excludeCredentials: z.array(z.object({ id: z.string(), type: z.string(), transports: z.array(z.string()).optional() })).optional().meta({ description: 'Your passkeys already registered.' }),
    authenticatorSelection: z
      .object({ residentKey: z.string().optional(), userVerification: z.string().optional(), requireResidentKey: z.boolean().optional(), authenticatorAttachment: z.string().optional() })
      .optional(),
    attestation: z.string().optional(),
    hints: z.array(z.string()).optional(),
    extensions: z.unknown().optional(),
  })
  .meta({
    id: 'PasskeyCreationOptions',
    description: 'WebAuthn PublicKeyCredentialCreationOptions in their JSON form (as `PublicKeyCredential.parseCreationOptionsFromJSON` and @simplewebauthn/browser\'s `startRegistration` take them): a discoverable credential, user verification preferred.',
  });
export const addPasskeyRequest = z
  .object({
    name: z.string().trim().min(1).max(100).meta({ description: 'Your name for the passkey, e.g. "Laptop".' }),
    response: z
      .looseObject({ id: z.string().min(1).max(1024), rawId: z.string().max(1024), type: z.literal('public-key'), response: z.looseObject({ clientDataJSON: z.string(), attestationObject: z.string() }) })
      .meta({ description: 'The RegistrationResponseJSON the browser made from the options (`PublicKeyCredential.toJSON()`, or @simplewebauthn/browser\'s `startRegistration`).' }),
  })
  .strict();
export const addPasskeyResponse = z.object({ factor: factorJson, recoveryCodes: recoveryCodes.optional() });

export const settingsJson = z
  .object({
    mfaRequired: z.enum(MFA_POLICIES).meta({ description: 'Who must sign in with a second factor: `none`, `admins` or `everyone`.' }),
    version: z.number().int().meta({ description: 'Send as `expectedSettingsVersion` to change the settings.' }),
  })
  .meta({ id: 'Settings' });
export const settingsResponse = z.object({ settings: settingsJson });
export const updateSettingsRequest = z.object({ mfaRequired: z.enum(MFA_POLICIES), expectedSettingsVersion: z.number().int().min(1) }).strict();
export const presentSettings = (settings: SecuritySettings): z.infer<typeof settingsJson> => ({ mfaRequired: settings.mfaRequired, version: settings.version });
