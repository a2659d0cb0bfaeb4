import type { Change } from '../changes.ts';
import type { FieldClash } from '../use-versioned-editor.ts';
import { t } from '../i18n.ts';

interface ConflictNoticeProps {
  /** What was being edited, e.g. "this client" or "the project". */
  subject: string;
  changes: Change[];
  /** Given for an edit merged onto the latest version: the fields both sides changed. */
  clashes?: FieldClash[];
  onReapply: () => void;
  onDiscard: () => void;
  busy?: boolean;
  reapplyLabel?: string;
}

/**
 * Shown after a save met 409 version_conflict: what someone else changed meanwhile,
 * with the choice to put one's own edit on top of the fresh version or to drop it.
 */
export function ConflictNotice({ subject, changes, clashes, onReapply, onDiscard, busy = false, reapplyLabel = t('console.conflict.reapply') }: ConflictNoticeProps) {
  return (
    <div class="alert alert-warning conflict" role="alert">
      <h3>{t('console.conflict.title', { subject })}</h3>
      {changes.length > 0 ? (
        <>
          <p>{t('console.conflict.notApplied')}</p>
          <div class="table-scroll">
            <table class="conflict-table">
              <caption class="visually-hidden">{t('console.conflict.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('console.conflict.field')}</th>
                  <th scope="col">{t('console.conflict.before')}</th>
                  <th scope="col">{t('console.conflict.now')}</th>
                </tr>
              </thead>
              <tbody>
                {changes.map((change) => (
                  <tr key={change.label}>
                    <th scope="row">{change.label}</th>
                    <td>{change.before}</td>
                    <td>{change.after}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <p>{t('console.conflict.noVisibleChange')}</p>
      )}
      {clashes === undefined ? (
        <p>{t('console.conflict.stillInForm')}</p>
      ) : (
        <>
          {clashes.length > 0 && (
            <div class="conflict-clashes">
              <p>
                <strong>{t(clashes.length === 1 ? 'console.conflict.bothChangedOne' : 'console.conflict.bothChangedMany')}</strong> {t('console.conflict.formHoldsYours')}
              </p>
              <ul>
                {clashes.map((clash) => (
                  <li key={clash.label}>
                    {t('console.conflict.clash', { field: clash.label, theirs: clash.theirs, mine: clash.mine })}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <p>
            {t('console.conflict.merged')}
          </p>
        </>
      )}
      <div class="actions">
        <button type="button" class="button button-primary" onClick={onReapply} disabled={busy}>
          {reapplyLabel}
        </button>
        <button type="button" class="button" onClick={onDiscard} disabled={busy}>
          {t('console.conflict.discard')}
        </button>
      </div>
    </div>
  );
}
