import { useState } from 'preact/hooks';
import type { ApiError } from './api/client.ts';
import { toApiError } from './use-resource.ts';

export interface Submission {
  busy: boolean;
  /** The last failure, in the API's shape (code, message, fieldErrors), until the next attempt or close. */
  error: ApiError | undefined;
  fieldErrors: Record<string, string>;
  clearError: () => void;
  /** For a dialog: forgets what was typed (`reset`) and the error, then closes. */
  close: () => void;
  /**
   * A form's submit handler (or a button's click handler): runs `action` while busy; a failure stays
   * shown, and `onFailure` runs (to empty a password field, say).
   */
  submit: (action: () => Promise<void>, onFailure?: () => void) => (event?: Event) => Promise<void>;
}

/** The busy, error and close state every console dialog and form that sends something keeps. */
export function useSubmit(onClose: () => void = () => {}, reset: () => void = () => {}): Submission {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);

  return {
    busy,
    error,
    fieldErrors: error?.fieldErrors ?? {},
    clearError: () => setError(undefined),
    close: () => {
      reset();
      setError(undefined);
      onClose();
    },
    submit: (action, onFailure) => async (event) => {
      event?.preventDefault();
      setBusy(true);
      setError(undefined);
      try {
        await action();
      } catch (caught) {
        setError(toApiError(caught));
        onFailure?.();
      } finally {
        setBusy(false);
      }
    },
  };
}
