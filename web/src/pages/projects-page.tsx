import { api, unwrap } from '../api/client.ts';
import { t, tWith } from '../i18n.ts';
import { Badge } from '../components/badge.tsx';
import { Link } from '../components/link.tsx';
import { LoadState } from '../components/load-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { Time } from '../components/time.tsx';
import { ROLE_TONE, roleLabel, roleName } from '../roles.ts';
import { navigate } from '../router.ts';
import { useResource } from '../use-resource.ts';
import { useState } from 'preact/hooks';
import { CreateProjectDialog } from './create-project-dialog.tsx';

export function ProjectsPage() {
  const projects = useResource('projects', () => unwrap(api.GET('/projects')).then((r) => r.projects));
  const [creating, setCreating] = useState(false);
  const sorted = [...(projects.data ?? [])].sort((a, b) => (a.status === b.status ? a.name.localeCompare(b.name) : a.status === 'active' ? -1 : 1));

  return (
    <>
      <PageHeader
        title={t('console.projects.title')}
        actions={
          <button type="button" class="button button-primary" onClick={() => setCreating(true)}>
            {t('console.projects.new')}
          </button>
        }
      >
        <p class="muted">{t('console.projects.intro')}</p>
      </PageHeader>

      <LoadState resource={projects} what={t('console.what.projects')} />
      {projects.data && sorted.length === 0 && (
        <div class="empty card">
          <h2>{t('console.projects.emptyTitle')}</h2>
          <p>{t('console.projects.empty')}</p>
        </div>
      )}
      {sorted.length > 0 && (
        <ul class="project-grid" aria-label={t('console.projects.listLabel')}>
          {sorted.map((project) => (
            <li key={project.projectId} class="card project-card">
              <h2 class="project-card-title">
                <Link to={`/projects/${encodeURIComponent(project.projectId)}`}>{project.name}</Link>
              </h2>
              <p class="project-card-description muted">{project.description || t('console.projects.noDescription')}</p>
              <div class="project-card-meta">
                <Badge tone={ROLE_TONE[roleLabel(project)]}>
                  <span class="visually-hidden">{t('console.projects.yourRole')}</span>
                  {roleName(roleLabel(project))}
                </Badge>
                {project.status === 'archived' && <Badge tone="warning">{t('console.projects.archived')}</Badge>}
                <span class="small muted">
                  {tWith('console.projects.updated', { time: <Time value={project.updatedAt} /> })}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}

      <CreateProjectDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(project) => navigate(`/projects/${encodeURIComponent(project.projectId)}`)}
      />
    </>
  );
}
