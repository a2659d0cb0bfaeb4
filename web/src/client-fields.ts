import { SECRET_STATUSES } from '../../src/domain/statuses.ts';
import type { Client } from './api/types.ts';
import type { FieldSpec } from './changes.ts';

const secretsSummary = (value: unknown) => {
  const secrets = (value as Client['secrets']) ?? [];
  const counts = SECRET_STATUSES
    .map((status) => [status, secrets.filter((s) => s.status === status).length] as const)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${status}`);
  return counts.length > 0 ? counts.join(', ') : '(none)';
};

export const CLIENT_DETAIL_FIELDS: FieldSpec<Client>[] = [
  { key: 'displayName', label: 'console.clientDetails.displayName' },
  { key: 'description', label: 'console.clientDetails.description' },
];

export const CLIENT_CONFIG_FIELDS: FieldSpec<Client>[] = [
  { key: 'redirectUris', label: 'console.clientConfig.redirectUris' },
  { key: 'postLogoutRedirectUris', label: 'console.clientConfig.postLogoutRedirectUris' },
  { key: 'scopeWhitelist', label: 'console.clientConfig.scopes' },
  { key: 'requirePkce', label: 'console.fields.pkceRequired' },
  { key: 'claimsInIdToken', label: 'console.clientConfig.claimsInIdToken' },
];

/** Everything about a client a person would want to know changed before reapplying an edit. */
export const CLIENT_ALL_FIELDS: FieldSpec<Client>[] = [
  ...CLIENT_DETAIL_FIELDS,
  { key: 'status', label: 'console.clients.status' },
  ...CLIENT_CONFIG_FIELDS,
  { key: 'secrets', label: 'console.fields.secrets', format: secretsSummary },
];
