import { t } from '../i18n.ts';
import { api, unwrap } from '../api/client.ts';
import { PanelHeader } from '../components/panel-header.tsx';
import { sessionUser } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { AuditTrail, type AuditPerson } from './audit-trail.tsx';
import type { ProjectContext } from './project-context.ts';

/** The project's audit trail, newest first, filtered by action and by member. */
export function AuditPanel({ project }: ProjectContext) {
  const members = useResource(`audit-members:${project.projectId}`, () =>
    unwrap(api.GET('/projects/{projectId}/members', { params: { path: { projectId: project.projectId } } })).then((r) => r.members),
  );
  const me = sessionUser();
  const people: AuditPerson[] = [...(members.data ?? [])];
  if (me && !people.some((person) => person.subjectId === me.subjectId)) people.push(me);

  return (
    <section>
      <PanelHeader title={t('console.project.tab.audit')}>
        <p class="muted small">{t('console.audit.intro')}</p>
      </PanelHeader>
      <AuditTrail
        trailKey={`audit-${project.projectId}`}
        load={(query) => unwrap(api.GET('/projects/{projectId}/audit-logs', { params: { path: { projectId: project.projectId }, query } })).then((r) => r.auditLogs)}
        caption={(page) => t('console.audit.caption', { name: project.name, page })}
        people={people}
      />
    </section>
  );
}
