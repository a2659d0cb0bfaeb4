import { useEffect, useState } from 'preact/hooks';
import { api, unwrap, type ApiError } from '../api/client.ts';
import type { AdminUser, Group, GroupMember } from '../api/types.ts';
import { DataTable } from '../components/data-table.tsx';
import { Dialog } from '../components/dialog.tsx';
import { DialogActions } from '../components/dialog-actions.tsx';
import { TextAreaField, TextField } from '../components/field.tsx';
import { FormError } from '../components/form-error.tsx';
import { Loading } from '../components/load-state.tsx';
import { NamedRecordsPage } from '../components/named-records-page.tsx';
import { RowButton } from '../components/row-button.tsx';
import { useSubmit } from '../use-submit.ts';
import { toApiError, useResource } from '../use-resource.ts';
import { t } from '../i18n.ts';

/** Groups (administrators): what applications authorise with, released as the `groups` claim. */
export function AdminGroupsPage() {
  const groups = useResource('admin-groups', () => unwrap(api.GET('/admin/groups')).then((r) => r.groups));
  const [members, setMembers] = useState<Group | null>(null);

  return (
    <>
      <NamedRecordsPage
        texts="console.groups"
        records={groups}
        compare={(a, b) => (a.name < b.name ? -1 : 1)}
        remove={async (group) => {
          await unwrap(api.DELETE('/admin/groups/{name}', { params: { path: { name: group.name } }, body: { expectedVersion: group.version } }));
        }}
        table={(list, actions) => (
          <DataTable caption={t('console.groups.caption')} columns={[t('console.groups.group'), t('console.groups.description'), t('console.groups.memberCount')]} actions={t('console.groups.actions')}>
            {list.map((group) => (
              <tr key={group.name}>
                <th scope="row" data-label={t('console.groups.group')}>
                  {group.displayName}
                  <span class="block small muted">
                    <code>{group.name}</code>
                  </span>
                </th>
                <td data-label={t('console.groups.description')}>{group.description || <span class="muted">{t('console.groups.noDescription')}</span>}</td>
                <td data-label={t('console.groups.memberCount')}>{group.memberCount}</td>
                <td data-label={t('console.groups.actions')}>
                  <div class="actions">
                    <RowButton onClick={() => setMembers(group)} label={t('console.groups.membersLabel', { name: group.displayName })}>
                      {t('console.groups.members')}
                    </RowButton>
                    <RowButton onClick={() => actions.edit(group)} label={t('console.groups.editLabel', { name: group.displayName })}>
                      {t('console.groups.edit')}
                    </RowButton>
                    <RowButton onClick={() => actions.askToRemove(group)} label={t('console.groups.removeLabel', { name: group.displayName })}>
                      {t('console.groups.remove')}
                    </RowButton>
                  </div>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        dialog={(editing, close, saved) => <GroupDialog open={editing !== null} group={editing?.record ?? null} onClose={close} onSaved={saved} />}
      />
      <GroupMembersDialog group={members} onClose={() => setMembers(null)} onCountChanged={() => void groups.reload()} />
    </>
  );
}

/** Adds a group (`group` null) or changes its display name and description at the version read. */
function GroupDialog({ open, group, onClose, onSaved }: { open: boolean; group: Group | null; onClose: () => void; onSaved: (saved: Group) => void }) {
  const [name, setName] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [description, setDescription] = useState('');
  const dialog = useSubmit(onClose);
  useEffect(() => {
    if (!open) return;
    setName(group?.name ?? '');
    setDisplayName(group?.displayName ?? '');
    setDescription(group?.description ?? '');
  }, [open, group]);
  const errors = dialog.fieldErrors;

  const submit = dialog.submit(async () => {
    const saved = group
      ? (await unwrap(api.PATCH('/admin/groups/{name}', { params: { path: { name: group.name } }, body: { expectedVersion: group.version, displayName, description } }))).group
      : (await unwrap(api.POST('/admin/groups', { body: { name: name.trim(), displayName, ...(description.trim() ? { description } : {}) } }))).group;
    dialog.close();
    onSaved(saved);
  });

  return (
    <Dialog open={open} title={group ? t('console.groups.editTitle', { name: group.displayName }) : t('console.groups.addTitle')} onClose={dialog.close}>
      <form onSubmit={submit} noValidate>
        <FormError error={dialog.error} fieldsShown />
        {!group && <TextField label={t('console.groups.name')} value={name} onValue={setName} hint={t('console.groups.nameHint')} autoCapitalize="none" spellcheck={false} autoComplete="off" error={errors.name} />}
        <TextField label={t('console.groups.displayName')} value={displayName} onValue={setDisplayName} error={errors.displayName} />
        <TextAreaField label={t('console.groups.descriptionOptional')} value={description} onValue={setDescription} rows={2} error={errors.description} />
        <DialogActions onCancel={dialog.close} label={group ? t('console.groups.save') : t('console.groups.create')} busyLabel={t('console.common.working')} busy={dialog.busy} />
      </form>
    </Dialog>
  );
}

const matches = (query: string, ...texts: (string | null | undefined)[]) => {
  const wanted = query.trim().toLowerCase();
  return wanted === '' || texts.some((text) => text?.toLowerCase().includes(wanted));
};

/** A group's members with who manages each, a search over them and over the people to add, and removal. */
function GroupMembersDialog({ group, onClose, onCountChanged }: { group: Group | null; onClose: () => void; onCountChanged: () => void }) {
  const [members, setMembers] = useState<GroupMember[] | null>(null);
  const [people, setPeople] = useState<AdminUser[] | null>(null);
  const [query, setQuery] = useState('');
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [status, setStatus] = useState('');

  const load = async (name: string) => {
    setMembers((await unwrap(api.GET('/admin/groups/{name}/members', { params: { path: { name } } }))).members);
  };
  useEffect(() => {
    setMembers(null);
    setQuery('');
    setStatus('');
    setError(undefined);
    if (!group) return;
    load(group.name).catch((caught: unknown) => setError(toApiError(caught)));
    unwrap(api.GET('/admin/users'))
      .then((r) => setPeople(r.users))
      .catch((caught: unknown) => setError(toApiError(caught)));
  }, [group]);

  const change = async (person: { subjectId: string; account: string }, add: boolean) => {
    if (!group) return;
    setError(undefined);
    try {
      const path = { params: { path: { name: group.name, subjectId: person.subjectId } } };
      await unwrap(add ? api.PUT('/admin/groups/{name}/members/{subjectId}', path) : api.DELETE('/admin/groups/{name}/members/{subjectId}', path));
      await load(group.name);
      setStatus(t(add ? 'console.groups.memberAdded' : 'console.groups.memberRemoved', { account: person.account }));
      onCountChanged();
    } catch (caught) {
      setError(toApiError(caught));
    }
  };

  const memberIds = new Set((members ?? []).map((member) => member.subjectId));
  const shownMembers = (members ?? []).filter((member) => matches(query, member.account, member.displayName));
  const candidates = query.trim() === '' ? [] : (people ?? []).filter((person) => !memberIds.has(person.subjectId) && matches(query, person.account, person.displayName, person.email)).slice(0, 10);
  const sourceText = (source: string) => (source === 'local' ? t('console.groups.sourceLocal') : t('console.groups.sourceProvider', { provider: source.replace(/^(oidc|ldap):/, '') }));

  return (
    <Dialog open={group !== null} title={group ? t('console.groups.membersTitle', { name: group.displayName }) : ''} onClose={onClose} wide>
      <FormError error={error} />
      <TextField label={t('console.groups.search')} value={query} onValue={setQuery} hint={t('console.groups.searchHint')} autoComplete="off" spellcheck={false} />
      <p class="small success-text" role="status">
        {status}
      </p>
      {candidates.length > 0 && (
        <section aria-label={t('console.groups.candidates')}>
          <h3 class="small">{t('console.groups.candidates')}</h3>
          <ul class="plain-list">
            {candidates.map((person) => (
              <li key={person.subjectId}>
                {person.displayName} <span class="muted">({person.account})</span>{' '}
                <RowButton onClick={() => void change(person, true)} label={t('console.groups.addMemberLabel', { account: person.account })}>
                  {t('console.groups.addMember')}
                </RowButton>
              </li>
            ))}
          </ul>
        </section>
      )}
      {members === null && !error && <Loading what={t('console.groups.loadingMembers')} />}
      {members !== null && members.length === 0 && <p class="muted">{t('console.groups.noMembers')}</p>}
      {members !== null && members.length > 0 && (
        <DataTable caption={group ? t('console.groups.membersTitle', { name: group.displayName }) : ''} columns={[t('console.groups.person'), t('console.groups.source')]} actions={t('console.groups.actions')}>
          {shownMembers.map((member) => (
            <tr key={member.subjectId}>
              <th scope="row" data-label={t('console.groups.person')}>
                {member.displayName}
                <span class="block small muted">{member.account}</span>
              </th>
              <td data-label={t('console.groups.source')}>{sourceText(member.source)}</td>
              <td data-label={t('console.groups.actions')}>
                <RowButton onClick={() => void change(member, false)} label={t('console.groups.removeMemberLabel', { account: member.account })}>
                  {t('console.groups.removeMember')}
                </RowButton>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <div class="actions dialog-actions">
        <button type="button" class="button" onClick={onClose}>
          {t('console.groups.close')}
        </button>
      </div>
    </Dialog>
  );
}
