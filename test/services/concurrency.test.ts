import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { AppError } from '../../src/errors.ts';
import { createServices, type Services } from '../../src/services/index.ts';
import { openDatabase, type OpenedDatabase } from '../../src/storage/database.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createCast, createCastProject, webClientInput, type Cast } from './fixtures.ts';

const WRITERS = 20;

/** Starts every call at once and sorts the outcomes into the one winner and the refusal codes. */
async function race<T>(calls: Array<() => Promise<T>>): Promise<{ winners: Array<{ index: number; value: T }>; codes: string[] }> {
  const settled = await Promise.allSettled(calls.map((call) => call()));
  const winners: Array<{ index: number; value: T }> = [];
  const codes: string[] = [];
  settled.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') winners.push({ index, value: outcome.value });
    else codes.push(outcome.reason instanceof AppError ? outcome.reason.code : `unexpected: ${String(outcome.reason)}`);
  });
  return { winners, codes };
}

describe.each(TEST_ENGINES)('optimistic locking under %d simultaneous writers on %s'.replace('%d', String(WRITERS)), (engine) => {
  let ctx: TestContext;
  let cast: Cast;
  // PostgreSQL gets a pool wide enough for every writer to hold its own connection at once;
  // SQLite runs as the server does, one connection per process.
  let wide: OpenedDatabase | undefined;
  let services: Services;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    cast = await createCast(ctx);
    if (engine === 'postgres') {
      wide = openDatabase(ctx.databaseUrl, { poolSize: WRITERS + 5 });
      services = createServices({ db: wide.db, engine: wide.engine, clock: ctx.clock });
    } else {
      services = ctx.services;
    }
  });
  afterAll(async () => {
    await wide?.close();
    await ctx.close();
  });

  it('project update: exactly one success, the rest version_conflict, and the winner is stored', async () => {
    const project = await createCastProject(ctx, cast, 'Contended');
    const { winners, codes } = await race(
      Array.from({ length: WRITERS }, (_, i) => () =>
        services.projects.updateProject(cast.owner, project.projectId, { expectedProjectVersion: project.version, name: `Name ${i}`, description: `by writer ${i}` }),
      ),
    );
    expect(winners).toHaveLength(1);
    expect(codes).toEqual(Array(WRITERS - 1).fill('version_conflict'));
    const winner = winners[0]!;
    const stored = await ctx.db.selectFrom('projects').selectAll().where('project_id', '=', project.projectId).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ name: `Name ${winner.index}`, description: `by writer ${winner.index}`, version: project.version + 1 });
    expect(winner.value.version).toBe(project.version + 1);
    const updates = await ctx.db.selectFrom('audit_log').selectAll().where('project_id', '=', project.projectId).where('action', '=', 'project.update').execute();
    expect(updates).toHaveLength(1);
    expect(JSON.parse(updates[0]!.after_json!)).toEqual({ name: `Name ${winner.index}`, description: `by writer ${winner.index}` });
  });

  it('client revision: exactly one success, the rest version_conflict, and the winner is stored', async () => {
    const project = await createCastProject(ctx, cast, 'Contended clients');
    const { client } = await ctx.services.clients.registerClient(cast.maintainer, project.projectId, webClientInput);
    const { winners, codes } = await race(
      Array.from({ length: WRITERS }, (_, i) => () =>
        services.clients.reviseClientConfiguration(cast.maintainer, project.projectId, client.clientId, {
          clientVersion: client.clientVersion,
          redirectUris: [`https://rp.example.com/callback/${i}`],
          scopeWhitelist: ['openid', 'email'],
        }),
      ),
    );
    expect(winners).toHaveLength(1);
    expect(codes).toEqual(Array(WRITERS - 1).fill('version_conflict'));
    const winner = winners[0]!;
    const stored = await ctx.db.selectFrom('clients').selectAll().where('client_id', '=', client.clientId).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ redirect_uris: JSON.stringify([`https://rp.example.com/callback/${winner.index}`]), client_version: 2, revision: 2 });
    const revisions = await ctx.db.selectFrom('client_revisions').selectAll().where('client_id', '=', client.clientId).orderBy('revision').execute();
    expect(revisions.map((r) => [r.revision, r.redirect_uris])).toEqual([
      [1, JSON.stringify(webClientInput.redirectUris)],
      [2, JSON.stringify([`https://rp.example.com/callback/${winner.index}`])],
    ]);
    expect(winner.value).toMatchObject({ clientVersion: 2, revision: 2 });
  });

  it('member additions and secret rotations race the same way', async () => {
    const project = await createCastProject(ctx, cast, 'Contended members');
    const users = [];
    for (let i = 0; i < WRITERS; i++) {
      users.push(await ctx.services.users.createUser(cliActor, { account: `racer-${engine}-${i}`, displayName: `Racer ${i}`, password: 'a long enough password' }));
    }
    const members = await race(
      users.map((user) => () => services.members.addMember(cast.owner, project.projectId, { subjectId: user.subjectId, expectedProjectVersion: project.version })),
    );
    expect(members.winners).toHaveLength(1);
    expect(members.codes).toEqual(Array(WRITERS - 1).fill('version_conflict'));
    const stored = await ctx.db.selectFrom('project_members').select('subject_id').where('project_id', '=', project.projectId).execute();
    expect(stored).toHaveLength(4);
    expect(stored.map((m) => m.subject_id)).toContain(users[members.winners[0]!.index]!.subjectId);

    const { client } = await ctx.services.clients.registerClient(cast.maintainer, project.projectId, webClientInput);
    const rotations = await race(
      Array.from({ length: WRITERS }, () => () => services.clients.rotateClientSecret(cast.maintainer, project.projectId, client.clientId, { clientVersion: 1 })),
    );
    expect(rotations.winners).toHaveLength(1);
    expect(rotations.codes).toEqual(Array(WRITERS - 1).fill('version_conflict'));
    const secrets = await ctx.db.selectFrom('client_secrets').select(['secret_id', 'status']).where('client_id', '=', client.clientId).execute();
    expect(secrets.filter((s) => s.status === 'active').map((s) => s.secret_id)).toEqual([rotations.winners[0]!.value.secret.secretId]);
    expect(secrets).toHaveLength(2);
  });
});
