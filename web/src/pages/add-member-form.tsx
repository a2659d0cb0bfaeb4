import { useEffect, useState } from 'preact/hooks';
import { ASSIGNABLE_ROLES } from '../../../src/domain/roles.ts';
import { api, unwrap } from '../api/client.ts';
import type { AssignableRole, DirectoryUser, Member } from '../api/types.ts';
import { Field, TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { toApiError } from '../use-resource.ts';
import { useSubmit } from '../use-submit.ts';
import { t } from '../i18n.ts';
import { roleName } from '../roles.ts';
import { sessionUser } from '../session.ts';

interface AddMemberFormProps {
  existing: Member[];
  /** False when the project changed meanwhile: the page then offers to retry on the latest version. */
  onAdd: (subjectId: string, account: string, role: AssignableRole) => Promise<boolean>;
}

/**
 * Adds a person by their exact account name, looked up first so a typo is caught next to the field. Administrators,
 * who may list everyone anyway, get suggestions from the people search as they type; others keep the exact lookup
 * only, so nobody can enumerate accounts from a project page.
 */
export function AddMemberForm({ existing, onAdd }: AddMemberFormProps) {
  const [account, setAccount] = useState('');
  const suggestions = usePeopleSuggestions(sessionUser()?.isAdmin === true ? account.trim() : '');
  const [role, setRole] = useState<AssignableRole>('maintainer');
  const [accountError, setAccountError] = useState<string | undefined>(undefined);
  const { busy, error, clearError, submit: send } = useSubmit();
  const [added, setAdded] = useState('');

  const add = send(async () => {
    const wanted = account.trim();
    let user: DirectoryUser;
    try {
      ({ user } = await unwrap(api.GET('/users/lookup', { params: { query: { account: wanted } } })));
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.code !== 'not_found') throw apiError;
      setAccountError(t('console.addMember.unknown', { account: wanted }));
      return;
    }
    if (existing.some((member) => member.subjectId === user.subjectId)) {
      setAccountError(t('console.addMember.already', { name: user.displayName, account: user.account }));
      return;
    }
    try {
      if (await onAdd(user.subjectId, user.account, role)) {
        setAccount('');
        setAdded(t('console.addMember.added', { name: user.displayName, account: user.account, role: roleName(role) }));
      }
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.code !== 'member_exists') throw apiError;
      setAccountError(apiError.message);
    }
  });
  const submit = (event: Event) => {
    event.preventDefault();
    clearError();
    setAdded('');
    if (!account.trim()) {
      setAccountError(t('console.addMember.missing'));
      return;
    }
    setAccountError(undefined);
    void add();
  };

  return (
    <form class="card add-member" onSubmit={submit} noValidate aria-label={t('console.addMember.title')}>
      <h3>{t('console.addMember.title')}</h3>
      <FormError error={error} />
      <div class="add-member-fields">
        <TextField
          label={t('console.addMember.account')}
          value={account}
          onValue={setAccount}
          autoCapitalize="none"
          spellcheck={false}
          autoComplete="off"
          error={accountError}
          {...(sessionUser()?.isAdmin ? { list: 'add-member-suggestions', hint: t('console.addMember.searchHint') } : {})}
        />
        {sessionUser()?.isAdmin && (
          <datalist id="add-member-suggestions">
            {suggestions
              .filter((person) => !existing.some((member) => member.subjectId === person.subjectId))
              .map((person) => (
                <option key={person.subjectId} value={person.account} label={person.email ? `${person.displayName} · ${person.email}` : person.displayName} />
              ))}
          </datalist>
        )}
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

/** People whose account, name or email contains the text (administrators' people search), a moment after typing stops. */
function usePeopleSuggestions(text: string) {
  const [found, setFound] = useState<{ subjectId: string; account: string; displayName: string; email: string | null }[]>([]);
  useEffect(() => {
    if (text.length < 2) {
      setFound([]);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      unwrap(api.GET('/admin/users', { params: { query: { query: text, limit: '8' } } }))
        .then((page) => current && setFound(page.users.filter((user) => user.status === 'active')))
        .catch(() => current && setFound([]));
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text]);
  return found;
}
