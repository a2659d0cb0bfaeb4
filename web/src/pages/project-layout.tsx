import { api, unwrap } from '../api/client.ts';
import { t, tWith } from '../i18n.ts';
import { Badge } from '../components/badge.tsx';
import { Link } from '../components/link.tsx';
import { LoadError, Loading } from '../components/load-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { can, ROLE_TONE, roleLabel, roleName } from '../roles.ts';
import type { MessageKey } from '../../../src/i18n/catalogues.ts';
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

const TABS: { id: ProjectTab; label: MessageKey; path: string; covers: ProjectTab[] }[] = [
  { id: 'clients', label: 'console.project.tab.clients', path: '/clients', covers: ['clients', 'register-client', 'client'] },
  { id: 'members', label: 'console.project.tab.members', path: '/members', covers: ['members'] },
  { id: 'audit', label: 'console.project.tab.audit', path: '/audit', covers: ['audit'] },
  { id: 'settings', label: 'console.project.tab.settings', path: '/settings', covers: ['settings'] },
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
        context={<Link to="/">{t('console.nav.projects')}</Link>}
        badges={
          <>
            <Badge tone={ROLE_TONE[roleLabel(project)]}>
              <span class="visually-hidden">{t('console.projects.yourRole')}</span>
              {roleName(roleLabel(project))}
            </Badge>
            {project.status === 'archived' && <Badge tone="warning">{t('console.projects.archived')}</Badge>}
          </>
        }
      >
        {project.description && <p class="muted project-description">{project.description}</p>}
      </PageHeader>

      {project.status === 'archived' && (
        <div class="alert alert-warning" role="status">
          <p>
            <strong>{t('console.project.archivedTitle')}</strong> {t('console.project.archivedText')}
            {project.capabilities.includes('manage_project') && (
              <>
                {' '}
                {tWith('console.project.unarchiveIn', { settings: <Link to={projectPath(project, '/settings')}>{t('console.project.tab.settings')}</Link> })}
              </>
            )}
          </p>
        </div>
      )}

      <nav class="tabs" aria-label={t('console.project.sections')}>
        {TABS.map((entry) => (
          <Link key={entry.id} to={projectPath(project, entry.path)} aria-current={entry.covers.includes(tab) ? 'page' : undefined}>
            {t(entry.label)}
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
