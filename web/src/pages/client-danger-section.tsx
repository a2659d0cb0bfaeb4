import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client.ts';
import type { Client } from '../api/types.ts';
import { CLIENT_ALL_FIELDS } from '../client-fields.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { RetryNotice } from '../components/retry-notice.tsx';
import { t, tWith } from '../i18n.ts';
import { navigate } from '../router.ts';
import { useConflictRetry } from '../use-conflict-retry.ts';
import { clientParams, fetchClient } from './client-editing.ts';

interface ClientDangerSectionProps {
  client: Client;
  /** Where the project's client list is, to go to after the client is deleted. */
  clientsPath: string;
  onNewVersion: (client: Client) => void;
}

/** Ending every token of a client and deleting it: both asked for first, both retried on the latest version after a conflict. */
export function ClientDangerSection({ client, clientsPath, onNewVersion }: ClientDangerSectionProps) {
  const [asking, setAsking] = useState<'revoke' | 'delete' | null>(null);
  const [notice, setNotice] = useState('');
  const conflicts = useConflictRetry<Client>({ fetchLatest: () => fetchClient(client.projectId, client.clientId), onNewVersion, fields: CLIENT_ALL_FIELDS });

  const endTokens = async () => {
    await conflicts.run(
      t('console.clientDanger.revokeAction'),
      client,
      (base) => unwrap(api.POST('/projects/{projectId}/clients/{clientId}/tokens/revoke', { params: clientParams(base), body: { clientVersion: base.clientVersion } })),
      (result) => {
        onNewVersion(result.client);
        setNotice(t('console.clientDanger.revoked', { count: result.revokedGrants }));
      },
    );
  };
  const remove = async () => {
    await conflicts.run(
      t('console.clientDanger.deleteAction'),
      client,
      async (base) => {
        await unwrap(api.DELETE('/projects/{projectId}/clients/{clientId}', { params: clientParams(base), body: { clientVersion: base.clientVersion } }));
        return base;
      },
      () => navigate(clientsPath),
    );
  };

  return (
    <section class="card section-card danger-zone">
      <h3>{t('console.clientDanger.title')}</h3>
      <RetryNotice pending={conflicts.pending} subject={t('console.client.thisClient')} />
      <div class="danger-row">
        <p>{t('console.clientDanger.revokeText')}</p>
        <button type="button" class="button" onClick={() => setAsking('revoke')}>
          {t('console.clientDanger.revoke')}
        </button>
      </div>
      <p class="small success-text" role="status">
        {notice}
      </p>
      <div class="danger-row">
        <p>{t('console.clientDanger.deleteText')}</p>
        <button type="button" class="button button-danger" onClick={() => setAsking('delete')}>
          {t('console.clientDanger.delete')}
        </button>
      </div>

      <ConfirmDialog
        open={asking === 'revoke'}
        title={t('console.clientDanger.revokeTitle')}
        confirmLabel={t('console.clientDanger.revoke')}
        danger
        onConfirm={endTokens}
        onClose={() => setAsking(null)}
      >
        <p>{tWith('console.clientDanger.revokeConfirmText', { name: <strong>{client.displayName}</strong> })}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'delete'}
        title={t('console.clientDanger.deleteTitle')}
        confirmLabel={t('console.clientDanger.delete')}
        danger
        onConfirm={remove}
        onClose={() => setAsking(null)}
      >
        <p>{tWith('console.clientDanger.deleteConfirmText', { name: <strong>{client.displayName}</strong> })}</p>
      </ConfirmDialog>
    </section>
  );
}
