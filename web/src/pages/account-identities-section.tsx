import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { AccountIdentity } from '../api/types.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { DataTable } from '../components/data-table.tsx';
import { LoadState } from '../components/load-state.tsx';
import { Time } from '../components/time.tsx';
import { RowButton } from '../components/row-button.tsx';
import { useResource } from '../use-resource.ts';
import { t } from '../i18n.ts';

/** My account: the upstream identities linked to me, each removable (never the last way in: the server refuses that). */
export function AccountIdentitiesSection() {
  const identities = useResource('account-identities', () => unwrap(api.GET('/account/identities')).then((r) => r.identities));
  const [removing, setRemoving] = useState<AccountIdentity | null>(null);
  const [notice, setNotice] = useState('');
  const remove = async (identity: AccountIdentity) => {
    await unwrap(api.DELETE('/account/identities/{identityId}', { params: { path: { identityId: identity.identityId } } }));
    identities.set((identities.data ?? []).filter((i) => i.identityId !== identity.identityId));
    setNotice(t('console.identities.removed', { name: identity.displayName }));
  };
  return (
    <section aria-labelledby="account-identities-title">
      <h2 id="account-identities-title">{t('console.identities.title')}</h2>
      <p class="muted">{t('console.identities.intro')}</p>
      <p class="small success-text" role="status">
        {notice}
      </p>
      <LoadState resource={identities} what={t('console.identities.loading')} />
      {identities.data && identities.data.length === 0 && <p class="muted">{t('console.identities.none')}</p>}
      {identities.data && identities.data.length > 0 && (
        <DataTable caption={t('console.identities.caption')} columns={[t('console.identities.provider'), t('console.identities.linked'), t('console.identities.lastUsed')]} actions={t('console.identities.actions')}>
          {identities.data.map((identity) => (
            <tr key={identity.identityId}>
              <th scope="row" data-label={t('console.identities.provider')}>
                {identity.displayName}
              </th>
              <td data-label={t('console.identities.linked')}>
                <Time value={identity.linkedAt} />
              </td>
              <td data-label={t('console.identities.lastUsed')}>
                <Time value={identity.lastSignInAt} empty={t('console.identities.never')} />
              </td>
              <td data-label={t('console.identities.actions')}>
                <RowButton onClick={() => setRemoving(identity)} label={t('console.identities.removeLabel', { name: identity.displayName })}>
                  {t('console.identities.remove')}
                </RowButton>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ConfirmDialog open={removing !== null} title={t('console.identities.removeTitle')} confirmLabel={t('console.identities.removeConfirm')} danger onConfirm={() => (removing ? remove(removing) : Promise.resolve())} onClose={() => setRemoving(null)}>
        <p>{removing ? t('console.identities.removeBody', { name: removing.displayName }) : ''}</p>
      </ConfirmDialog>
    </section>
  );
}
