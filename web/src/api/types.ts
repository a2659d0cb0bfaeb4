import type { components, operations } from './schema.ts';

// Names for the shapes of the generated contract (schema.ts, from the server's OpenAPI document).
type Schemas = components['schemas'];

export type SessionContext = operations['getConsoleContext']['responses'][200]['content']['application/json'];
export type SessionUser = Schemas['SessionUser'];
export type SecretPolicy = Schemas['ClientSecretPolicy'];
export type Project = Schemas['Project'];
export type Member = Schemas['Member'];
export type Client = Schemas['Client'];
export type SecretInfo = Schemas['SecretInfo'];
/** Present only in the response that created it; the console drops it when its dialog closes. */
export type NewSecret = Schemas['NewSecret'];
export type AuditLogEntry = Schemas['AuditLogEntry'];
export type AdminUser = Schemas['User'];
export type AssistantGrant = Schemas['AssistantGrant'];
export type DirectoryUser = Schemas['UserSummary'];
/** The roles a member can be given or changed to; owner changes only by transfer. */
export type AssignableRole = operations['changeMemberRole']['requestBody']['content']['application/json']['role'];
export type AccountSession = Schemas['AccountSession'];
export type Consent = Schemas['Consent'];
export type Factor = Schemas['Factor'];
export type MyEmail = operations['getMyEmail']['responses'][200]['content']['application/json'];
/** The secret and QR code of an authenticator being added; shown once, dropped when its dialog closes. */
export type TotpEnrolment = operations['startTotp']['responses'][201]['content']['application/json'];
export type IdentityProvider = Schemas['IdentityProvider'];
export type NewIdentityProvider = operations['createIdentityProvider']['requestBody']['content']['application/json'];
export type IdentityProviderChanges = operations['updateIdentityProvider']['requestBody']['content']['application/json'];
export type AccountIdentity = Schemas['AccountIdentity'];
export type Group = Schemas['Group'];
export type GroupMember = Schemas['GroupMember'];
