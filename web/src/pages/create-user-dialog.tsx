import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { AdminUser } from '../api/types.ts';
import { Dialog } from '../components/dialog.tsx';
import { DialogActions } from '../components/dialog-actions.tsx';
import { STUDENT_STATUSES, type StudentStatus } from '../../../src/domain/clients.ts';
import { Field, TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { useSubmit } from '../use-submit.ts';
import { t } from '../i18n.ts';

const EMPTY = { account: '', displayName: '', email: '', password: '', invite: false, isAdmin: false, studentStatus: 'unknown' as StudentStatus };
const STUDENT_STATUS_LABELS = { active: 'console.createUser.student.active', not_student: 'console.createUser.student.not_student', unknown: 'console.createUser.student.unknown' } as const satisfies Record<StudentStatus, string>;

export function CreateUserDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (user: AdminUser) => void }) {
  const [form, setForm] = useState(EMPTY);
  const dialog = useSubmit(onClose, () => setForm(EMPTY));
  const set = (changes: Partial<typeof EMPTY>) => setForm({ ...form, ...changes });
  const { fieldErrors } = dialog;

  const submit = dialog.submit(async () => {
    const body = {
      account: form.account.trim(),
      displayName: form.displayName.trim(),
      ...(form.email.trim() ? { email: form.email.trim() } : {}),
      // An invitation lets the person choose the password through a mailed link; the administrator never sees it.
      ...(form.invite ? { invite: true } : { password: form.password }),
      isAdmin: form.isAdmin,
      studentStatus: form.studentStatus,
    };
    const { user } = await unwrap(api.POST('/admin/users', { body }));
    dialog.close();
    onCreated(user);
  });

  return (
    <Dialog open={open} title={t('console.createUser.title')} onClose={dialog.close}>
      <form onSubmit={submit} noValidate>
        <FormError error={dialog.error} fieldsShown />
        <TextField
          label={t('console.createUser.account')}
          value={form.account}
          onValue={(account) => set({ account })}
          autoCapitalize="none"
          spellcheck={false}
          autoComplete="off"
          hint={t('console.createUser.accountHint')}
          error={fieldErrors.account}
        />
        <TextField label={t('console.createUser.displayName')} value={form.displayName} onValue={(displayName) => set({ displayName })} error={fieldErrors.displayName} />
        <TextField label={t(form.invite ? 'console.createUser.email' : 'console.createUser.emailOptional')} type="email" value={form.email} onValue={(email) => set({ email })} error={fieldErrors.email} />
        <div class="check">
          <input
            type="checkbox"
            id="new-user-invite"
            checked={form.invite}
            onChange={(e) => set({ invite: e.currentTarget.checked })}
            aria-describedby={fieldErrors.invite ? 'new-user-invite-error' : undefined}
          />
          <label for="new-user-invite">{t('console.createUser.invite')}</label>
        </div>
        {fieldErrors.invite && (
          <p class="field-error" id="new-user-invite-error">
            {fieldErrors.invite}
          </p>
        )}
        {!form.invite && (
          <TextField
            label={t('console.createUser.password')}
            type="password"
            autoComplete="new-password"
            value={form.password}
            onValue={(password) => set({ password })}
            hint={t('console.createUser.passwordHint')}
            error={fieldErrors.password}
          />
        )}
        <Field label={t('console.createUser.studentStatus')} hint={t('console.createUser.studentStatusHint')} error={fieldErrors.studentStatus}>
          {(control) => (
            <select {...control} value={form.studentStatus} onChange={(e) => set({ studentStatus: e.currentTarget.value as StudentStatus })}>
              {STUDENT_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(STUDENT_STATUS_LABELS[status])}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div class="check">
          <input type="checkbox" id="new-user-admin" checked={form.isAdmin} onChange={(e) => set({ isAdmin: e.currentTarget.checked })} />
          <label for="new-user-admin">{t('console.createUser.admin')}</label>
        </div>
        <DialogActions
          onCancel={dialog.close}
          cancelLabel={t('console.createUser.cancel')}
          label={t(form.invite ? 'console.createUser.submitInvite' : 'console.createUser.submit')}
          busyLabel={t('console.createUser.busy')}
          busy={dialog.busy}
        />
      </form>
    </Dialog>
  );
}
