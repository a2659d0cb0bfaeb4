import type { Actor } from '../../../src/domain/actor.ts';
import type { ConsoleServer } from './console-server.ts';

export const consoleActor = (subjectId: string): Actor => ({ subjectId, isAdmin: false, surface: 'console', ip: '127.0.0.1' });

/**
 * A project with a web and a spa client, a second member and more audit entries than one page holds.
 * The clock moves a second between writes, so entries have distinct times (the audit API pages by time).
 */
export async function seedProject(server: ConsoleServer, ownerSubjectId: string, memberSubjectId: string) {
  const owner = consoleActor(ownerSubjectId);
  const tick = () => server.clock.advance(1000);
  let project = await server.services.projects.createProject(owner, { name: 'Storefront', description: 'The shop, its admin and the mobile app' });
  tick();
  const web = await server.services.clients.registerClient(owner, project.projectId, {
    clientType: 'web',
    displayName: 'Storefront admin',
    description: 'Back office',
    redirectUris: ['https://admin.shop.example/callback'],
    postLogoutRedirectUris: ['https://admin.shop.example/'],
    scopeWhitelist: ['openid', 'profile', 'email', 'offline_access'],
  });
  tick();
  const spa = await server.services.clients.registerClient(owner, project.projectId, {
    clientType: 'spa',
    displayName: 'Storefront app',
    redirectUris: ['https://shop.example/callback', 'com.example.shop:/callback'],
    scopeWhitelist: ['openid', 'profile', 'student'],
  });
  tick();
  ({ project } = await server.services.members.addMember(owner, project.projectId, { subjectId: memberSubjectId, role: 'maintainer', expectedProjectVersion: project.version }));
  for (let i = 1; i <= 24; i += 1) {
    tick();
    project = await server.services.projects.updateProject(owner, project.projectId, { expectedProjectVersion: project.version, description: `The shop, revision ${i}` });
  }
  return { project, web: web.client, spa: spa.client };
}
