import { useEffect, useState } from 'preact/hooks';
import type { ApiError } from '../api/client.ts';
import { FormError } from '../components/form-error.tsx';
import { TextField } from '../components/field.tsx';
import { OneTimeCodeField } from '../components/one-time-code-field.tsx';
import { navigate, safeNextPath, useLocation } from '../router.ts';
import { signIn, useSession } from '../session.ts';
import { PasskeySignIn } from './passkey-sign-in.tsx';
import { toApiError } from '../use-resource.ts';
import { LanguageSwitcher } from '../components/language-switcher.tsx';
import { currentLocale, t, useLocale } from '../i18n.ts';

/** The page's text, read from the catalogues (src/i18n) in the console's language each time it is used. */
const TEXT = {
  get code() {
    return t('console.signInCode.code');
  },
  get codeHint() {
    return t('console.signInCode.codeHint');
  },
  get codeNeeded() {
    return t('console.signInCode.codeNeeded');
  },
};

export function SignInPage() {
  const session = useSession();
  const location = useLocation();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const next = safeNextPath(location.query.get('next'));

  const locale = useLocale();
  useEffect(() => {
    document.title = t('console.signIn.documentTitle');
  }, [locale]);

  useEffect(() => {
    if (session.status === 'signed-in') navigate(next, { replace: true });
  }, [session.status, next]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(account.trim(), password, needsCode ? otp.replace(/\s/g, '') : undefined);
      navigate(next, { replace: true });
    } catch (caught) {
      const apiError = toApiError(caught);
      setOtp('');
      // The password was right; the code is what is missing: keep the password and ask for it.
      if (apiError.code === 'mfa_required') {
        setNeedsCode(true);
        return;
      }
      setError(apiError);
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  const fieldErrors = error?.fieldErrors ?? {};
  return (
    <div class="auth-page">
      <main class="auth-card" id="main">
        <p class="auth-brand">Sesame</p>
        <h1 tabIndex={-1} data-route-focus>
          {t('console.signIn.title')}
        </h1>
        {session.notice && !error && !needsCode && (
          <div class="alert alert-info" role="status">
            {session.notice}
          </div>
        )}
        <FormError error={error} fieldsShown />
        <form onSubmit={submit} noValidate>
          <TextField
            label={t('console.signIn.account')}
            name="account"
            autoComplete="username"
            autoCapitalize="none"
            spellcheck={false}
            required
            value={account}
            onValue={setAccount}
            error={fieldErrors.account}
          />
          <TextField
            label={t('console.signIn.password')}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onValue={setPassword}
            error={fieldErrors.password}
          />
          {needsCode && (
            <>
              <div class="alert alert-info" role="status">
                {TEXT.codeNeeded}
              </div>
              <OneTimeCodeField label={TEXT.code} hint={TEXT.codeHint} name="otp" value={otp} onValue={setOtp} error={fieldErrors.otp} focusOnMount />
            </>
          )}
          <button type="submit" class="button button-primary" disabled={busy || session.status === 'loading'}>
            {busy ? t('console.signIn.busy') : t('console.signIn.submit')}
          </button>
        </form>
        <PasskeySignIn disabled={busy || session.status === 'loading'} onSignedIn={() => navigate(next, { replace: true })} />
        <p class="secondary-action">
          <a href={currentLocale() === 'en' ? '/account/forgot' : `/account/forgot?lang=${currentLocale()}`}>{t('console.signIn.forgot')}</a>
        </p>
        <LanguageSwitcher signedIn={false} />
      </main>
    </div>
  );
}
