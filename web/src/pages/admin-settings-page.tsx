import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, unwrap } from '../api/client.ts';
import { FormError } from '../components/form-error.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { t } from '../i18n.ts';
import { toApiError, useResource } from '../use-resource.ts';
import { useSubmit } from '../use-submit.ts';

const POLICIES = ['none', 'admins', 'everyone'] as const;
type Policy = (typeof POLICIES)[number];
const POLICY_KEYS = {
  none: ['console.policy.none', 'console.policy.noneHint'],
  admins: ['console.policy.admins', 'console.policy.adminsHint'],
  everyone: ['console.policy.everyone', 'console.policy.everyoneHint'],
} as const satisfies Record<Policy, readonly [string, string]>;

/** The second-factor policy: who must sign in with a second factor. A change made meanwhile is shown, and the choice kept to save again. */
export function AdminSettingsPage() {
  const settings = useResource('admin-settings', () => unwrap(api.GET('/admin/settings')).then((r) => r.settings));
  const [choice, setChoice] = useState<Policy>('none');
  const { busy, error, submit } = useSubmit();
  const [notice, setNotice] = useState('');
  const [shownVersion, setShownVersion] = useState<number | null>(null);
  useEffect(() => {
    // The first load sets the choice; a newer version after a conflict leaves the person's choice alone.
    if (settings.data && shownVersion === null) setChoice(settings.data.mfaRequired);
    if (settings.data) setShownVersion(settings.data.version);
  }, [settings.data?.version]);

  const save = submit(async () => {
    if (!settings.data) return;
    setNotice('');
    try {
      const { settings: saved } = await unwrap(api.PATCH('/admin/settings', { body: { mfaRequired: choice, expectedSettingsVersion: settings.data.version } }));
      settings.set(saved);
      setNotice(t('console.policy.saved'));
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.code !== 'version_conflict') throw apiError;
      const latest = await settings.reload();
      setNotice('');
      // The person's choice stays selected, to save again on the latest version once they have seen the other change.
      throw new ApiError(apiError.status, apiError.code, t('console.policy.conflict', { policy: latest ? t(POLICY_KEYS[latest.mfaRequired][0]) : '' }));
    }
  });

  return (
    <>
      <PageHeader title={t('console.policy.title')}>
        <p class="muted">{t('console.policy.intro')}</p>
      </PageHeader>
      <LoadState resource={settings} what={t('console.policy.title')} />
      {settings.data && (
        <form class="card section-card" onSubmit={save} noValidate>
          <FormError error={error} />
          <fieldset class="choice-list">
            <legend>{t('console.policy.legend')}</legend>
            {POLICIES.map((policy) => (
              <div class="check" key={policy}>
                <input type="radio" name="mfa-policy" id={`mfa-policy-${policy}`} value={policy} checked={choice === policy} onChange={() => setChoice(policy)} aria-describedby={`mfa-policy-${policy}-hint`} />
                <label for={`mfa-policy-${policy}`}>
                  {t(POLICY_KEYS[policy][0])}
                  <span class="block small muted" id={`mfa-policy-${policy}-hint`}>
                    {t(POLICY_KEYS[policy][1])}
                  </span>
                </label>
              </div>
            ))}
          </fieldset>
          <p class="small muted">{t('console.policy.when')}</p>
          <div class="actions form-actions">
            <button type="submit" class="button button-primary" disabled={busy || choice === settings.data.mfaRequired}>
              {t(busy ? 'console.common.saving' : 'console.policy.save')}
            </button>
          </div>
          <p class="small success-text" role="status">
            {notice}
          </p>
        </form>
      )}
    </>
  );
}
