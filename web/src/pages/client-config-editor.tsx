import { api, unwrap } from '../api/client.ts';
import { bodyFromDraft, configListFields, configProblems, draftFromClient, problemsByField } from '../client-config.ts';
import { CLIENT_ALL_FIELDS, CLIENT_CONFIG_FIELDS } from '../client-fields.ts';
import { ClientConfigFields } from '../components/client-config-fields.tsx';
import { VersionedEditSection } from '../components/versioned-edit-section.tsx';
import { useVersionedEditor } from '../use-versioned-editor.ts';
import { clientParams, fetchClient, type ClientSectionProps } from './client-editing.ts';
import { t } from '../i18n.ts';

/** Redirect URIs, post-logout URIs, scopes and PKCE: shown, and for maintainers edited as a new revision. */
export function ClientConfigEditor({ client, writable, onNewVersion }: ClientSectionProps) {
  const editor = useVersionedEditor({
    resource: client,
    toDraft: draftFromClient,
    comparable: bodyFromDraft,
    listFields: configListFields,
    save: (draft, base) =>
      unwrap(
        api.PUT('/projects/{projectId}/clients/{clientId}/revision', { params: clientParams(base), body: { clientVersion: base.clientVersion, ...bodyFromDraft(draft) } }),
      ).then((r) => r.client),
    fetchLatest: () => fetchClient(client.projectId, client.clientId),
    onNewVersion,
    ownFields: CLIENT_CONFIG_FIELDS,
    conflictFields: CLIENT_ALL_FIELDS,
  });
  const problems = editor.editing ? configProblems(client.clientType, editor.draft) : {};
  const shown = { ...problemsByField(editor.error?.fieldErrors ?? {}), ...problems };

  return (
    <VersionedEditSection
      title={t('console.clientConfig.title')}
      texts="console.clientConfig"
      subject={t('console.client.thisClient')}
      editor={editor}
      writable={writable}
      blocked={Object.keys(problems).length > 0}
      disableSaveWhileBlocked
      note={t('console.clientConfig.savingNote')}
      facts={
        <dl class="facts">
          <div>
            <dt>{t('console.clientConfig.redirectUris')}</dt>
            <dd>
              <UriList uris={client.redirectUris} />
            </dd>
          </div>
          <div>
            <dt>{t('console.clientConfig.postLogoutRedirectUris')}</dt>
            <dd>
              <UriList uris={client.postLogoutRedirectUris} />
            </dd>
          </div>
          <div>
            <dt>{t('console.clientConfig.scopes')}</dt>
            <dd>
              {client.scopeWhitelist.map((scope) => (
                <code class="chip" key={scope}>
                  {scope}
                </code>
              ))}
            </dd>
          </div>
          <div>
            <dt>PKCE</dt>
            <dd>{t(client.requirePkce ? 'console.clientConfig.pkceRequired' : 'console.clientConfig.pkceOptional')}</dd>
          </div>
          <div>
            <dt>{t('console.clientConfig.claimsInIdToken')}</dt>
            <dd>{t(client.claimsInIdToken ? 'console.clientConfig.claimsInIdTokenOn' : 'console.clientConfig.claimsInIdTokenOff')}</dd>
          </div>
        </dl>
      }
    >
      <ClientConfigFields clientType={client.clientType} draft={editor.draft} onChange={editor.setDraft} errors={shown} />
    </VersionedEditSection>
  );
}

function UriList({ uris }: { uris: string[] }) {
  if (uris.length === 0) return <span class="muted">{t('console.common.none')}</span>;
  return (
    <ul class="uri-list">
      {uris.map((uri) => (
        <li key={uri}>
          <code>{uri}</code>
        </li>
      ))}
    </ul>
  );
}
