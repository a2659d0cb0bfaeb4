import { api, unwrap } from '../api/client.ts';
import { bodyFromDraft, configListFields, configProblems, draftFromClient, problemsByField } from '../client-config.ts';
import { CLIENT_ALL_FIELDS, CLIENT_CONFIG_FIELDS } from '../client-fields.ts';
import { ClientConfigFields } from '../components/client-config-fields.tsx';
import { ConflictNotice } from '../components/conflict-notice.tsx';
import { FormError } from '../components/form-error.tsx';
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

  const submit = (event: Event) => {
    event.preventDefault();
    if (Object.keys(problems).length === 0) void editor.submit();
  };

  return (
    <section class="card section-card">
      <div class="section-title-row">
        <h3>{t('console.clientConfig.title')}</h3>
        {writable && !editor.editing && (
          <button type="button" class="button button-small" onClick={editor.start}>
            {t('console.clientConfig.edit')}
          </button>
        )}
      </div>
      {!editor.editing && (
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
      )}
      {editor.editing && (
        <form onSubmit={submit} noValidate aria-label={t('console.clientConfig.editLabel')}>
          {editor.conflict && (
            <ConflictNotice
              subject={t('console.client.thisClient')}
              changes={editor.conflict}
              clashes={editor.clashes}
              busy={editor.busy}
              onReapply={() => void editor.reapply()}
              onDiscard={editor.discard}
            />
          )}
          <FormError error={editor.error} fieldsShown />
          <ClientConfigFields clientType={client.clientType} draft={editor.draft} onChange={editor.setDraft} errors={shown} />
          <p class="small muted">{t('console.clientConfig.savingNote')}</p>
          <div class="actions form-actions">
            <button type="submit" class="button button-primary" disabled={editor.busy || Object.keys(problems).length > 0}>
              {t(editor.busy ? 'console.common.saving' : 'console.clientConfig.save')}
            </button>
            <button type="button" class="button" onClick={editor.cancel}>
              {t('console.common.cancel')}
            </button>
          </div>
        </form>
      )}
    </section>
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
