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

/** The page's text, read from the catalogues (src/i18n) in the console's language each time it is used. */
const TEXT = {
  get title() {
    return t('console.accountProfile.title');
  },
  get passwordTitle() {
    return t('console.accountProfile.passwordTitle');
  },
  get currentPassword() {
    return t('console.accountProfile.currentPassword');
  },
  get newPassword() {
    return t('console.accountProfile.newPassword');
  },
  get repeatPassword() {
    return t('console.accountProfile.repeatPassword');
  },
  get newPasswordHint() {
    return t('console.accountProfile.newPasswordHint', { min: PASSWORD_RULES.minLength, max: PASSWORD_RULES.maxLength });
  },
  get passwordsDiffer() {
    return t('console.accountProfile.passwordsDiffer');
  },
  get passwordNeeded() {
    return t('console.accountProfile.passwordNeeded');
  },
  get changePassword() {
    return t('console.accountProfile.changePassword');
  },
  get changingPassword() {
    return t('console.accountProfile.changingPassword');
  },
  get passwordChanged() {
    return t('console.accountProfile.passwordChanged');
  },
  get passwordExplainer() {
    return t('console.accountProfile.passwordExplainer');
  },
  get emailTitle() {
    return t('console.accountProfile.emailTitle');
  },
  get emailLabel() {
    return t('console.accountProfile.emailLabel');
  },
  get noEmail() {
    return t('console.accountProfile.noEmail');
  },
  get verified() {
    return t('console.accountProfile.verified');
  },
  get unverified() {
    return t('console.accountProfile.unverified');
  },
  get unverifiedHint() {
    return t('console.accountProfile.unverifiedHint');
  },
  get newEmail() {
    return t('console.accountProfile.newEmail');
  },
  get newEmailHint() {
    return t('console.accountProfile.newEmailHint');
  },
  get sendLink() {
    return t('console.accountProfile.sendLink');
  },
  get resendLink() {
    return t('console.accountProfile.resendLink');
  },
  get sending() {
    return t('console.accountProfile.sending');
  },
  get pendingLabel() {
    return t('console.accountProfile.pendingLabel');
  },
  get pendingHint() {
    return t('console.accountProfile.pendingHint');
  },
  linkSent: (email: string) => t('console.accountProfile.linkSent', { email }),
  alreadyVerified: (email: string) => t('console.accountProfile.alreadyVerified', { email }),
  get noMail() {
    return t('console.accountProfile.noMail');
  },
  get loading() {
    return t('console.accountProfile.loading');
  },
};

export function AccountProfilePanel() {
  return (
    <section>
      <PanelHeader title={TEXT.title} />
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
      ...(currentPassword === '' ? { currentPassword: TEXT.passwordNeeded } : {}),
      ...(newPassword !== repeated ? { repeated: TEXT.passwordsDiffer } : {}),
    };
    setLocalErrors(problems);
    if (Object.keys(problems).length === 0) void change();
  };

  return (
    <section class="card section-card" aria-labelledby="change-password-title">
      <h3 id="change-password-title">{TEXT.passwordTitle}</h3>
      <p class="small muted">{TEXT.passwordExplainer}</p>
      <div role="status">{done && <div class="alert alert-success">{TEXT.passwordChanged}</div>}</div>
      <FormError error={error} fieldsShown />
      <form onSubmit={submit} noValidate aria-label={TEXT.passwordTitle}>
        <TextField
          label={TEXT.currentPassword}
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          value={currentPassword}
          onValue={setCurrentPassword}
          error={localErrors.currentPassword ?? error?.fieldErrors.currentPassword}
        />
        <TextField
          label={TEXT.newPassword}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          value={newPassword}
          onValue={setNewPassword}
          hint={TEXT.newPasswordHint}
          error={error?.fieldErrors.newPassword}
        />
        <TextField
          label={TEXT.repeatPassword}
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
            {busy ? TEXT.changingPassword : TEXT.changePassword}
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
    setNotice(saved.pendingEmail !== null && saved.pendingEmail === target ? TEXT.linkSent(target) : TEXT.alreadyVerified(target));
    setEmail('');
  });

  const data = current.data;
  return (
    <section class="card section-card" aria-labelledby="my-email-title">
      <h3 id="my-email-title">{TEXT.emailTitle}</h3>
      <LoadState resource={current} what={TEXT.loading} />
      {data && (
        <>
          <dl class="facts">
            <div>
              <dt>{TEXT.emailLabel}</dt>
              <dd>
                {data.email ? <span>{data.email}</span> : <span class="muted">{TEXT.noEmail}</span>}{' '}
                {data.email && <Badge tone={data.emailVerified ? 'success' : 'warning'}>{data.emailVerified ? TEXT.verified : TEXT.unverified}</Badge>}
              </dd>
            </div>
            {data.pendingEmail && (
              <div>
                <dt>{TEXT.pendingLabel}</dt>
                <dd>
                  <span>{data.pendingEmail}</span>
                  <p class="small muted">{TEXT.pendingHint}</p>
                </dd>
              </div>
            )}
          </dl>
          {data.email && !data.emailVerified && <p class="small muted">{TEXT.unverifiedHint}</p>}
          <div role="status">{notice && <div class="alert alert-success">{notice}</div>}</div>
          {data.mailEnabled ? (
            <form class="account-email-form" onSubmit={submit} noValidate aria-label={TEXT.emailTitle}>
              <FormError error={error} fieldsShown />
              <TextField
                label={TEXT.newEmail}
                name="email"
                type="email"
                autoComplete="email"
                spellcheck={false}
                required
                value={email}
                onValue={setEmail}
                hint={TEXT.newEmailHint}
                error={error?.fieldErrors.email}
              />
              <div class="form-actions">
                <button type="submit" class="button button-primary" disabled={busy}>
                  {busy ? TEXT.sending : data.email && !data.emailVerified && email.trim() === '' ? TEXT.resendLink : TEXT.sendLink}
                </button>
              </div>
            </form>
          ) : (
            <div class="alert alert-info">
              <p>{TEXT.noMail}</p>
            </div>
          )}
        </>
      )}
    </section>
  );
}
