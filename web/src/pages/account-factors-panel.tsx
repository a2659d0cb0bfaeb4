import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { Factor } from '../api/types.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { Time } from '../components/time.tsx';
import { useSession } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { AddAuthenticatorDialog } from './add-authenticator-dialog.tsx';
import { AddPasskeyDialog } from './add-passkey-dialog.tsx';
import { RecoveryCodesDialog } from './recovery-codes-dialog.tsx';
import { RemoveFactorDialog } from './remove-factor-dialog.tsx';
import { t } from '../i18n.ts';
import { factorName } from '../factor-name.ts';

/** The page's text, read from the catalogues (src/i18n) in the console's language each time it is used. */
const TEXT = {
  get title() {
    return t('console.accountFactors.title');
  },
  get intro() {
    return t('console.accountFactors.intro');
  },
  get required() {
    return t('console.accountFactors.required');
  },
  get enrolmentRequired() {
    return t('console.accountFactors.enrolmentRequired');
  },
  get signInAgain() {
    return t('console.accountFactors.signInAgain');
  },
  get none() {
    return t('console.accountFactors.none');
  },
  get caption() {
    return t('console.accountFactors.caption');
  },
  get name() {
    return t('console.accountFactors.name');
  },
  get type() {
    return t('console.accountFactors.type');
  },
  get added() {
    return t('console.accountFactors.added');
  },
  get lastUsed() {
    return t('console.accountFactors.lastUsed');
  },
  get never() {
    return t('console.accountFactors.never');
  },
  get actions() {
    return t('console.accountFactors.actions');
  },
  types: {
    get totp() {
      return t('console.accountFactors.types.totp');
    },
    get passkey() {
      return t('console.accountFactors.types.passkey');
    },
    get recovery_codes() {
      return t('console.accountFactors.types.recovery_codes');
    },
  },
  get addAuthenticator() {
    return t('console.accountFactors.addAuthenticator');
  },
  get addPasskey() {
    return t('console.accountFactors.addPasskey');
  },
  get noPasskeys() {
    return t('console.accountFactors.noPasskeys');
  },
  get remove() {
    return t('console.accountFactors.remove');
  },
  removeLabel: (name: string) => t('console.accountFactors.removeLabel', { name }),
  get newCodesLabel() {
    return t('console.accountFactors.newCodesLabel');
  },
  get newCodesTitle() {
    return t('console.accountFactors.newCodesTitle');
  },
  get newCodesBody() {
    return t('console.accountFactors.newCodesBody');
  },
  added_: (name: string) => t('console.accountFactors.added_', { name }),
  removed: (name: string) => t('console.accountFactors.removed', { name }),
  get codesReplaced() {
    return t('console.accountFactors.codesReplaced');
  },
  get loading() {
    return t('console.accountFactors.loading');
  },
};

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
      <LoadState resource={factors} what={TEXT.loading} />
      {session.enrolmentRequired && (
        <div class="alert alert-warning">
          <p>{authenticators.length === 0 ? TEXT.enrolmentRequired : TEXT.signInAgain}</p>
        </div>
      )}
      {!session.enrolmentRequired && factors.data?.mfaRequired && authenticators.length === 0 && (
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
                  {factorName(factor)}
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
                    <button type="button" class="button button-small" onClick={() => setRemoving(factor)} aria-label={TEXT.removeLabel(factorName(factor))}>
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
          setNotice(TEXT.removed(factorName(factor)));
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
