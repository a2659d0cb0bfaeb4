import { useEffect, useState } from 'preact/hooks';
import { signInWithPasskey } from '../session.ts';
import { t } from '../i18n.ts';


/** The console sign-in page's passkey button: shown only where the browser has WebAuthn. */
export function PasskeySignIn({ onSignedIn, disabled }: { onSignedIn: () => void; disabled: boolean }) {
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    setSupported(typeof window.PublicKeyCredential === 'function');
  }, []);

  if (!supported) return null;

  const start = async () => {
    setBusy(true);
    setFailed(false);
    try {
      await signInWithPasskey();
      onSignedIn();
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="passkey-sign-in">
      {failed && (
        <div class="alert alert-error" role="alert">
          {t('console.passkeySignIn.failed')}
        </div>
      )}
      <button type="button" class="button" disabled={disabled || busy} onClick={() => void start()}>
        {busy ? t('console.passkeySignIn.busy') : t('console.passkeySignIn.button')}
      </button>
    </div>
  );
}
