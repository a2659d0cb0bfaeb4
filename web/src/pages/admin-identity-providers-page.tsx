import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { IdentityProvider } from '../api/types.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { LoadError, Loading } from '../components/load-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useResource } from '../use-resource.ts';
import { IdentityProviderDialog } from './identity-provider-dialog.tsx';
import { t } from '../i18n.ts';

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
    setNotice(t(known ? 'console.identityProviders.saved' : 'console.identityProviders.added', { name: saved.displayName }));
  };
  const remove = async (provider: IdentityProvider) => {
    await unwrap(api.DELETE('/admin/identity-providers/{name}', { params: { path: { name: provider.name } }, body: { expectedVersion: provider.version } }));
    providers.set((providers.data ?? []).filter((p) => p.name !== provider.name));
    setNotice(t('console.identityProviders.removed', { name: provider.displayName }));
  };

  return (
    <>
      <PageHeader
        title={t('console.identityProviders.title')}
        actions={
          <button type="button" class="button button-primary" onClick={() => setEditing({ provider: null })}>
            {t('console.identityProviders.add')}
          </button>
        }
      >
        <p class="muted">{t('console.identityProviders.intro')}</p>
      </PageHeader>
      <p class="small success-text" role="status">
        {notice}
      </p>
      {providers.error && <LoadError error={providers.error} onRetry={() => void providers.reload()} />}
      {!providers.data && !providers.error && <Loading what={t('console.identityProviders.loading')} />}
      {providers.data && providers.data.length === 0 && <p class="muted">{t('console.identityProviders.none')}</p>}
      {providers.data && providers.data.length > 0 && (
        <table class="data-table">
          <caption class="visually-hidden">{t('console.identityProviders.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('console.identityProviders.provider')}</th>
              <th scope="col">{t('console.identityProviders.type')}</th>
              <th scope="col">{t('console.identityProviders.newPeople')}</th>
              <th scope="col">{t('console.identityProviders.status')}</th>
              <th scope="col">
                <span class="visually-hidden">{t('console.identityProviders.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {providers.data.map((provider) => {
              const hasSecret = provider.type === 'oidc' ? provider.hasClientSecret : provider.hasBindPassword;
              return (
                <tr key={provider.name}>
                  <th scope="row" data-label={t('console.identityProviders.provider')}>
                    {provider.displayName}
                    <span class="block small muted">{provider.name}</span>
                    {provider.type === 'oidc' && (
                      <span class="block small muted">
                        {t('console.identityProviders.redirectUri')} <code>{`${issuer}/upstream/${provider.name}/callback`}</code>
                      </span>
                    )}
                  </th>
                  <td data-label={t('console.identityProviders.type')}>
                    {provider.type === 'oidc' ? 'OpenID Connect' : 'LDAP'}
                    <span class="block small muted">{provider.oidc?.issuer ?? provider.ldap?.url}</span>
                  </td>
                  <td data-label={t('console.identityProviders.newPeople')}>{provider.provisioning === 'create' ? t('console.identityProviders.create') : t('console.identityProviders.existingOnly')}</td>
                  <td data-label={t('console.identityProviders.status')}>
                    <Badge tone={provider.enabled ? 'success' : 'danger'}>{provider.enabled ? t('console.identityProviders.enabled') : t('console.identityProviders.disabled')}</Badge>{' '}
                    <span class="block small muted">{hasSecret ? t('console.identityProviders.secretStored') : t('console.identityProviders.noSecret')}</span>
                  </td>
                  <td data-label={t('console.identityProviders.actions')}>
                    <div class="actions">
                      <button type="button" class="button button-small" onClick={() => setEditing({ provider })} aria-label={t('console.identityProviders.changeLabel', { name: provider.displayName })}>
                        {t('console.identityProviders.change')}
                      </button>
                      <button type="button" class="button button-small" onClick={() => setRemoving(provider)} aria-label={t('console.identityProviders.removeLabel', { name: provider.displayName })}>
                        {t('console.identityProviders.remove')}
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
      <ConfirmDialog open={removing !== null} title={t('console.identityProviders.removeTitle')} confirmLabel={t('console.identityProviders.removeConfirm')} danger onConfirm={() => (removing ? remove(removing) : Promise.resolve())} onClose={() => setRemoving(null)}>
        <p>
          <strong>{removing?.displayName}</strong> ({removing?.name}): {t('console.identityProviders.removeBody')}
        </p>
      </ConfirmDialog>
    </>
  );
}
