import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { IdentityProvider } from '../api/types.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { LoadError, Loading } from '../components/load-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useResource } from '../use-resource.ts';
import { IdentityProviderDialog } from './identity-provider-dialog.tsx';

const TEXT = {
  title: 'Identity providers',
  intro: 'Other OpenID Connect providers and LDAP directories people sign in through, with the accounts they already have. Client secrets and bind passwords are write-only. Only administrators see this page.',
  add: 'Add identity provider',
  loading: 'identity providers',
  none: 'No identity provider yet: people sign in with their Sesame password only.',
  caption: 'Identity providers',
  provider: 'Provider',
  type: 'Type',
  newPeople: 'New people',
  status: 'Status',
  actions: 'Actions',
  oidc: 'OpenID Connect',
  ldap: 'LDAP',
  create: 'created at first sign-in',
  existingOnly: 'existing accounts only',
  enabled: 'enabled',
  disabled: 'disabled',
  secretStored: 'secret stored',
  noSecret: 'no secret',
  redirectUri: 'Redirect URI to register at the provider:',
  change: 'Change',
  changeLabel: (name: string) => `Change ${name}`,
  remove: 'Remove',
  removeLabel: (name: string) => `Remove ${name}`,
  removeTitle: 'Remove this identity provider?',
  removeConfirm: 'Remove provider',
  removeBody: 'People can no longer sign in through it, and every account linked through it is unlinked. The people stay; those without a password need one, or another provider, to sign in.',
  added: (name: string) => `Added ${name}.`,
  saved: (name: string) => `Saved ${name}.`,
  removed: (name: string) => `Removed ${name}.`,
} as const;

export function AdminIdentityProvidersPage() {
  const providers = useResource('admin-identity-providers', () => unwrap(api.GET('/admin/identity-providers')).then((r) => r.identityProviders));
  const [editing, setEditing] = useState<{ provider: IdentityProvider | null } | null>(null);
  const [removing, setRemoving] = useState<IdentityProvider | null>(null);
  const [notice, setNotice] = useState('');
  const issuer = window.location.origin;

  const replace = (saved: IdentityProvider) => {
    const others = (providers.data ?? []).filter((p) => p.name !== saved.name);
    const known = (providers.data ?? []).some((p) => p.name === saved.name);
    providers.set(known ? (providers.data ?? []).map((p) => (p.name === saved.name ? saved : p)) : [...others, saved]);
    setNotice(known ? TEXT.saved(saved.displayName) : TEXT.added(saved.displayName));
  };
  const remove = async (provider: IdentityProvider) => {
    await unwrap(api.DELETE('/admin/identity-providers/{name}', { params: { path: { name: provider.name } }, body: { expectedVersion: provider.version } }));
    providers.set((providers.data ?? []).filter((p) => p.name !== provider.name));
    setNotice(TEXT.removed(provider.displayName));
  };

  return (
    <>
      <PageHeader
        title={TEXT.title}
        actions={
          <button type="button" class="button button-primary" onClick={() => setEditing({ provider: null })}>
            {TEXT.add}
          </button>
        }
      >
        <p class="muted">{TEXT.intro}</p>
      </PageHeader>
      <p class="small success-text" role="status">
        {notice}
      </p>
      {providers.error && <LoadError error={providers.error} onRetry={() => void providers.reload()} />}
      {!providers.data && !providers.error && <Loading what={TEXT.loading} />}
      {providers.data && providers.data.length === 0 && <p class="muted">{TEXT.none}</p>}
      {providers.data && providers.data.length > 0 && (
        <table class="data-table">
          <caption class="visually-hidden">{TEXT.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{TEXT.provider}</th>
              <th scope="col">{TEXT.type}</th>
              <th scope="col">{TEXT.newPeople}</th>
              <th scope="col">{TEXT.status}</th>
              <th scope="col">
                <span class="visually-hidden">{TEXT.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {providers.data.map((provider) => {
              const hasSecret = provider.type === 'oidc' ? provider.hasClientSecret : provider.hasBindPassword;
              return (
                <tr key={provider.name}>
                  <th scope="row" data-label={TEXT.provider}>
                    {provider.displayName}
                    <span class="block small muted">{provider.name}</span>
                    {provider.type === 'oidc' && (
                      <span class="block small muted">
                        {TEXT.redirectUri} <code>{`${issuer}/upstream/${provider.name}/callback`}</code>
                      </span>
                    )}
                  </th>
                  <td data-label={TEXT.type}>
                    {provider.type === 'oidc' ? TEXT.oidc : TEXT.ldap}
                    <span class="block small muted">{provider.oidc?.issuer ?? provider.ldap?.url}</span>
                  </td>
                  <td data-label={TEXT.newPeople}>{provider.provisioning === 'create' ? TEXT.create : TEXT.existingOnly}</td>
                  <td data-label={TEXT.status}>
                    <Badge tone={provider.enabled ? 'success' : 'danger'}>{provider.enabled ? TEXT.enabled : TEXT.disabled}</Badge>{' '}
                    <span class="block small muted">{hasSecret ? TEXT.secretStored : TEXT.noSecret}</span>
                  </td>
                  <td data-label={TEXT.actions}>
                    <div class="actions">
                      <button type="button" class="button button-small" onClick={() => setEditing({ provider })} aria-label={TEXT.changeLabel(provider.displayName)}>
                        {TEXT.change}
                      </button>
                      <button type="button" class="button button-small" onClick={() => setRemoving(provider)} aria-label={TEXT.removeLabel(provider.displayName)}>
                        {TEXT.remove}
                      </button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}

      <IdentityProviderDialog open={editing !== null} provider={editing?.provider ?? null} onClose={() => setEditing(null)} onSaved={replace} />
      <ConfirmDialog open={removing !== null} title={TEXT.removeTitle} confirmLabel={TEXT.removeConfirm} danger onConfirm={() => (removing ? remove(removing) : Promise.resolve())} onClose={() => setRemoving(null)}>
        <p>
          <strong>{removing?.displayName}</strong> ({removing?.name}): {TEXT.removeBody}
        </p>
      </ConfirmDialog>
    </>
  );
}
