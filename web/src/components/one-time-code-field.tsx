import { useLayoutEffect, useRef } from 'preact/hooks';
import { Field } from './field.tsx';

interface OneTimeCodeFieldProps {
  label: string;
  hint: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  error?: string | undefined;
  /** Take focus when shown: the field appears after the person's last action, in place of nothing. */
  focusOnMount?: boolean;
}

/** A code from an authenticator app (or a recovery code): digits on phones, the browser's one-time-code autofill. */
export function OneTimeCodeField({ label, hint, name, value, onValue, error, focusOnMount = false }: OneTimeCodeFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  // Before the browser paints: the field never shows without the focus its appearance promises.
  useLayoutEffect(() => {
    if (focusOnMount) input.current?.focus();
  }, []);
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => (
        <input
          ref={input}
          {...control}
          name={name}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellcheck={false}
          maxLength={64}
          value={value}
          onInput={(e) => onValue(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}
