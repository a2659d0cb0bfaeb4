import { api, unwrap } from '../api/client.ts';
import { t } from '../i18n.ts';
import { Badge } from '../components/badge.tsx';
import { Link } from '../components/link.tsx';
import { LoadError, Loading } from '../components/load-state.tsx';
import { PanelHeader } from '../components/panel-header.tsx';
import { Time } from '../components/time.tsx';
import { can } from '../roles.ts';
import { useResource } from '../use-resource.ts';
import { projectPath, type ProjectContext } from './project-context.ts';

export const CLIENT_TYPE_LABEL = { web: 'Web (confidential)', spa: 'Single-page app (public)', native: 'Native app or assistant (public)' } as const;

export function ClientsPanel({ project }: ProjectContext) {
  const clients = useResource(`clients:${project.projectId}`, () =>
    unwrap(api.GET('/projects/{projectId}/clients', { params: { path: { projectId: project.projectId } } })).then((r) => r.clients),
  );

  return (
    <section>
      <PanelHeader
        title="Clients"
        actions={
          can(project, 'write_clients') && (
            <Link to={projectPath(project, '/clients/new')} class="button button-primary">
              Register client
            </Link>
          )
        }
      >
        <p class="muted">The applications that sign people in through Sesame.</p>
      </PanelHeader>

      {clients.error && <LoadError error={clients.error} onRetry={() => void clients.reload()} />}
      {!clients.data && !clients.error && <Loading what={t('console.what.clients')} />}
      {clients.data?.length === 0 && (
        <div class="empty card">
          <p>No clients yet.{can(project, 'write_clients') ? ' Register one to let an application sign people in.' : ''}</p>
        </div>
      )}
      {clients.data && clients.data.length > 0 && (
        <table class="data-table">
          <caption class="visually-hidden">Clients of {project.name}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Client ID</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {clients.data.map((client) => (
              <tr key={client.clientId}>
                <th scope="row" data-label="Name">
                  <Link to={projectPath(project, `/clients/${encodeURIComponent(client.clientId)}`)}>{client.displayName}</Link>
                </th>
                <td data-label="Type">{CLIENT_TYPE_LABEL[client.clientType]}</td>
                <td data-label="Status">
                  <Badge tone={client.status === 'active' ? 'success' : 'danger'}>{client.status}</Badge>
                </td>
                <td data-label="Client ID">
                  <code>{client.clientId}</code>
                </td>
                <td data-label="Updated">
                  <Time value={client.updatedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
