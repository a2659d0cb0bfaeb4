import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: 'true';
}

interface FieldProps {
  label: string;
  hint?: ComponentChildren;
  error?: string | undefined;
  children: (control: ControlProps) => ComponentChildren;
}

/** A labelled control with its hint and, right below it, its error; the control is told about both. */
export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children({ id, 'aria-describedby': describedBy, ...(error ? { 'aria-invalid': 'true' } : {}) })}
      {hint && (
        <p class="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

interface CommonProps {
  label: string;
  value: string;
  onValue: (value: string) => void;
  hint?: ComponentChildren;
  error?: string | undefined;
  name?: string;
  required?: boolean;
  placeholder?: string;
  autoComplete?: string;
  autoCapitalize?: 'none' | 'off' | 'on' | 'sentences' | 'words' | 'characters';
  spellcheck?: boolean;
  class?: string;
  /** The id of a <datalist> of suggestions. */
  list?: string;
}

export function TextField({ label, hint, error, value, onValue, type = 'text', ...rest }: CommonProps & { type?: 'text' | 'password' | 'email' }) {
  return (
    <Field label={label} hint={hint} error={error}>
      {/* Preact types each input type separately; the value is one of the three allowed. */}
      {(control) => <input type={type as 'text'} {...rest} {...control} value={value} onInput={(e) => onValue(e.currentTarget.value)} />}
    </Field>
  );
}

export function TextAreaField({ label, hint, error, value, onValue, ...rest }: CommonProps & { rows?: number }) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => <textarea {...rest} {...control} value={value} onInput={(e) => onValue(e.currentTarget.value)} />}
    </Field>
  );
}
