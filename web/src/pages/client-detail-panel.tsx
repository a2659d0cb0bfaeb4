import { useState } from 'preact/hooks';
import { t, tWith } from '../i18n.ts';
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
import { ClientDangerSection } from './client-danger-section.tsx';
import { ClientDetailsEditor } from './client-details-editor.tsx';
import { clientParams, fetchClient } from './client-editing.ts';
import { ClientSecretsSection } from './client-secrets-section.tsx';
import { clientTypeLabel } from './clients-panel.tsx';
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
      <Link to={projectPath(project, '/clients')}>{t('console.client.allClients')}</Link>
    </p>
  );

  if (resource.error?.status === 404) {
    return (
      <>
        {back}
        <div class="alert alert-error" role="alert">
          <p>{t('console.client.noSuchClient', { clientId })}</p>
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
      t(nextStatus === 'disabled' ? 'console.client.disableAction' : 'console.client.enableAction'),
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
              {t(client.status === 'active' ? 'console.client.disable' : 'console.client.enable')}
            </button>
          )
        }
      >
        <div class="page-badges">
          <Badge tone="accent">{clientTypeLabel(client.clientType)}</Badge>
          <Badge tone={client.status === 'active' ? 'success' : 'danger'}>{t(client.status === 'active' ? 'console.client.active' : 'console.client.disabled')}</Badge>
        </div>
      </PanelHeader>
      {client.status === 'disabled' && (
        <div class="alert alert-warning" role="status">
          <p>{t('console.client.disabledNotice')}</p>
        </div>
      )}
      <RetryNotice pending={conflicts.pending} subject={t('console.client.thisClient')} />
      <div class="client-sections">
        <ClientConnectionInfo client={client} />
        <ClientConfigEditor client={client} writable={writable} onNewVersion={resource.set} />
        <ClientDetailsEditor client={client} writable={writable} onNewVersion={resource.set} />
        {client.clientType === 'web' && <ClientSecretsSection client={client} writable={writable} onNewVersion={resource.set} />}
        {writable && <ClientDangerSection client={client} clientsPath={projectPath(project, '/clients')} onNewVersion={resource.set} />}
      </div>

      <ConfirmDialog
        open={confirmingStatus}
        title={t(nextStatus === 'disabled' ? 'console.client.disableTitle' : 'console.client.enableTitle')}
        confirmLabel={t(nextStatus === 'disabled' ? 'console.client.disable' : 'console.client.enable')}
        danger={nextStatus === 'disabled'}
        onConfirm={changeStatus}
        onClose={() => setConfirmingStatus(false)}
      >
        <p>{tWith(nextStatus === 'disabled' ? 'console.client.disableText' : 'console.client.enableText', { name: <strong>{client.displayName}</strong> })}</p>
      </ConfirmDialog>
    </section>
  );
}
