import { api, unwrap } from '../api/client.ts';
import { t } from '../i18n.ts';
import { Badge } from '../components/badge.tsx';
import { DataTable } from '../components/data-table.tsx';
import { Link } from '../components/link.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { Time } from '../components/time.tsx';
import { can } from '../roles.ts';
import { useResource } from '../use-resource.ts';
import { projectPath, type ProjectContext } from './project-context.ts';

const CLIENT_TYPE_KEYS = { web: 'console.clientType.web', spa: 'console.clientType.spa', native: 'console.clientType.native' } as const;

/** A client type's name in the console's language. */
export const clientTypeLabel = (type: keyof typeof CLIENT_TYPE_KEYS): string => t(CLIENT_TYPE_KEYS[type]);

export function ClientsPanel({ project }: ProjectContext) {
  const clients = useResource(`clients:${project.projectId}`, () =>
    unwrap(api.GET('/projects/{projectId}/clients', { params: { path: { projectId: project.projectId } } })).then((r) => r.clients),
  );

  return (
    <section>
      <PanelHeader
        title={t('console.project.tab.clients')}
        actions={
          can(project, 'write_clients') && (
            <Link to={projectPath(project, '/clients/new')} class="button button-primary">
              {t('console.clients.register')}
            </Link>
          )
        }
      >
        <p class="muted">{t('console.clients.intro')}</p>
      </PanelHeader>

      <LoadState resource={clients} what={t('console.what.clients')} />
      {clients.data?.length === 0 && (
        <div class="empty card">
          <p>{t(can(project, 'write_clients') ? 'console.clients.emptyWritable' : 'console.clients.empty')}</p>
        </div>
      )}
      {clients.data && clients.data.length > 0 && (
        <DataTable caption={t('console.clients.caption', { name: project.name })} columns={[t('console.clients.name'), t('console.clients.type'), t('console.clients.status'), t('console.connection.clientId'), t('console.clients.updated')]}>
          {clients.data.map((client) => (
            <tr key={client.clientId}>
              <th scope="row" data-label={t('console.clients.name')}>
                <Link to={projectPath(project, `/clients/${encodeURIComponent(client.clientId)}`)}>{client.displayName}</Link>
              </th>
              <td data-label={t('console.clients.type')}>{clientTypeLabel(client.clientType)}</td>
              <td data-label={t('console.clients.status')}>
                <Badge tone={client.status === 'active' ? 'success' : 'danger'}>{t(client.status === 'active' ? 'console.client.active' : 'console.client.disabled')}</Badge>
              </td>
              <td data-label={t('console.connection.clientId')}>
                <code>{client.clientId}</code>
              </td>
              <td data-label={t('console.clients.updated')}>
                <Time value={client.updatedAt} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
