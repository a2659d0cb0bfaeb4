import { api, unwrap } from '../api/client.ts';
import { PageHeader } from '../components/page-header.tsx';
import { t } from '../i18n.ts';
import { useResource } from '../use-resource.ts';
import { AuditTrail } from './audit-trail.tsx';

/** The administrators' trail: changes outside projects, filtered by action and by person. */
export function AdminAuditPage() {
  // The person filter offers the newest 200 people; anyone else is still found through the action filter and paging.
  const people = useResource('admin-audit-people', () => unwrap(api.GET('/admin/users', { params: { query: { limit: '200' } } })).then((r) => r.users));
  return (
    <>
      <PageHeader title={t('console.adminAudit.title')}>
        <p class="muted">{t('console.adminAudit.intro')}</p>
      </PageHeader>
      <AuditTrail
        trailKey="admin-audit"
        load={(query) => unwrap(api.GET('/admin/audit-logs', { params: { query } })).then((r) => r.auditLogs)}
        caption={(page) => t('console.adminAudit.caption', { page })}
        people={people.data ?? []}
      />
    </>
  );
}
