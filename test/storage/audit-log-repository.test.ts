import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuditLogEntry, AuditRecord } from '../../src/storage/repositories/audit-log-repository.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';

const aRecord = (projectId: string, overrides: Partial<AuditRecord> = {}): AuditRecord => ({
  at: 1_000,
  actorSubjectId: null,
  surface: 'system',
  ip: null,
  viaClientId: null,
  action: 'project.update',
  targetType: 'project',
  targetId: projectId,
  projectId,
  before: null,
  after: null,
  ...overrides,
});

describe.each(TEST_ENGINES)('audit log repository on %s', (engine) => {
  const suite = useMigratedStore(engine);

  const aProject = () => `prj_${randomUUID().slice(0, 12)}`;

  /** Every entry of the project, one page after another, each page starting after the last entry of the one before. */
  async function pageThrough(projectId: string, limit: number): Promise<AuditLogEntry[]> {
    const seen: AuditLogEntry[] = [];
    for (;;) {
      const last = seen.at(-1);
      const position = last && (await suite.store.repos.auditLog.positionInProject(projectId, last.auditId));
      const page = await suite.store.repos.auditLog.listForProject(projectId, { limit, before: position ? { position } : undefined });
      if (page.length === 0) return seen;
      seen.push(...page);
    }
  }

  it('reads back what it appended, with the actor\'s current account name', async () => {
    const projectId = aProject();
    const actor = randomUUID();
    await suite.store.repos.users.insert(
      { subjectId: actor, account: 'Auditor', displayName: 'A', email: null, emailVerified: false, studentStatus: 'unknown', isAdmin: false, status: 'active', createdAt: 1, updatedAt: 1 },
      'hash',
    );
    await suite.store.repos.auditLog.append(aRecord(projectId, { at: 2_000, actorSubjectId: actor, surface: 'agent', ip: '192.0.2.1', before: { name: 'Old' }, after: { name: 'New', tags: ['x'] } }));
    await suite.store.repos.auditLog.append(aRecord(projectId, { at: 3_000, actorSubjectId: randomUUID(), surface: 'console', action: 'client.create', targetType: 'client', targetId: 'cli_1' }));
    const entries = await suite.store.repos.auditLog.listForProject(projectId, { limit: 10 });
    expect(entries).toEqual([
      {
        auditId: expect.any(String) as string,
        at: 3_000,
        actorSubjectId: expect.any(String) as string,
        actorAccount: null,
        surface: 'console',
        action: 'client.create',
        targetType: 'client',
        targetId: 'cli_1',
        before: null,
        after: null,
        ip: null,
        viaClientId: null,
        viaClientName: null,
      },
      {
        auditId: expect.any(String) as string,
        at: 2_000,
        actorSubjectId: actor,
        actorAccount: 'Auditor',
        surface: 'agent',
        action: 'project.update',
        targetType: 'project',
        targetId: projectId,
        before: { name: 'Old' },
        after: { name: 'New', tags: ['x'] },
        ip: '192.0.2.1',
        viaClientId: null,
        viaClientName: null,
      },
    ]);
  });

  it('keeps the name of the assistant an entry was made through', async () => {
    const projectId = aProject();
    const documentAssistant = 'https://assistant.example.com/client.json';
    await suite.store.repos.auditLog.append(aRecord(projectId, { at: 5_000, surface: 'mcp', viaClientId: documentAssistant, viaClientName: 'Doc Assistant' }));
    // Written before names were kept: no registered client of that id, so no name either.
    await suite.store.repos.auditLog.append(aRecord(projectId, { at: 6_000, surface: 'mcp', viaClientId: 'cli_gone' }));
    const entries = await suite.store.repos.auditLog.listForProject(projectId, { limit: 10 });
    expect(entries.map((entry) => [entry.viaClientId, entry.viaClientName])).toEqual([['cli_gone', null], [documentAssistant, 'Doc Assistant']]);
  });

  it('lists newest first, at most limit entries, and only the project\'s own', async () => {
    const projectId = aProject();
    const elsewhere = aProject();
    for (const at of [10, 30, 20, 40]) await suite.store.repos.auditLog.append(aRecord(projectId, { at }));
    await suite.store.repos.auditLog.append(aRecord(elsewhere, { at: 50 }));
    await suite.store.repos.auditLog.append(aRecord(projectId, { at: 60, projectId: null }));
    expect((await suite.store.repos.auditLog.listForProject(projectId, { limit: 10 })).map((e) => e.at)).toEqual([40, 30, 20, 10]);
    expect((await suite.store.repos.auditLog.listForProject(projectId, { limit: 2 })).map((e) => e.at)).toEqual([40, 30]);
    expect((await suite.store.repos.auditLog.listForProject(projectId, { limit: 10, before: { at: 30 } })).map((e) => e.at)).toEqual([20, 10]);
    expect(await suite.store.repos.auditLog.listForProject(aProject(), { limit: 10 })).toEqual([]);
  });

  it('pages by auditId through entries written in the same millisecond, skipping and repeating none', async () => {
    const projectId = aProject();
    for (let i = 0; i < 7; i++) await suite.store.repos.auditLog.append(aRecord(projectId, { at: 5_000, targetId: `t${i}` }));
    await suite.store.repos.auditLog.append(aRecord(projectId, { at: 4_000, targetId: 'older' }));
    await suite.store.repos.auditLog.append(aRecord(projectId, { at: 6_000, targetId: 'newer' }));
    const all = await suite.store.repos.auditLog.listForProject(projectId, { limit: 100 });
    expect(all).toHaveLength(9);
    for (const limit of [1, 2, 3, 4]) {
      const paged = await pageThrough(projectId, limit);
      expect(paged.map((e) => e.auditId)).toEqual(all.map((e) => e.auditId));
    }
    // A time cursor cannot do this: it skips the rest of the millisecond.
    expect((await suite.store.repos.auditLog.listForProject(projectId, { limit: 100, before: { at: 5_000 } })).map((e) => e.targetId)).toEqual(['older']);
  });

  it('places an auditId only within its own project', async () => {
    const projectId = aProject();
    const elsewhere = aProject();
    await suite.store.repos.auditLog.append(aRecord(projectId, { at: 7_000 }));
    const [entry] = await suite.store.repos.auditLog.listForProject(projectId, { limit: 1 });
    expect(await suite.store.repos.auditLog.positionInProject(projectId, entry!.auditId)).toEqual({ at: 7_000, auditId: entry!.auditId });
    expect(await suite.store.repos.auditLog.positionInProject(elsewhere, entry!.auditId)).toBeUndefined();
    expect(await suite.store.repos.auditLog.positionInProject(projectId, 'aud_0_unknown')).toBeUndefined();
  });

  it('finds nothing for a project or auditId no row can hold (NUL, unpaired surrogate)', async () => {
    for (const text of ['prj_\u0000', 'prj_\uD800', 'aud_\u0000x']) {
      expect(await suite.store.repos.auditLog.listForProject(text, { limit: 10 })).toEqual([]);
      expect(await suite.store.repos.auditLog.positionInProject(text, 'aud_x')).toBeUndefined();
      expect(await suite.store.repos.auditLog.positionInProject('prj_x', text)).toBeUndefined();
    }
  });

  it('writes nothing when the transaction it wrote in rolls back', async () => {
    const projectId = aProject();
    await expect(
      suite.store.transaction(async (repos) => {
        await repos.auditLog.append(aRecord(projectId));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await suite.store.repos.auditLog.listForProject(projectId, { limit: 10 })).toEqual([]);
  });
});
