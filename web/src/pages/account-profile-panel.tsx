import { useState } from 'preact/hooks';
import { PASSWORD_RULES } from '../../../src/domain/passwords.ts';
import { api, unwrap } from '../api/client.ts';
import { Badge } from '../components/badge.tsx';
import { TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { useResource } from '../use-resource.ts';
import { useSubmit } from '../use-submit.ts';
import { t } from '../i18n.ts';


export function AccountProfilePanel() {
  return (
    <section>
      <PanelHeader title={t('console.accountProfile.title')} />
      <div class="settings-grid">
        <ChangePasswordSection />
        <EmailSection />
      </div>
    </section>
  );
}

function ChangePasswordSection() {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [localErrors, setLocalErrors] = useState<{ currentPassword?: string; repeated?: string }>({});
  const [done, setDone] = useState(false);
  const { busy, error, clearError, submit: send } = useSubmit();

  const change = send(async () => {
    await unwrap(api.POST('/account/password', { body: { currentPassword, newPassword } }));
    setCurrentPassword('');
    setNewPassword('');
    setRepeated('');
    setDone(true);
  });
  const submit = (event: Event) => {
    event.preventDefault();
    setDone(false);
    clearError();
    const problems = {
      ...(currentPassword === '' ? { currentPassword: t('console.accountProfile.passwordNeeded') } : {}),
      ...(newPassword !== repeated ? { repeated: t('console.accountProfile.passwordsDiffer') } : {}),
    };
    setLocalErrors(problems);
    if (Object.keys(problems).length === 0) void change();
  };

  return (
    <section class="card section-card" aria-labelledby="change-password-title">
      <h3 id="change-password-title">{t('console.accountProfile.passwordTitle')}</h3>
      <p class="small muted">{t('console.accountProfile.passwordExplainer')}</p>
      <div role="status">{done && <div class="alert alert-success">{t('console.accountProfile.passwordChanged')}</div>}</div>
      <FormError error={error} fieldsShown />
      <form onSubmit={submit} noValidate aria-label={t('console.accountProfile.passwordTitle')}>
        <TextField
          label={t('console.accountProfile.currentPassword')}
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          value={currentPassword}
          onValue={setCurrentPassword}
          error={localErrors.currentPassword ?? error?.fieldErrors.currentPassword}
        />
        <TextField
          label={t('console.accountProfile.newPassword')}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          value={newPassword}
          onValue={setNewPassword}
          hint={t('console.accountProfile.newPasswordHint', { min: PASSWORD_RULES.minLength, max: PASSWORD_RULES.maxLength })}
          error={error?.fieldErrors.newPassword}
        />
        <TextField
          label={t('console.accountProfile.repeatPassword')}
          name="repeatPassword"
          type="password"
          autoComplete="new-password"
          required
          value={repeated}
          onValue={setRepeated}
          error={localErrors.repeated}
        />
        <div class="form-actions">
          <button type="submit" class="button button-primary" disabled={busy}>
            {busy ? t('console.accountProfile.changingPassword') : t('console.accountProfile.changePassword')}
          </button>
        </div>
      </form>
    </section>
  );
}

function EmailSection() {
  const current = useResource('account-email', () => unwrap(api.GET('/account/email')));
  const [email, setEmail] = useState('');
  const [notice, setNotice] = useState('');
  const { busy, error, submit: send } = useSubmit();

  const submit = send(async () => {
    if (!current.data) return;
    setNotice('');
    // An empty field with an unverified address on file asks for a new link to that address.
    const target = email.trim() || (current.data.email && !current.data.emailVerified ? current.data.email : '');
    const saved = await unwrap(api.POST('/account/email', { body: { email: target } }));
    current.set({ ...current.data, email: saved.email, emailVerified: saved.emailVerified, pendingEmail: saved.pendingEmail });
    setNotice(saved.pendingEmail !== null && saved.pendingEmail === target ? t('console.accountProfile.linkSent', { email: target }) : t('console.accountProfile.alreadyVerified', { email: target }));
    setEmail('');
  });

  const data = current.data;
  return (
    <section class="card section-card" aria-labelledby="my-email-title">
      <h3 id="my-email-title">{t('console.accountProfile.emailTitle')}</h3>
      <LoadState resource={current} what={t('console.accountProfile.loading')} />
      {data && (
        <>
          <dl class="facts">
            <div>
              <dt>{t('console.accountProfile.emailLabel')}</dt>
              <dd>
                {data.email ? <span>{data.email}</span> : <span class="muted">{t('console.accountProfile.noEmail')}</span>}{' '}
                {data.email && <Badge tone={data.emailVerified ? 'success' : 'warning'}>{data.emailVerified ? t('console.accountProfile.verified') : t('console.accountProfile.unverified')}</Badge>}
              </dd>
            </div>
            {data.pendingEmail && (
              <div>
                <dt>{t('console.accountProfile.pendingLabel')}</dt>
                <dd>
                  <span>{data.pendingEmail}</span>
                  <p class="small muted">{t('console.accountProfile.pendingHint')}</p>
                </dd>
              </div>
            )}
          </dl>
          {data.email && !data.emailVerified && <p class="small muted">{t('console.accountProfile.unverifiedHint')}</p>}
          <div role="status">{notice && <div class="alert alert-success">{notice}</div>}</div>
          {data.mailEnabled ? (
            <form class="account-email-form" onSubmit={submit} noValidate aria-label={t('console.accountProfile.emailTitle')}>
              <FormError error={error} fieldsShown />
              <TextField
                label={t('console.accountProfile.newEmail')}
                name="email"
                type="email"
                autoComplete="email"
                spellcheck={false}
                required
                value={email}
                onValue={setEmail}
                hint={t('console.accountProfile.newEmailHint')}
                error={error?.fieldErrors.email}
              />
              <div class="form-actions">
                <button type="submit" class="button button-primary" disabled={busy}>
                  {busy ? t('console.accountProfile.sending') : data.email && !data.emailVerified && email.trim() === '' ? t('console.accountProfile.resendLink') : t('console.accountProfile.sendLink')}
                </button>
              </div>
            </form>
          ) : (
            <div class="alert alert-info">
              <p>{t('console.accountProfile.noMail')}</p>
            </div>
          )}
        </>
      )}
    </section>
  );
}
