import { afterAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/digests.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { createAccounts } from '../api/helpers/users.ts';
import { createTestContext } from '../helpers/context.ts';
import { createTestDatabase, TEST_ENGINES } from '../helpers/engines.ts';
import { integrityProblems } from '../helpers/integrity-check.ts';
import { agentOver, killAllSesame, startSesame } from '../helpers/sesame-process.ts';

const MEMBER_WORKERS = 3;
const CLIENT_WORKERS = 3;
const USERS_PER_MEMBER_WORKER = 20;
/** Acknowledged writes before the kill: enough to be a burst, early enough that every worker is mid-stream. */
const KILL_AFTER_ACKS = 45;

interface AckedClient {
  clientId: string;
  projectId: string;
  clientType: 'web' | 'spa';
  clientVersion: number;
  /** The plaintext secret of the last acknowledged registration or rotation (web clients). */
  secret?: string;
}

interface AckedMember {
  projectId: string;
  subjectId: string;
  role: string;
  projectVersion: number;
}

afterAll(() => killAllSesame());

/**
 * SIGKILL in the middle of a burst of writes through the Agent API (client registrations with
 * secrets, secret rotations, member additions) loses no write the client saw acknowledged and
 * leaves no half-made object: after a restart every 2xx is in the database, each acknowledged
 * secret is the one stored, and the integrity check (engine and audit-log invariants) is clean.
 */
describe.each(TEST_ENGINES)('a Sesame process killed during a burst of writes, on %s', (engine) => {
  it('keeps every acknowledged write and no half-made object', { timeout: 180_000 }, async () => {
    const database = await createTestDatabase(engine);
    try {
      const first = await startSesame({ databaseUrl: database.url });
      const agent = agentOver(first.url);
      await agent.login();

      const memberProjects: { projectId: string; version: number }[] = [];
      for (let i = 0; i < MEMBER_WORKERS; i += 1) {
        const created = await agent.call('POST', '/projects', { name: `Members ${i}` });
        memberProjects.push({ projectId: created.body.project.projectId, version: created.body.project.version });
      }
      const clientProject = (await agent.call('POST', '/projects', { name: 'Clients' })).body.project.projectId as string;
      const people: string[] = [];
      for (let i = 0; i < MEMBER_WORKERS * USERS_PER_MEMBER_WORKER; i += 1) {
        const created = await agent.call('POST', '/admin/users', { account: `person${i}`, displayName: `Person ${i}`, password: 'a long enough password' });
        expect(created.status, created.text).toBe(201);
        people.push(created.body.user.subjectId);
      }

      const clients = new Map<string, AckedClient>();
      const added: AckedMember[] = [];
      let acks = 0;
      let inFlightLost = 0;
      let killed = false;
      const acknowledge = () => {
        acks += 1;
        if (acks >= KILL_AFTER_ACKS && !killed) {
          killed = true;
          first.signal('SIGKILL');
        }
      };
      // A worker writes until its request fails: the kill breaks the one in flight, then nothing answers.
      const worker = async (work: () => Promise<boolean>) => {
        try {
          while (await work());
        } catch {
          inFlightLost += 1;
        }
      };

      const memberWorker = (index: number) => {
        const project = memberProjects[index]!;
        let next = index * USERS_PER_MEMBER_WORKER;
        const last = next + USERS_PER_MEMBER_WORKER;
        return worker(async () => {
          if (next >= last) return false;
          const subjectId = people[next]!;
          const role = next % 2 === 0 ? 'maintainer' : 'viewer';
          const response = await agent.call('POST', `/projects/${project.projectId}/members`, { subjectId, role, expectedProjectVersion: project.version });
          if (response.status !== 201) throw new Error(`member add answered ${response.status} ${response.text}`);
          project.version = response.body.project.version;
          added.push({ projectId: project.projectId, subjectId, role, projectVersion: project.version });
          next += 1;
          acknowledge();
          return true;
        });
      };

      const clientWorker = (index: number) => {
        let current: AckedClient | undefined;
        let rotations = 0;
        return worker(async () => {
          if (!current || rotations >= 2 || current.clientType === 'spa') {
            const clientType = index === 0 && clients.size % 3 === 2 ? 'spa' : 'web';
            const response = await agent.call('POST', `/projects/${clientProject}/clients`, {
              clientType,
              displayName: `Burst ${index}.${clients.size}`,
              redirectUris: [`https://rp${index}.example.com/cb`],
              scopeWhitelist: ['openid', 'profile'],
            });
            if (response.status !== 201) throw new Error(`registration answered ${response.status} ${response.text}`);
            current = { clientId: response.body.client.clientId, projectId: clientProject, clientType, clientVersion: response.body.client.clientVersion, ...(clientType === 'web' ? { secret: response.body.clientSecret } : {}) };
            rotations = 0;
          } else {
            const response = await agent.call('POST', `/projects/${clientProject}/clients/${current.clientId}/secrets/rotate`, { clientVersion: current.clientVersion, gracePeriodSeconds: 0 });
            if (response.status !== 201) throw new Error(`rotation answered ${response.status} ${response.text}`);
            current = { ...current, clientVersion: response.body.client.clientVersion, secret: response.body.clientSecret };
            rotations += 1;
          }
          clients.set(current.clientId, current);
          acknowledge();
          return true;
        });
      };

      await Promise.all([...Array.from({ length: MEMBER_WORKERS }, (_, i) => memberWorker(i)), ...Array.from({ length: CLIENT_WORKERS }, (_, i) => clientWorker(i))]);
      const exit = await first.exited;
      expect(killed, `the burst ended before the kill (${acks} acknowledged)`).toBe(true);
      expect(exit.signal).toBe('SIGKILL');
      // Killed mid-burst: requests were in flight when the process died.
      expect(inFlightLost).toBeGreaterThan(0);
      expect(clients.size).toBeGreaterThan(3);
      expect(added.length).toBeGreaterThan(3);

      const second = await startSesame({ databaseUrl: database.url });
      const opened = openDatabase(database.url);
      try {
        expect(await integrityProblems(opened.db, engine)).toEqual([]);

        const unchangedSinceAck: AckedClient[] = [];
        for (const client of clients.values()) {
          const row = await opened.db.selectFrom('clients').selectAll().where('client_id', '=', client.clientId).executeTakeFirst();
          expect(row, `acknowledged client ${client.clientId} is missing`).toBeDefined();
          expect(row!.client_version).toBeGreaterThanOrEqual(client.clientVersion);
          if (client.secret) {
            const stored = await opened.db.selectFrom('client_secrets').select(['status']).where('client_id', '=', client.clientId).where('digest', '=', sha256Hex(client.secret)).executeTakeFirst();
            expect(stored, `the acknowledged secret of ${client.clientId} is not stored`).toBeDefined();
            // Only a later rotation (acknowledged or lost in flight) may have replaced it.
            if (row!.client_version === client.clientVersion) {
              expect(stored!.status).toBe('active');
              unchangedSinceAck.push(client);
            }
          }
        }
        for (const member of added) {
          const row = await opened.db.selectFrom('project_members').selectAll().where('project_id', '=', member.projectId).where('subject_id', '=', member.subjectId).executeTakeFirst();
          expect(row?.role, `acknowledged member ${member.subjectId} is missing`).toBe(member.role);
          const project = await opened.db.selectFrom('projects').select('version').where('project_id', '=', member.projectId).executeTakeFirstOrThrow();
          expect(project.version).toBeGreaterThanOrEqual(member.projectVersion);
        }

        // The restarted process serves what was acknowledged, and an acknowledged secret still authenticates.
        const again = agentOver(second.url);
        await again.login();
        for (const client of clients.values()) {
          const read = await again.call('GET', `/projects/${client.projectId}/clients/${client.clientId}`);
          expect(read.status).toBe(200);
          expect(read.body.client.clientVersion).toBeGreaterThanOrEqual(client.clientVersion);
        }
        expect(unchangedSinceAck.length).toBeGreaterThan(0);
        for (const current of unchangedSinceAck) {
          const token = await fetch(`${second.url}/token`, {
            method: 'POST',
            headers: { authorization: `Basic ${Buffer.from(`${current.clientId}:${current.secret!}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ grant_type: 'authorization_code', code: 'no-such-code', redirect_uri: 'https://rp0.example.com/cb', code_verifier: 'x'.repeat(43) }),
          });
          // Authenticated, then refused for the made-up code: the secret survived the crash.
          expect(((await token.json()) as { error: string }).error).toBe('invalid_grant');
        }
      } finally {
        await opened.close();
        second.signal('SIGTERM');
        await second.exited;
      }
    } finally {
      await killAllSesame();
      await database.drop();
    }
  });
});

describe.each(TEST_ENGINES)('the integrity check itself, on %s', (engine) => {
  it('finds a web client without its secret, a member without the version bump, a change without its audit entry', async () => {
    const ctx = await createTestContext(engine);
    try {
      const { owner, other } = await createAccounts(ctx.services, ['owner', 'other'], ['owner']);
      const actor = { subjectId: owner.subjectId, isAdmin: true, surface: 'cli' as const, ip: null };
      const project = await ctx.services.projects.createProject(actor, { name: 'Checked' });
      const { client } = await ctx.services.clients.registerClient(actor, project.projectId, { clientType: 'web', displayName: 'Web', redirectUris: ['https://rp.example.com/cb'], scopeWhitelist: ['openid'] });
      await ctx.services.members.addMember(actor, project.projectId, { subjectId: other.subjectId, expectedProjectVersion: project.version });
      expect(await integrityProblems(ctx.db, engine)).toEqual([]);

      await ctx.db.deleteFrom('client_secrets').where('client_id', '=', client.clientId).execute();
      await ctx.db.updateTable('projects').set({ version: 1 }).where('project_id', '=', project.projectId).execute();
      await ctx.db.deleteFrom('audit_log').where('action', '=', 'client.create').execute();
      expect(await integrityProblems(ctx.db, engine)).toEqual([
        `project ${project.projectId}: version 1 but 1 audited changes`,
        `client ${client.clientId}: 0 creation audit entries`,
        `web client ${client.clientId}: 0 active secrets`,
        `web client ${client.clientId}: 0 secrets but 0 audited rotations`,
      ]);
    } finally {
      await ctx.close();
    }
  });
});
