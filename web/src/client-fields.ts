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
  { key: 'displayName', label: 'Display name' },
  { key: 'description', label: 'Description' },
];

export const CLIENT_CONFIG_FIELDS: FieldSpec<Client>[] = [
  { key: 'redirectUris', label: 'Redirect URIs' },
  { key: 'postLogoutRedirectUris', label: 'Post-logout redirect URIs' },
  { key: 'scopeWhitelist', label: 'Scopes' },
  { key: 'requirePkce', label: 'PKCE required' },
];

/** Everything about a client a person would want to know changed before reapplying an edit. */
export const CLIENT_ALL_FIELDS: FieldSpec<Client>[] = [
  ...CLIENT_DETAIL_FIELDS,
  { key: 'status', label: 'Status' },
  ...CLIENT_CONFIG_FIELDS,
  { key: 'secrets', label: 'Secrets', format: secretsSummary },
];
