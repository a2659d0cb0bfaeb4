import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { Factor } from '../api/types.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { DataTable } from '../components/data-table.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { Time } from '../components/time.tsx';
import { RowButton } from '../components/row-button.tsx';
import { useSession } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { AddAuthenticatorDialog } from './add-authenticator-dialog.tsx';
import { AddPasskeyDialog } from './add-passkey-dialog.tsx';
import { RecoveryCodesDialog } from './recovery-codes-dialog.tsx';
import { RemoveFactorDialog } from './remove-factor-dialog.tsx';
import { t } from '../i18n.ts';
import { factorName } from '../factor-name.ts';

const TYPE_KEYS = { totp: 'console.accountFactors.types.totp', passkey: 'console.accountFactors.types.passkey', recovery_codes: 'console.accountFactors.types.recovery_codes' } as const;

const AUTHENTICATOR_TYPES = new Set<Factor['type']>(['totp', 'passkey']);

export function AccountFactorsPanel() {
  const session = useSession();
  const { user } = session;
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
    setNotice(t('console.accountFactors.added_', { name: factor.name }));
    if (recoveryCodes) setCodes(recoveryCodes);
    void factors.reload();
  };
  const newCodes = async () => {
    const result = await unwrap(api.POST('/account/recovery-codes'));
    setConfirmingCodes(false);
    setCodes(result.recoveryCodes);
    setNotice(t('console.accountFactors.codesReplaced'));
    await factors.reload();
  };

  return (
    <section>
      <PanelHeader
        title={t('console.accountFactors.title')}
        actions={
          <>
            {passkeysWork && (
              <button type="button" class="button button-primary" onClick={() => setAdding('passkey')}>
                {t('console.accountFactors.addPasskey')}
              </button>
            )}
            <button type="button" class={passkeysWork ? 'button' : 'button button-primary'} onClick={() => setAdding('totp')}>
              {t('console.accountFactors.addAuthenticator')}
            </button>
          </>
        }
      >
        <p class="muted">{t('console.accountFactors.intro')}</p>
        {!passkeysWork && <p class="small muted">{t('console.accountFactors.noPasskeys')}</p>}
      </PanelHeader>
      <p class="small success-text" role="status">
        {notice}
      </p>
      <LoadState resource={factors} what={t('console.accountFactors.loading')} />
      {session.enrolmentRequired && (
        <div class="alert alert-warning">
          <p>{authenticators.length === 0 ? t('console.accountFactors.enrolmentRequired') : t('console.accountFactors.signInAgain')}</p>
        </div>
      )}
      {!session.enrolmentRequired && factors.data?.mfaRequired && authenticators.length === 0 && (
        <div class="alert alert-warning">
          <p>{t('console.accountFactors.required')}</p>
        </div>
      )}
      {factors.data && list.length === 0 && <p class="muted">{t('console.accountFactors.none')}</p>}
      {list.length > 0 && (
        <DataTable caption={t('console.accountFactors.caption')} columns={[t('console.accountFactors.name'), t('console.accountFactors.type'), t('console.accountFactors.added'), t('console.accountFactors.lastUsed')]} actions={t('console.accountFactors.actions')}>
          {list.map((factor) => (
            <tr key={factor.factorId}>
              <th scope="row" data-label={t('console.accountFactors.name')}>
                {factorName(factor)}
              </th>
              <td data-label={t('console.accountFactors.type')}>
                <Badge tone={factor.type === 'recovery_codes' ? 'neutral' : 'success'}>{t(TYPE_KEYS[factor.type])}</Badge>
              </td>
              <td data-label={t('console.accountFactors.added')}>
                <Time value={factor.createdAt} />
              </td>
              <td data-label={t('console.accountFactors.lastUsed')}>
                <Time value={factor.lastUsedAt} empty={t('console.accountFactors.never')} />
              </td>
              <td data-label={t('console.accountFactors.actions')}>
                <div class="actions">
                  {factor.type === 'recovery_codes' && (
                    <button type="button" class="button button-small" onClick={() => setConfirmingCodes(true)}>
                      {t('console.accountFactors.newCodesLabel')}
                    </button>
                  )}
                  <RowButton onClick={() => setRemoving(factor)} label={t('console.accountFactors.removeLabel', { name: factorName(factor) })}>
                    {t('console.accountFactors.remove')}
                  </RowButton>
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      )}

      <AddAuthenticatorDialog open={adding === 'totp'} onClose={() => setAdding(null)} onAdded={added} />
      <AddPasskeyDialog open={adding === 'passkey'} onClose={() => setAdding(null)} onAdded={added} />
      <RemoveFactorDialog
        factor={removing}
        last={removing !== null && authenticators.length === 1 && authenticators[0]?.factorId === removing.factorId}
        onClose={() => setRemoving(null)}
        onRemoved={(factor) => {
          setNotice(t('console.accountFactors.removed', { name: factorName(factor) }));
          void factors.reload();
        }}
      />
      <ConfirmDialog open={confirmingCodes} title={t('console.accountFactors.newCodesTitle')} confirmLabel={t('console.accountFactors.newCodesLabel')} onConfirm={newCodes} onClose={() => setConfirmingCodes(false)}>
        <p>{t('console.accountFactors.newCodesBody')}</p>
      </ConfirmDialog>
      <RecoveryCodesDialog codes={codes} account={user?.account ?? ''} onClose={() => setCodes(null)} />
    </section>
  );
}
