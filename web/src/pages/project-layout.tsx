import { api, unwrap } from '../api/client.ts';
import { t } from '../i18n.ts';
import { Badge } from '../components/badge.tsx';
import { Link } from '../components/link.tsx';
import { LoadError, Loading } from '../components/load-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { can, ROLE_TONE, roleLabel } from '../roles.ts';
import { useResource } from '../use-resource.ts';
import { AuditPanel } from './audit-panel.tsx';
import { ClientDetailPanel } from './client-detail-panel.tsx';
import { ClientsPanel } from './clients-panel.tsx';
import { MembersPanel } from './members-panel.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { projectPath, type ProjectContext } from './project-context.ts';
import { ProjectSettingsPanel } from './project-settings-panel.tsx';
import { RegisterClientPanel } from './register-client-panel.tsx';

export type ProjectTab = 'clients' | 'register-client' | 'client' | 'members' | 'audit' | 'settings';

const TABS: { id: ProjectTab; label: string; path: string; covers: ProjectTab[] }[] = [
  { id: 'clients', label: 'Clients', path: '/clients', covers: ['clients', 'register-client', 'client'] },
  { id: 'members', label: 'Members', path: '/members', covers: ['members'] },
  { id: 'audit', label: 'Audit log', path: '/audit', covers: ['audit'] },
  { id: 'settings', label: 'Settings', path: '/settings', covers: ['settings'] },
];

interface ProjectLayoutProps {
  projectId: string;
  tab: ProjectTab;
  clientId?: string | undefined;
}

export function ProjectLayout({ projectId, tab, clientId }: ProjectLayoutProps) {
  const resource = useResource(projectId, () => unwrap(api.GET('/projects/{projectId}', { params: { path: { projectId } } })).then((r) => r.project));
  const project = resource.data;

  if (resource.error?.status === 404) return <NotFoundPage what={t('console.notFound.project')} />;
  if (resource.error && !project) return <LoadError error={resource.error} onRetry={() => void resource.reload()} />;
  if (!project) return <Loading what={t('console.what.project')} />;

  const context: ProjectContext = { project, setProject: resource.set, reloadProject: resource.reload };
  return (
    <>
      <PageHeader
        title={project.name}
        context={<Link to="/">Projects</Link>}
        badges={
          <>
            <Badge tone={ROLE_TONE[roleLabel(project)]}>
              <span class="visually-hidden">Your role: </span>
              {roleLabel(project)}
            </Badge>
            {project.status === 'archived' && <Badge tone="warning">archived</Badge>}
          </>
        }
      >
        {project.description && <p class="muted project-description">{project.description}</p>}
      </PageHeader>

      {project.status === 'archived' && (
        <div class="alert alert-warning" role="status">
          <p>
            <strong>This project is archived.</strong> It is read-only, and its clients are suspended: sign-ins and token requests for them
            are refused until the project is active again.
            {project.capabilities.includes('manage_project') && (
              <>
                {' '}
                You can un-archive it in <Link to={projectPath(project, '/settings')}>Settings</Link>.
              </>
            )}
          </p>
        </div>
      )}

      <nav class="tabs" aria-label="Project sections">
        {TABS.map((entry) => (
          <Link key={entry.id} to={projectPath(project, entry.path)} aria-current={entry.covers.includes(tab) ? 'page' : undefined}>
            {entry.label}
          </Link>
        ))}
      </nav>

      <div class="tab-panel">{panelFor(tab, context, clientId)}</div>
    </>
  );
}

function panelFor(tab: ProjectTab, context: ProjectContext, clientId: string | undefined) {
  switch (tab) {
    case 'clients':
      return <ClientsPanel {...context} />;
    case 'register-client':
      return can(context.project, 'write_clients') ? <RegisterClientPanel {...context} /> : <ClientsPanel {...context} />;
    case 'client':
      return <ClientDetailPanel key={clientId} {...context} clientId={clientId ?? ''} />;
    case 'members':
      return <MembersPanel {...context} />;
    case 'audit':
      return <AuditPanel {...context} />;
    case 'settings':
      return <ProjectSettingsPanel {...context} />;
  }
}
