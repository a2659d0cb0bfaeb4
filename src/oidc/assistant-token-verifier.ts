import type Provider from 'oidc-provider';
import type { Client } from 'oidc-provider';
import { isAssistantScope } from '../domain/assistant-scopes.ts';
import type { Services } from '../services/index.ts';
import type { User } from '../services/people/users.ts';
import { isStorableText } from '../domain/text-rules.ts';
import type { SesameClientFields } from './client-metadata.ts';
import { isMetadataDocumentClientId } from './assistant-metadata-documents.ts';

export interface VerifiedAssistantToken {
  user: User;
  /** The native client (assistant) the token was issued to. */
  clientId: string;
  /** Its name: registered, or for one known by its metadata document the document's name when the person consented. */
  clientName: string;
  /** The grant (the person's connection of the assistant) the token belongs to. */
  grantId: string;
  /** The assistant scopes granted for this resource. */
  scopes: string[];
}

// oidc-provider's opaque tokens are 43 characters; anything far longer is not one.
const MAX_TOKEN_LENGTH = 512;

/**
 * Accepts an OAuth access token at one of Sesame's own resources when, on this request: the token
 * exists and has not expired, its audience is this resource, its client is an active native client
 * of an active project (or an assistant known by its metadata document), its grant still exists (revoking a consent ends its tokens at once), and its
 * person is active. Anything else is undefined: the caller answers 401. An accepted token marks its
 * grant used (at most once a minute), the "last used" people and administrators see.
 */
export async function verifyAssistantToken(provider: Provider, services: Services, token: string, resource: string, options: { metadataDocuments: boolean }): Promise<VerifiedAssistantToken | undefined> {
  if (token.length > MAX_TOKEN_LENGTH || !isStorableText(token)) return undefined;
  const accessToken = await provider.AccessToken.find(token);
  if (!accessToken) return undefined;
  const audience = accessToken.aud as string | string[] | undefined;
  if (!(Array.isArray(audience) ? audience.includes(resource) : audience === resource) || !accessToken.accountId) return undefined;
  // An assistant known by its metadata document needs no fetch of it here: its grant says who it is.
  const documentClient = isMetadataDocumentClientId(accessToken.clientId as string);
  if (documentClient && !options.metadataDocuments) return undefined;
  const [client, grant, user] = await Promise.all([
    documentClient ? undefined : provider.Client.find(accessToken.clientId as string),
    accessToken.grantId ? provider.Grant.find(accessToken.grantId) : undefined,
    services.users.getUser(accessToken.accountId as string),
  ]);
  if (!documentClient && (!client || (client as Client & SesameClientFields).sesame_client_type !== 'native')) return undefined;
  if (!grant || grant.accountId !== accessToken.accountId || grant.clientId !== accessToken.clientId) return undefined;
  if (!user || user.status !== 'active') return undefined;
  const granted = new Set((grant.getResourceScope(resource) ?? '').split(' '));
  const scopes = String(accessToken.scope ?? '').split(' ').filter((scope) => isAssistantScope(scope) && granted.has(scope));
  await services.assistantGrants.noteGrantUsed(accessToken.grantId!);
  const clientId = accessToken.clientId as string;
  const clientName = documentClient ? await services.assistantGrants.grantClientName(accessToken.grantId!) : client?.clientName;
  return { user, clientId, clientName: clientName ?? clientId, grantId: accessToken.grantId!, scopes };
}
