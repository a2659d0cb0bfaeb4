import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { AccountIdentity } from '../api/types.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { LoadError, Loading } from '../components/load-state.tsx';
import { useResource } from '../use-resource.ts';

const TEXT = {
  title: 'Linked identities',
  intro: 'Accounts at other identity providers that sign you in to Sesame.',
  loading: 'linked identities',
  none: 'None: you sign in with your Sesame password or passkey only.',
  caption: 'Linked identities',
  provider: 'Provider',
  linked: 'Linked',
  lastUsed: 'Last sign-in',
  never: 'never',
  actions: 'Actions',
  remove: 'Unlink',
  removeLabel: (name: string) => `Unlink ${name}`,
  removeTitle: 'Unlink this identity?',
  removeConfirm: 'Unlink',
  removeBody: (name: string) => `Your ${name} account will no longer sign you in to Sesame. If it is your only way in, Sesame refuses: set a password first.`,
  removed: (name: string) => `Unlinked ${name}.`,
} as const;

const when = (iso: string) => new Date(iso).toLocaleString();

/** My account: the upstream identities linked to me, each removable (never the last way in: the server refuses that). */
export function AccountIdentitiesSection() {
  const identities = useResource('account-identities', () => unwrap(api.GET('/account/identities')).then((r) => r.identities));
  const [removing, setRemoving] = useState<AccountIdentity | null>(null);
  const [notice, setNotice] = useState('');
  const remove = async (identity: AccountIdentity) => {
    await unwrap(api.DELETE('/account/identities/{identityId}', { params: { path: { identityId: identity.identityId } } }));
    identities.set((identities.data ?? []).filter((i) => i.identityId !== identity.identityId));
    setNotice(TEXT.removed(identity.displayName));
  };
  return (
    <section aria-labelledby="account-identities-title">
      <h2 id="account-identities-title">{TEXT.title}</h2>
      <p class="muted">{TEXT.intro}</p>
      <p class="small success-text" role="status">
        {notice}
      </p>
      {identities.error && <LoadError error={identities.error} onRetry={() => void identities.reload()} />}
      {!identities.data && !identities.error && <Loading what={TEXT.loading} />}
      {identities.data && identities.data.length === 0 && <p class="muted">{TEXT.none}</p>}
      {identities.data && identities.data.length > 0 && (
        <table class="data-table">
          <caption class="visually-hidden">{TEXT.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{TEXT.provider}</th>
              <th scope="col">{TEXT.linked}</th>
              <th scope="col">{TEXT.lastUsed}</th>
              <th scope="col">
                <span class="visually-hidden">{TEXT.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {identities.data.map((identity) => (
              <tr key={identity.identityId}>
                <th scope="row" data-label={TEXT.provider}>
                  {identity.displayName}
                </th>
                <td data-label={TEXT.linked}>{when(identity.linkedAt)}</td>
                <td data-label={TEXT.lastUsed}>{identity.lastSignInAt ? when(identity.lastSignInAt) : TEXT.never}</td>
                <td data-label={TEXT.actions}>
                  <button type="button" class="button button-small" onClick={() => setRemoving(identity)} aria-label={TEXT.removeLabel(identity.displayName)}>
                    {TEXT.remove}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog open={removing !== null} title={TEXT.removeTitle} confirmLabel={TEXT.removeConfirm} danger onConfirm={() => (removing ? remove(removing) : Promise.resolve())} onClose={() => setRemoving(null)}>
        <p>{removing ? TEXT.removeBody(removing.displayName) : ''}</p>
      </ConfirmDialog>
    </section>
  );
}
