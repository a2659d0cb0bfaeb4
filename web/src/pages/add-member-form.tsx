import { useState } from 'preact/hooks';
import { ASSIGNABLE_ROLES } from '../../../src/domain/roles.ts';
import { api, unwrap, type ApiError } from '../api/client.ts';
import type { AssignableRole, DirectoryUser, Member } from '../api/types.ts';
import { Field, TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { toApiError } from '../use-resource.ts';
import { t } from '../i18n.ts';
import { roleName } from '../roles.ts';

interface AddMemberFormProps {
  existing: Member[];
  /** False when the project changed meanwhile: the page then offers to retry on the latest version. */
  onAdd: (subjectId: string, account: string, role: AssignableRole) => Promise<boolean>;
}

/** Adds a person by their exact account name, looked up first so a typo is caught next to the field. */
export function AddMemberForm({ existing, onAdd }: AddMemberFormProps) {
  const [account, setAccount] = useState('');
  const [role, setRole] = useState<AssignableRole>('maintainer');
  const [busy, setBusy] = useState(false);
  const [accountError, setAccountError] = useState<string | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [added, setAdded] = useState('');

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setAdded('');
    const wanted = account.trim();
    if (!wanted) {
      setAccountError(t('console.addMember.missing'));
      return;
    }
    setAccountError(undefined);
    setBusy(true);
    try {
      let user: DirectoryUser;
      try {
        ({ user } = await unwrap(api.GET('/users/lookup', { params: { query: { account: wanted } } })));
      } catch (caught) {
        const apiError = toApiError(caught);
        if (apiError.code === 'not_found') {
          setAccountError(t('console.addMember.unknown', { account: wanted }));
          return;
        }
        throw apiError;
      }
      if (existing.some((member) => member.subjectId === user.subjectId)) {
        setAccountError(t('console.addMember.already', { name: user.displayName, account: user.account }));
        return;
      }
      if (await onAdd(user.subjectId, user.account, role)) {
        setAccount('');
        setAdded(t('console.addMember.added', { name: user.displayName, account: user.account, role: roleName(role) }));
      }
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.code === 'member_exists') setAccountError(apiError.message);
      else setError(apiError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card add-member" onSubmit={submit} noValidate aria-label={t('console.addMember.title')}>
      <h3>{t('console.addMember.title')}</h3>
      <FormError error={error} />
      <div class="add-member-fields">
        <TextField label={t('console.addMember.account')} value={account} onValue={setAccount} autoCapitalize="none" spellcheck={false} autoComplete="off" error={accountError} />
        <Field label={t('console.members.role')}>
          {(control) => (
            <select {...control} value={role} onChange={(e) => setRole(e.currentTarget.value as AssignableRole)}>
              {ASSIGNABLE_ROLES.map((option) => (
                <option key={option} value={option}>
                  {roleName(option)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" class="button button-primary" disabled={busy}>
          {t(busy ? 'console.addMember.busy' : 'console.addMember.submit')}
        </button>
      </div>
      <p class="small success-text" role="status">
        {added}
      </p>
    </form>
  );
}
