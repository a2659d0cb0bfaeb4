import type { ApiError } from '../api/client.ts';
import { t } from '../i18n.ts';

/** The error of a whole form or action; field problems are shown next to their fields instead. */
export function FormError({ error, fieldsShown = false }: { error: ApiError | undefined | null; fieldsShown?: boolean }) {
  if (!error) return null;
  const hasFieldErrors = Object.keys(error.fieldErrors).length > 0;
  return (
    <div class="alert alert-error" role="alert">
      {/* Left unproven (the dialog was cancelled): say it in the console's language and how to go on. */}
      <p>{error.code === 'reauthentication_required' ? t('console.reauthenticate.needed') : error.message}</p>
      {hasFieldErrors && fieldsShown && <p>{t('console.fieldsBelow')}</p>}
      {hasFieldErrors && !fieldsShown && (
        <ul>
          {Object.entries(error.fieldErrors).map(([field, message]) => (
            <li key={field}>
              <code>{field}</code>: {message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
