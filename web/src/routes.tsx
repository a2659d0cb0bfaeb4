import type { SessionUser } from './api/types.ts';
import { AccountLayout, accountSectionFor } from './pages/account-layout.tsx';
import { AdminAssistantGrantsPage } from './pages/admin-assistant-grants-page.tsx';
import { AdminAuditPage } from './pages/admin-audit-page.tsx';
import { AdminGroupsPage } from './pages/admin-groups-page.tsx';
import { AdminIdentityProvidersPage } from './pages/admin-identity-providers-page.tsx';
import { AdminSettingsPage } from './pages/admin-settings-page.tsx';
import { AdminUsersPage } from './pages/admin-users-page.tsx';
import { NotFoundPage } from './pages/not-found-page.tsx';
import { ProjectLayout, type ProjectTab } from './pages/project-layout.tsx';
import { ProjectsPage } from './pages/projects-page.tsx';
import { matchPath } from './router.ts';

const projectRoutes: [string, ProjectTab][] = [
  ['/projects/:projectId', 'clients'],
  ['/projects/:projectId/clients', 'clients'],
  ['/projects/:projectId/clients/new', 'register-client'],
  ['/projects/:projectId/clients/:clientId', 'client'],
  ['/projects/:projectId/members', 'members'],
  ['/projects/:projectId/audit', 'audit'],
  ['/projects/:projectId/settings', 'settings'],
];

/** The page for a path below /console. */
export function routeFor(path: string, user: SessionUser) {
  if (path === '/' || path === '/projects') return <ProjectsPage />;
  const accountSection = accountSectionFor(path);
  if (accountSection) return <AccountLayout section={accountSection} />;
  if (path === '/admin/users') return user.isAdmin ? <AdminUsersPage /> : <NotFoundPage />;
  if (path === '/admin/assistant-grants') return user.isAdmin ? <AdminAssistantGrantsPage /> : <NotFoundPage />;
  if (path === '/admin/identity-providers') return user.isAdmin ? <AdminIdentityProvidersPage /> : <NotFoundPage />;
  if (path === '/admin/settings') return user.isAdmin ? <AdminSettingsPage /> : <NotFoundPage />;
  if (path === '/admin/audit') return user.isAdmin ? <AdminAuditPage /> : <NotFoundPage />;
  if (path === '/admin/groups') return user.isAdmin ? <AdminGroupsPage /> : <NotFoundPage />;
  for (const [pattern, tab] of projectRoutes) {
    const params = matchPath(pattern, path);
    if (params?.projectId) {
      return <ProjectLayout key={params.projectId} projectId={params.projectId} tab={tab} clientId={params.clientId} />;
    }
  }
  return <NotFoundPage />;
}
