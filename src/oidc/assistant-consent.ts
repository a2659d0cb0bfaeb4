import type Provider from 'oidc-provider';
import { grantableScopes } from '../domain/assistant-scopes.ts';
import type { AssistantRequest } from './pages/consent-page.ts';
import { TOKEN_LIFETIMES } from './token-lifetimes.ts';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;
type Grant = InstanceType<Provider['Grant']>;
type ResourceScopes = Record<string, string[]>;

const resourceScopesAsked = (interaction: Interaction): ResourceScopes =>
  ((interaction.prompt.details as { missingResourceScopes?: ResourceScopes }).missingResourceScopes ?? {});

const days = (seconds: number) => Math.round(seconds / 86_400);

/**
 * What the consent page shows when an assistant asks for Sesame's own resources; undefined for an
 * ordinary application. `staysConnected`: its client may have refresh tokens (offline_access whitelisted).
 */
export function assistantConsentRequest(interaction: Interaction, user: { isAdmin: boolean }, staysConnected: boolean): AssistantRequest | undefined {
  const asked = Object.values(resourceScopesAsked(interaction)).flat();
  if (asked.length === 0) return undefined;
  const offline = staysConnected || String(interaction.params.scope ?? '').split(' ').includes('offline_access');
  return {
    scopes: grantableScopes(asked, { isAdmin: user.isAdmin, readOnly: false }),
    duration: offline ? { offline: true, days: days(TOKEN_LIFETIMES.refreshTokenAbsolute) } : { offline: false, minutes: TOKEN_LIFETIMES.accessToken / 60 },
  };
}

/**
 * Adds to the grant the assistant scopes the person allowed, per resource, and records the others
 * as refused: sesame:admin only for an administrator, sesame:read alone when they chose read-only.
 */
export function grantAssistantScopes(grant: Grant, interaction: Interaction, choice: { isAdmin: boolean; readOnly: boolean }): void {
  for (const [resource, asked] of Object.entries(resourceScopesAsked(interaction))) {
    const granted = grantableScopes(asked, choice);
    if (granted.length > 0) grant.addResourceScope(resource, granted.join(' '));
    const refused = asked.filter((scope) => !(granted as string[]).includes(scope));
    if (refused.length > 0) grant.rejectResourceScope(resource, refused.join(' '));
  }
}
