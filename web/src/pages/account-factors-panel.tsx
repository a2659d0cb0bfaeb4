import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { Factor } from '../api/types.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { LoadError, Loading } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { Time } from '../components/time.tsx';
import { useSession } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { AddAuthenticatorDialog } from './add-authenticator-dialog.tsx';
import { AddPasskeyDialog } from './add-passkey-dialog.tsx';
import { RecoveryCodesDialog } from './recovery-codes-dialog.tsx';
import { RemoveFactorDialog } from './remove-factor-dialog.tsx';

const TEXT = {
  title: 'Second factors',
  intro: 'A second factor keeps your account safe when someone learns your password: after the password, Sesame also asks for a code from your authenticator app or a passkey.',
  required: 'Your organisation requires a second factor. Add an authenticator app or a passkey now; until you do, Sesame asks you to add one at your next sign-in.',
  none: 'You sign in with your password alone.',
  caption: 'My second factors',
  name: 'Name',
  type: 'Type',
  added: 'Added',
  lastUsed: 'Last used',
  never: 'never',
  actions: 'Actions',
  types: { totp: 'authenticator app', passkey: 'passkey', recovery_codes: 'recovery codes' },
  addAuthenticator: 'Add an authenticator app',
  addPasskey: 'Add a passkey',
  noPasskeys: 'This browser cannot make passkeys; an authenticator app works everywhere.',
  remove: 'Remove',
  removeLabel: (name: string) => `Remove ${name}`,
  newCodesLabel: 'Make new recovery codes',
  newCodesTitle: 'Make new recovery codes?',
  newCodesBody: 'Sesame makes ten new codes and shows them once. Your current recovery codes stop working at once.',
  added_: (name: string) => `Added ${name}.`,
  removed: (name: string) => `Removed ${name}.`,
  codesReplaced: 'New recovery codes are made; the old ones no longer work.',
  loading: 'your second factors',
} as const;

const AUTHENTICATOR_TYPES = new Set<Factor['type']>(['totp', 'passkey']);

export function AccountFactorsPanel() {
  const { user } = useSession();
  const factors = useResource('account-factors', () => unwrap(api.GET('/account/factors')));
  const [adding, setAdding] = useState<'totp' | 'passkey' | null>(null);
  const [passkeysWork] = useState(browserSupportsWebAuthn);
  const [removing, setRemoving] = useState<Factor | null>(null);
  const [confirmingCodes, setConfirmingCodes] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [notice, setNotice] = useState('');

  const list = factors.data?.factors ?? [];
  const authenticators = list.filter((factor) => AUTHENTICATOR_TYPES.has(factor.type));
  const added = (factor: Factor, recoveryCodes: string[] | undefined) => {
    // Closing the add dialog in the same render that opens the codes, so focus moves in order.
    setAdding(null);
    setNotice(TEXT.added_(factor.name));
    if (recoveryCodes) setCodes(recoveryCodes);
    void factors.reload();
  };
  const newCodes = async () => {
    const result = await unwrap(api.POST('/account/recovery-codes'));
    setConfirmingCodes(false);
    setCodes(result.recoveryCodes);
    setNotice(TEXT.codesReplaced);
    await factors.reload();
  };

  return (
    <section>
      <PanelHeader
        title={TEXT.title}
        actions={
          <>
            {passkeysWork && (
              <button type="button" class="button button-primary" onClick={() => setAdding('passkey')}>
                {TEXT.addPasskey}
              </button>
            )}
            <button type="button" class={passkeysWork ? 'button' : 'button button-primary'} onClick={() => setAdding('totp')}>
              {TEXT.addAuthenticator}
            </button>
          </>
        }
      >
        <p class="muted">{TEXT.intro}</p>
        {!passkeysWork && <p class="small muted">{TEXT.noPasskeys}</p>}
      </PanelHeader>
      <p class="small success-text" role="status">
        {notice}
      </p>
      {factors.error && <LoadError error={factors.error} onRetry={() => void factors.reload()} />}
      {!factors.data && !factors.error && <Loading what={TEXT.loading} />}
      {factors.data?.mfaRequired && authenticators.length === 0 && (
        <div class="alert alert-warning">
          <p>{TEXT.required}</p>
        </div>
      )}
      {factors.data && list.length === 0 && <p class="muted">{TEXT.none}</p>}
      {list.length > 0 && (
        <table class="data-table">
          <caption class="visually-hidden">{TEXT.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{TEXT.name}</th>
              <th scope="col">{TEXT.type}</th>
              <th scope="col">{TEXT.added}</th>
              <th scope="col">{TEXT.lastUsed}</th>
              <th scope="col">
                <span class="visually-hidden">{TEXT.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((factor) => (
              <tr key={factor.factorId}>
                <th scope="row" data-label={TEXT.name}>
                  {factor.name}
                </th>
                <td data-label={TEXT.type}>
                  <Badge tone={factor.type === 'recovery_codes' ? 'neutral' : 'success'}>{TEXT.types[factor.type]}</Badge>
                </td>
                <td data-label={TEXT.added}>
                  <Time value={factor.createdAt} />
                </td>
                <td data-label={TEXT.lastUsed}>
                  <Time value={factor.lastUsedAt} empty={TEXT.never} />
                </td>
                <td data-label={TEXT.actions}>
                  <div class="actions">
                    {factor.type === 'recovery_codes' && (
                      <button type="button" class="button button-small" onClick={() => setConfirmingCodes(true)}>
                        {TEXT.newCodesLabel}
                      </button>
                    )}
                    <button type="button" class="button button-small" onClick={() => setRemoving(factor)} aria-label={TEXT.removeLabel(factor.name)}>
                      {TEXT.remove}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <AddAuthenticatorDialog open={adding === 'totp'} onClose={() => setAdding(null)} onAdded={added} />
      <AddPasskeyDialog open={adding === 'passkey'} onClose={() => setAdding(null)} onAdded={added} />
      <RemoveFactorDialog
        factor={removing}
        last={removing !== null && authenticators.length === 1 && authenticators[0]?.factorId === removing.factorId}
        onClose={() => setRemoving(null)}
        onRemoved={(factor) => {
          setNotice(TEXT.removed(factor.name));
          void factors.reload();
        }}
      />
      <ConfirmDialog open={confirmingCodes} title={TEXT.newCodesTitle} confirmLabel={TEXT.newCodesLabel} onConfirm={newCodes} onClose={() => setConfirmingCodes(false)}>
        <p>{TEXT.newCodesBody}</p>
      </ConfirmDialog>
      <RecoveryCodesDialog codes={codes} account={user?.account ?? ''} onClose={() => setCodes(null)} />
    </section>
  );
}
