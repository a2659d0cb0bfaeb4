import { useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import type { AdminUser } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { STUDENT_STATUSES, type StudentStatus } from '../../../src/domain/clients.ts';
import { Field, TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { toApiError } from '../use-resource.ts';

const EMPTY = { account: '', displayName: '', email: '', password: '', isAdmin: false, studentStatus: 'unknown' as StudentStatus };
const STUDENT_STATUS_LABELS: Record<StudentStatus, string> = { active: 'active student', not_student: 'not a student', unknown: 'unknown' };

export function CreateUserDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (user: AdminUser) => void }) {
  const [form, setForm] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const set = (changes: Partial<typeof EMPTY>) => setForm({ ...form, ...changes });
  const fieldErrors = error?.fieldErrors ?? {};

  const close = () => {
    setForm(EMPTY);
    setError(undefined);
    onClose();
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const body = {
        account: form.account.trim(),
        displayName: form.displayName.trim(),
        ...(form.email.trim() ? { email: form.email.trim() } : {}),
        password: form.password,
        isAdmin: form.isAdmin,
        studentStatus: form.studentStatus,
      };
      const { user } = await unwrap(api.POST('/admin/users', { body }));
      close();
      onCreated(user);
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} title="New user" onClose={close}>
      <form onSubmit={submit} noValidate>
        <FormError error={error} fieldsShown />
        <TextField
          label="Account"
          value={form.account}
          onValue={(account) => set({ account })}
          autoCapitalize="none"
          spellcheck={false}
          autoComplete="off"
          hint="What they type to sign in: letters, digits and . _ @ + -"
          error={fieldErrors.account}
        />
        <TextField label="Display name" value={form.displayName} onValue={(displayName) => set({ displayName })} error={fieldErrors.displayName} />
        <TextField label="Email (optional)" type="email" value={form.email} onValue={(email) => set({ email })} error={fieldErrors.email} />
        <TextField
          label="Initial password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          onValue={(password) => set({ password })}
          hint="Give it to them over a safe channel."
          error={fieldErrors.password}
        />
        <Field label="Student status" hint="Released as the student_status claim to clients granted the student scope." error={fieldErrors.studentStatus}>
          {(control) => (
            <select {...control} value={form.studentStatus} onChange={(e) => set({ studentStatus: e.currentTarget.value as StudentStatus })}>
              {STUDENT_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {STUDENT_STATUS_LABELS[status]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div class="check">
          <input type="checkbox" id="new-user-admin" checked={form.isAdmin} onChange={(e) => set({ isAdmin: e.currentTarget.checked })} />
          <label for="new-user-admin">Administrator (manages users, acts as owner on every project)</label>
        </div>
        <div class="actions dialog-actions">
          <button type="button" class="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" class="button button-primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create user'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
