import { cliActor, type Actor } from '../../src/domain/actor.ts';
import type { Project } from '../../src/services/shared/types.ts';
import type { TestContext } from '../helpers/context.ts';

export type CastRole = 'owner' | 'maintainer' | 'viewer' | 'outsider' | 'admin';
export type Cast = Record<CastRole, Actor>;

let counter = 0;

/** Five signed-in people: a project's owner, maintainer and viewer, someone outside it, and an administrator. */
export async function createCast(ctx: TestContext): Promise<Cast> {
  const tag = `${Date.now().toString(36)}${(counter++).toString(36)}`;
  const make = async (role: CastRole): Promise<Actor> => {
    const user = await ctx.services.users.createUser(cliActor, {
      account: `${role}-${tag}`,
      displayName: `${role} ${tag}`,
      password: 'a long enough password',
      isAdmin: role === 'admin',
    });
    return { subjectId: user.subjectId, isAdmin: role === 'admin', surface: 'agent', ip: '192.0.2.7' };
  };
  return {
    owner: await make('owner'),
    maintainer: await make('maintainer'),
    viewer: await make('viewer'),
    outsider: await make('outsider'),
    admin: await make('admin'),
  };
}

/** A project owned by cast.owner with cast.maintainer and cast.viewer as members; returned at its current version. */
export async function createCastProject(ctx: TestContext, cast: Cast, name = 'Project'): Promise<Project> {
  const project = await ctx.services.projects.createProject(cast.owner, { name });
  await ctx.services.members.addMember(cast.owner, project.projectId, { subjectId: cast.maintainer.subjectId!, role: 'maintainer', expectedProjectVersion: 1 });
  const { project: current } = await ctx.services.members.addMember(cast.owner, project.projectId, {
    subjectId: cast.viewer.subjectId!,
    role: 'viewer',
    expectedProjectVersion: 2,
  });
  return current;
}

export const webClientInput = {
  clientType: 'web' as const,
  displayName: 'Web app',
  redirectUris: ['https://rp.example.com/callback'],
  scopeWhitelist: ['openid', 'profile', 'offline_access'],
};

export const spaClientInput = {
  clientType: 'spa' as const,
  displayName: 'Single-page app',
  redirectUris: ['http://localhost:5173/callback'],
  scopeWhitelist: ['openid', 'email'],
};

/** Every row the management services write, to prove a refused call wrote nothing. */
export async function snapshotManagementTables(ctx: TestContext): Promise<string> {
  const db = ctx.db;
  const tables = {
    projects: await db.selectFrom('projects').selectAll().orderBy('project_id').execute(),
    project_members: await db.selectFrom('project_members').selectAll().orderBy('project_id').orderBy('subject_id').execute(),
    clients: await db.selectFrom('clients').selectAll().orderBy('client_id').execute(),
    client_revisions: await db.selectFrom('client_revisions').selectAll().orderBy('client_id').orderBy('revision').execute(),
    client_secrets: await db.selectFrom('client_secrets').selectAll().orderBy('secret_id').execute(),
    audit_log: await db.selectFrom('audit_log').selectAll().orderBy('audit_id').execute(),
  };
  return JSON.stringify(tables);
}

/** Runs a call that must be refused with `code`, and checks that it wrote nothing at all. */
export async function expectRefusedUnchanged(ctx: TestContext, code: string, call: () => Promise<unknown>): Promise<void> {
  const before = await snapshotManagementTables(ctx);
  let failure: unknown;
  try {
    await call();
  } catch (error) {
    failure = error;
  }
  if (!failure) throw new Error(`expected ${code}, but the call succeeded`);
  if ((failure as { code?: unknown }).code !== code) throw new Error(`expected ${code}, got ${String((failure as { code?: unknown }).code)}: ${(failure as Error).message}`, { cause: failure });
  const after = await snapshotManagementTables(ctx);
  if (after !== before) throw new Error(`a refused call (${code}) changed stored data`);
}

/**
 * The same person in a console session that proved them just now: the person-only use cases (DESIGN.md
 * section 14) refuse every other surface, and a proof older than REAUTH_WINDOW_SECONDS.
 */
export const inFreshConsole = (actor: Actor, ctx: Pick<TestContext, 'clock'>): Actor => ({ ...actor, surface: 'console', provenAt: ctx.clock.now() });
