import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../api/client.ts';
import { FormError } from '../components/form-error.tsx';
import { TextField } from '../components/field.tsx';
import { OneTimeCodeField } from '../components/one-time-code-field.tsx';
import { navigate, safeNextPath, useLocation } from '../router.ts';
import { afterSignIn, finishUpstreamSignIn, signIn, startUpstreamSignIn, useSession } from '../session.ts';
import { PasskeySignIn } from './passkey-sign-in.tsx';
import { toApiError } from '../use-resource.ts';
import { LanguageSwitcher } from '../components/language-switcher.tsx';
import { currentLocale, t, useLocale } from '../i18n.ts';


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
  // Back from an upstream provider (`?upstream={name}`): finish that sign-in, with a one-time code if the person has a factor.
  const upstream = location.query.get('upstream');
  const [upstreamStep, setUpstreamStep] = useState<'none' | 'finishing' | 'code'>(upstream ? 'finishing' : 'none');
  const finishStarted = useRef(false);
  const upstreamName = session.signInProviders.find((provider) => provider.name === upstream)?.displayName ?? upstream ?? '';

  const locale = useLocale();
  useEffect(() => {
    document.title = t('console.signIn.documentTitle');
  }, [locale]);

  useEffect(() => {
    if (session.status === 'signed-in') navigate(afterSignIn(next), { replace: true });
  }, [session.status, next]);

  useEffect(() => {
    if (upstreamStep !== 'finishing' || session.status !== 'signed-out' || finishStarted.current) return;
    finishStarted.current = true;
    void finishUpstream();
  }, [upstreamStep, session.status]);

  const finishUpstream = async (code?: string) => {
    setBusy(true);
    setError(undefined);
    try {
      await finishUpstreamSignIn(code);
      navigate(afterSignIn(next), { replace: true });
    } catch (caught) {
      const apiError = toApiError(caught);
      setOtp('');
      setUpstreamStep(apiError.code === 'mfa_required' || upstreamStep === 'code' ? 'code' : 'none');
      if (apiError.code !== 'mfa_required') setError(apiError);
    } finally {
      setBusy(false);
    }
  };

  const continueWith = async (name: string) => {
    setBusy(true);
    setError(undefined);
    try {
      await startUpstreamSignIn(name, next);
    } catch (caught) {
      setError(toApiError(caught));
      setBusy(false);
    }
  };

  /** Leaves an upstream sign-in that did not finish for the other ways in. */
  const otherWays = () => {
    setUpstreamStep('none');
    setError(undefined);
    navigate(next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`, { replace: true });
  };

  const submitUpstreamCode = (event: Event) => {
    event.preventDefault();
    void finishUpstream(otp.replace(/\s/g, ''));
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(account.trim(), password, needsCode ? otp.replace(/\s/g, '') : undefined);
      navigate(afterSignIn(next), { replace: true });
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
        {upstreamStep === 'finishing' && (
          <p class="muted" role="status">
            {t('console.signIn.upstreamFinishing', { provider: upstreamName })}
          </p>
        )}
        {upstreamStep === 'code' && (
          <form onSubmit={submitUpstreamCode} noValidate>
            <CodeNeeded otp={otp} onOtp={setOtp} error={fieldErrors.otp} />
            <div class="actions">
              <button type="submit" class="button button-primary" disabled={busy}>
                {busy ? t('console.signIn.busy') : t('console.signIn.submit')}
              </button>
              <button type="button" class="button" onClick={otherWays} disabled={busy}>
                {t('console.signIn.otherWays')}
              </button>
            </div>
          </form>
        )}
        {upstreamStep === 'none' && (
          <>
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
              {needsCode && <CodeNeeded otp={otp} onOtp={setOtp} error={fieldErrors.otp} />}
              <button type="submit" class="button button-primary" disabled={busy || session.status === 'loading'}>
                {busy ? t('console.signIn.busy') : t('console.signIn.submit')}
              </button>
            </form>
            <PasskeySignIn disabled={busy || session.status === 'loading'} onSignedIn={() => navigate(afterSignIn(next), { replace: true })} />
            {session.signInProviders.length > 0 && (
              <section class="upstream-sign-in stack" aria-labelledby="upstream-heading">
                <p id="upstream-heading" class="upstream-heading">
                  {t('login.otherWays')}
                </p>
                {session.signInProviders.map((provider) => (
                  <button key={provider.name} type="button" class="button upstream-button" disabled={busy || session.status === 'loading'} onClick={() => void continueWith(provider.name)}>
                    {t('login.continueWith', { provider: provider.displayName })}
                  </button>
                ))}
              </section>
            )}
          </>
        )}
        <p class="secondary-action">
          <a href={currentLocale() === 'en' ? '/account/forgot' : `/account/forgot?lang=${currentLocale()}`}>{t('console.signIn.forgot')}</a>
        </p>
        <LanguageSwitcher signedIn={false} />
      </main>
    </div>
  );
}

/** The second step of a sign-in whose first was right: why a code is asked for, and its field. */
function CodeNeeded({ otp, onOtp, error }: { otp: string; onOtp: (value: string) => void; error: string | undefined }) {
  return (
    <>
      <div class="alert alert-info" role="status">
        {t('console.signInCode.codeNeeded')}
      </div>
      <OneTimeCodeField label={t('console.signInCode.code')} hint={t('console.signInCode.codeHint')} name="otp" value={otp} onValue={onOtp} error={error} focusOnMount />
    </>
  );
}
