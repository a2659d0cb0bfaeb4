import { useEffect, useState } from 'preact/hooks';
import { signInWithPasskey } from '../session.ts';

const TEXT = {
  button: 'Use a passkey',
  busy: 'Waiting for your passkey…',
  failed: 'Your passkey did not sign you in. Try again, or use your account and password.',
};

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
          {TEXT.failed}
        </div>
      )}
      <button type="button" class="button" disabled={disabled || busy} onClick={() => void start()}>
        {busy ? TEXT.busy : TEXT.button}
      </button>
    </div>
  );
}
