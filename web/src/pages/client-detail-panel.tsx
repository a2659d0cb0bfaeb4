import { useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import { api, unwrap } from '../api/client.ts';
import type { Client } from '../api/types.ts';
import { CLIENT_ALL_FIELDS } from '../client-fields.ts';
import { Badge } from '../components/badge.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { Link } from '../components/link.tsx';
import { LoadError, Loading } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { RetryNotice } from '../components/retry-notice.tsx';
import { can } from '../roles.ts';
import { useConflictRetry } from '../use-conflict-retry.ts';
import { useResource } from '../use-resource.ts';
import { ClientConfigEditor } from './client-config-editor.tsx';
import { ClientConnectionInfo } from './client-connection-info.tsx';
import { ClientDetailsEditor } from './client-details-editor.tsx';
import { clientParams, fetchClient } from './client-editing.ts';
import { ClientSecretsSection } from './client-secrets-section.tsx';
import { CLIENT_TYPE_LABEL } from './clients-panel.tsx';
import { projectPath, type ProjectContext } from './project-context.ts';

export function ClientDetailPanel({ project, clientId }: ProjectContext & { clientId: string }) {
  const resource = useResource(`client:${clientId}`, () => fetchClient(project.projectId, clientId));
  const [confirmingStatus, setConfirmingStatus] = useState(false);
  const conflicts = useConflictRetry<Client>({
    fetchLatest: () => fetchClient(project.projectId, clientId),
    onNewVersion: resource.set,
    fields: CLIENT_ALL_FIELDS,
  });
  const client = resource.data;
  const back = (
    <p class="back-link">
      <Link to={projectPath(project, '/clients')}>← All clients</Link>
    </p>
  );

  if (resource.error?.status === 404) {
    return (
      <>
        {back}
        <div class="alert alert-error" role="alert">
          <p>This project has no client {clientId}.</p>
        </div>
      </>
    );
  }
  if (resource.error && !client) return <LoadError error={resource.error} onRetry={() => void resource.reload()} />;
  if (!client) return <Loading what={t('console.what.client')} />;

  const writable = can(project, 'write_clients');
  const nextStatus = client.status === 'active' ? 'disabled' : 'active';
  const changeStatus = async () => {
    await conflicts.run(
      nextStatus === 'disabled' ? 'disable the client' : 'enable the client',
      client,
      (base) =>
        unwrap(api.PATCH('/projects/{projectId}/clients/{clientId}', { params: clientParams(base), body: { clientVersion: base.clientVersion, status: nextStatus } })).then(
          (r) => r.client,
        ),
      resource.set,
    );
  };

  return (
    <section class="client-detail">
      {back}
      <PanelHeader
        title={client.displayName}
        actions={
          writable && (
            <button type="button" class={client.status === 'active' ? 'button' : 'button button-primary'} onClick={() => setConfirmingStatus(true)}>
              {client.status === 'active' ? 'Disable client' : 'Enable client'}
            </button>
          )
        }
      >
        <div class="page-badges">
          <Badge tone="accent">{CLIENT_TYPE_LABEL[client.clientType]}</Badge>
          <Badge tone={client.status === 'active' ? 'success' : 'danger'}>{client.status}</Badge>
        </div>
      </PanelHeader>
      {client.status === 'disabled' && (
        <div class="alert alert-warning" role="status">
          <p>This client is disabled: Sesame refuses its sign-ins and token requests until it is enabled again.</p>
        </div>
      )}
      <RetryNotice pending={conflicts.pending} subject="this client" />
      <div class="client-sections">
        <ClientConnectionInfo client={client} />
        <ClientConfigEditor client={client} writable={writable} onNewVersion={resource.set} />
        <ClientDetailsEditor client={client} writable={writable} onNewVersion={resource.set} />
        {client.clientType === 'web' && <ClientSecretsSection client={client} writable={writable} onNewVersion={resource.set} />}
      </div>

      <ConfirmDialog
        open={confirmingStatus}
        title={nextStatus === 'disabled' ? 'Disable this client?' : 'Enable this client?'}
        confirmLabel={nextStatus === 'disabled' ? 'Disable client' : 'Enable client'}
        danger={nextStatus === 'disabled'}
        onConfirm={changeStatus}
        onClose={() => setConfirmingStatus(false)}
      >
        {nextStatus === 'disabled' ? (
          <p>
            People can no longer sign in to <strong>{client.displayName}</strong>, and its token requests are refused at once. Its configuration and
            secrets are kept; you can enable it again.
          </p>
        ) : (
          <p>
            <strong>{client.displayName}</strong> can sign people in again at once, with its current configuration and secrets.
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
