import type Provider from 'oidc-provider';
import { ASSISTANT_SCOPES, grantableScopes, isAssistantScope, type AssistantScope } from '../domain/assistant-scopes.ts';
import type { AssistantRequest } from './pages/consent-page.ts';
import { TOKEN_LIFETIMES } from './token-lifetimes.ts';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;
type Grant = InstanceType<Provider['Grant']>;

/** The person's answer on an assistant's consent page. */
export type AssistantAccessChoice = 'requested' | 'without_admin' | 'read';

export const parseAccessChoice = (value: string): AssistantAccessChoice => (value === 'read' || value === 'without_admin' ? value : 'requested');

const resourcesOf = (params: Record<string, unknown>): string[] => {
  const resource = params.resource;
  return Array.isArray(resource) ? resource.filter((value): value is string => typeof value === 'string') : typeof resource === 'string' && resource !== '' ? [resource] : [];
};

/** Every sesame:* scope the request asks for (not only those missing from an earlier grant). */
export const assistantScopesAsked = (params: Record<string, unknown>): AssistantScope[] => {
  const requested = String(params.scope ?? '').split(' ');
  return ASSISTANT_SCOPES.filter((scope) => requested.includes(scope));
};

const days = (seconds: number) => Math.round(seconds / 86_400);

/**
 * What the consent page shows when an assistant asks for Sesame's own resources (`resource` given and
 * sesame:* scopes asked); undefined for an ordinary application. The list is everything asked, also
 * when part of it was granted before, so the person always sees what they are answering.
 */
export function assistantConsentRequest(interaction: Interaction, user: { isAdmin: boolean }, staysConnected: boolean): AssistantRequest | undefined {
  const asked = assistantScopesAsked(interaction.params);
  if (asked.length === 0 || resourcesOf(interaction.params).length === 0) return undefined;
  const offline = staysConnected || String(interaction.params.scope ?? '').split(' ').includes('offline_access');
  return {
    scopes: grantableScopes(asked, { isAdmin: user.isAdmin, readOnly: false }),
    duration: offline ? { offline: true, days: days(TOKEN_LIFETIMES.refreshTokenAbsolute) } : { offline: false, minutes: TOKEN_LIFETIMES.accessToken / 60 },
  };
}

/** The person's choice applied to what was asked: "Allow read-only" keeps sesame:read alone, "without administration" drops sesame:admin. */
function chosenScopes(asked: readonly string[], choice: AssistantAccessChoice, isAdmin: boolean): AssistantScope[] {
  const allowed = grantableScopes(asked, { isAdmin, readOnly: choice === 'read' });
  return choice === 'without_admin' ? allowed.filter((scope) => scope !== 'sesame:admin') : allowed;
}

/**
 * Sets the grant's assistant scopes for each resource asked from the person's answer, and returns
 * whether it now allows anything it did not before (a connection made or widened, audited as
 * assistant.connect). "Allow" and "Allow without administration" add to what was granted earlier (and
 * the latter withdraws sesame:admin); "Allow read-only" leaves sesame:read alone.
 */
export function grantAssistantScopes(grant: Grant, interaction: Interaction, choice: { isAdmin: boolean; access: AssistantAccessChoice }): boolean {
  const asked = assistantScopesAsked(interaction.params);
  if (asked.length === 0) return false;
  let widened = false;
  for (const resource of resourcesOf(interaction.params)) {
    const before = (grant.getResourceScope(resource) ?? '').split(' ').filter(isAssistantScope);
    const chosen = chosenScopes(asked, choice.access, choice.isAdmin);
    const kept = choice.access === 'read' ? [] : before.filter((scope) => scope !== 'sesame:admin' || choice.access === 'requested');
    const after = ASSISTANT_SCOPES.filter((scope) => chosen.includes(scope) || kept.includes(scope));
    if (after.some((scope) => !before.includes(scope))) widened = true;
    const resources = (grant.resources ??= {}) as Record<string, string>;
    if (after.length > 0) resources[resource] = after.join(' ');
    else delete resources[resource];
    // What was asked and not allowed is recorded as refused, as oidc-provider expects of a consent. An
    // assistant asking again still meets the page: oidc-provider asks native clients every time (RFC 8252 8.6).
    const rejected = (grant.rejected as { resources?: Record<string, string> } | undefined)?.resources;
    if (rejected) delete rejected[resource];
    const refused = asked.filter((scope) => !after.includes(scope));
    if (refused.length > 0) grant.rejectResourceScope(resource, refused.join(' '));
  }
  return widened;
}
