import type { Change } from '../changes.ts';
import type { FieldClash } from '../use-versioned-editor.ts';

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
export function ConflictNotice({ subject, changes, clashes, onReapply, onDiscard, busy = false, reapplyLabel = 'Apply my changes to the latest version' }: ConflictNoticeProps) {
  return (
    <div class="alert alert-warning conflict" role="alert">
      <h3>Someone else changed {subject} while you were editing</h3>
      {changes.length > 0 ? (
        <>
          <p>Your save was not applied. This is what changed meanwhile:</p>
          <div class="table-scroll">
            <table class="conflict-table">
              <caption class="visually-hidden">Changes made meanwhile</caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">When you started</th>
                  <th scope="col">Now</th>
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
        <p>Your save was not applied: a newer version exists, though none of the fields shown here differ.</p>
      )}
      {clashes === undefined ? (
        <p>Your edit is still in the form. Apply it on top of the latest version, or discard it and start from the latest version.</p>
      ) : (
        <>
          {clashes.length > 0 && (
            <div class="conflict-clashes">
              <p>
                <strong>You both changed {clashes.length === 1 ? 'this field' : 'these fields'}.</strong> The form holds your value; applying replaces theirs
                with it.
              </p>
              <ul>
                {clashes.map((clash) => (
                  <li key={clash.label}>
                    {clash.label}: theirs “{clash.theirs}”, yours “{clash.mine}”
                  </li>
                ))}
              </ul>
            </div>
          )}
          <p>
            The form now holds the latest version with only the fields you changed on top. Apply your changes to it, or discard them and start from the
            latest version.
          </p>
        </>
      )}
      <div class="actions">
        <button type="button" class="button button-primary" onClick={onReapply} disabled={busy}>
          {reapplyLabel}
        </button>
        <button type="button" class="button" onClick={onDiscard} disabled={busy}>
          Discard my changes
        </button>
      </div>
    </div>
  );
}
