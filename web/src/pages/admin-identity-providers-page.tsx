import { api, unwrap } from '../api/client.ts';
import { Badge } from '../components/badge.tsx';
import { DataTable } from '../components/data-table.tsx';
import { NamedRecordsPage } from '../components/named-records-page.tsx';
import { RowButton } from '../components/row-button.tsx';
import { useResource } from '../use-resource.ts';
import { IdentityProviderDialog } from './identity-provider-dialog.tsx';
import { t } from '../i18n.ts';

export function AdminIdentityProvidersPage() {
  const providers = useResource('admin-identity-providers', () => unwrap(api.GET('/admin/identity-providers')).then((r) => r.identityProviders));
  const issuer = window.location.origin;

  return (
    <NamedRecordsPage
      texts="console.identityProviders"
      records={providers}
      remove={async (provider) => {
        await unwrap(api.DELETE('/admin/identity-providers/{name}', { params: { path: { name: provider.name } }, body: { expectedVersion: provider.version } }));
      }}
      table={(list, actions) => (
        <DataTable caption={t('console.identityProviders.caption')} columns={[t('console.identityProviders.provider'), t('console.identityProviders.type'), t('console.identityProviders.newPeople'), t('console.identityProviders.status')]} actions={t('console.identityProviders.actions')}>
          {list.map((provider) => {
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
                    <RowButton onClick={() => actions.edit(provider)} label={t('console.identityProviders.changeLabel', { name: provider.displayName })}>
                      {t('console.identityProviders.change')}
                    </RowButton>
                    <RowButton onClick={() => actions.askToRemove(provider)} label={t('console.identityProviders.removeLabel', { name: provider.displayName })}>
                      {t('console.identityProviders.remove')}
                    </RowButton>
                  </div>
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      dialog={(editing, close, saved) => <IdentityProviderDialog open={editing !== null} provider={editing?.record ?? null} onClose={close} onSaved={saved} />}
    />
  );
}
