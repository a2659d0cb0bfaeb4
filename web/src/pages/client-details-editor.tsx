import { api, unwrap } from '../api/client.ts';
import type { Client } from '../api/types.ts';
import { descriptionProblem, displayNameProblem } from '../client-config.ts';
import { CLIENT_ALL_FIELDS, CLIENT_DETAIL_FIELDS } from '../client-fields.ts';
import { NameDescriptionFields } from '../components/name-description-fields.tsx';
import { Time } from '../components/time.tsx';
import { VersionedEditSection } from '../components/versioned-edit-section.tsx';
import { useVersionedEditor } from '../use-versioned-editor.ts';
import { clientParams, fetchClient, type ClientSectionProps } from './client-editing.ts';
import { t } from '../i18n.ts';

const toDraft = (client: Client) => ({ displayName: client.displayName, description: client.description });
const comparable = (draft: ReturnType<typeof toDraft>) => ({ displayName: draft.displayName.trim(), description: draft.description.trim() });

/** The client's name and description, as people see them on the consent page. */
export function ClientDetailsEditor({ client, writable, onNewVersion }: ClientSectionProps) {
  const editor = useVersionedEditor({
    resource: client,
    toDraft,
    comparable,
    save: (draft, base) =>
      unwrap(
        api.PATCH('/projects/{projectId}/clients/{clientId}', {
          params: clientParams(base),
          body: { clientVersion: base.clientVersion, displayName: draft.displayName.trim(), description: draft.description.trim() },
        }),
      ).then((r) => r.client),
    fetchLatest: () => fetchClient(client.projectId, client.clientId),
    onNewVersion,
    ownFields: CLIENT_DETAIL_FIELDS,
    conflictFields: CLIENT_ALL_FIELDS,
  });
  const nameProblem = editor.editing ? displayNameProblem(editor.draft.displayName) : undefined;
  const descProblem = editor.editing ? descriptionProblem(editor.draft.description) : undefined;

  return (
    <VersionedEditSection
      title={t('console.clientDetails.title')}
      texts="console.clientDetails"
      subject={t('console.client.thisClient')}
      editor={editor}
      writable={writable}
      blocked={nameProblem !== undefined || descProblem !== undefined}
      facts={
        <dl class="facts">
          <div>
            <dt>{t('console.clientDetails.displayName')}</dt>
            <dd>{client.displayName}</dd>
          </div>
          <div>
            <dt>{t('console.clientDetails.description')}</dt>
            <dd>{client.description || <span class="muted">{t('console.common.none')}</span>}</dd>
          </div>
          <div>
            <dt>{t('console.clientDetails.registered')}</dt>
            <dd>
              <Time value={client.createdAt} />
            </dd>
          </div>
        </dl>
      }
    >
      <NameDescriptionFields editor={editor} nameField="displayName" nameLabel={t('console.clientDetails.displayName')} rows={2} nameProblem={nameProblem} descriptionProblem={descProblem} />
    </VersionedEditSection>
  );
}
