import { sql } from 'kysely';
import type { Db, Engine } from '../../src/storage/database.ts';

const PROJECT_VERSION_ACTIONS = (action: string) => action.startsWith('member.') || (action.startsWith('project.') && action !== 'project.create');
const CLIENT_BIRTH_ACTIONS = new Set(['client.create', 'client.import']);

/**
 * What must hold in a database whatever happened to the process that wrote it (a crash, a kill):
 * the engine's own check, and no half-made object. Every write is one transaction with its audit
 * entry, so the audit log and the objects must tell the same story: a project's version is one
 * plus its audited changes, a client's version likewise, a web client has exactly one active secret
 * and one secret per audited rotation, every revision up to the current one exists, every member
 * and client has the audit entry that made it. Returns the problems found; none is the answer.
 */
export async function integrityProblems(db: Db, engine: Engine): Promise<string[]> {
  const problems: string[] = [];
  if (engine === 'sqlite') {
    const check = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(db);
    if (check.rows.map((row) => row.integrity_check).join() !== 'ok') problems.push(`sqlite integrity_check: ${JSON.stringify(check.rows)}`);
    const foreignKeys = await sql`PRAGMA foreign_key_check`.execute(db);
    if (foreignKeys.rows.length > 0) problems.push(`sqlite foreign_key_check: ${JSON.stringify(foreignKeys.rows)}`);
  }

  const audit = await db.selectFrom('audit_log').select(['action', 'target_type', 'target_id', 'project_id']).execute();
  const auditOf = (predicate: (entry: (typeof audit)[number]) => boolean) => audit.filter(predicate).length;

  const users = await db.selectFrom('users').select('subject_id').execute();
  for (const user of users) {
    const created = auditOf((a) => a.action === 'user.create' && a.target_id === user.subject_id);
    if (created !== 1) problems.push(`user ${user.subject_id}: ${created} user.create audit entries`);
  }

  const projects = await db.selectFrom('projects').select(['project_id', 'version']).execute();
  const members = await db.selectFrom('project_members').select(['project_id', 'subject_id', 'role']).execute();
  for (const project of projects) {
    const id = project.project_id;
    const changes = auditOf((a) => a.project_id === id && PROJECT_VERSION_ACTIONS(a.action));
    if (project.version !== 1 + changes) problems.push(`project ${id}: version ${project.version} but ${changes} audited changes`);
    const created = auditOf((a) => a.action === 'project.create' && a.target_id === id);
    if (created !== 1) problems.push(`project ${id}: ${created} project.create audit entries`);
    const own = members.filter((m) => m.project_id === id);
    if (own.filter((m) => m.role === 'owner').length !== 1) problems.push(`project ${id}: ${own.filter((m) => m.role === 'owner').length} owners`);
    for (const member of own.filter((m) => m.role !== 'owner')) {
      const added = auditOf((a) => a.action === 'member.add' && a.project_id === id && a.target_id === member.subject_id);
      const transferred = auditOf((a) => a.action === 'member.transfer_ownership' && a.project_id === id);
      if (added === 0 && transferred === 0) problems.push(`project ${id}: member ${member.subject_id} without a member.add audit entry`);
    }
    const expectedMembers = 1 + auditOf((a) => a.project_id === id && a.action === 'member.add') - auditOf((a) => a.project_id === id && a.action === 'member.remove');
    if (own.length !== expectedMembers) problems.push(`project ${id}: ${own.length} members but the audit log accounts for ${expectedMembers}`);
  }

  const clients = await db.selectFrom('clients').select(['client_id', 'client_type', 'client_version', 'revision']).execute();
  const secrets = await db.selectFrom('client_secrets').select(['client_id', 'status']).execute();
  const revisions = await db.selectFrom('client_revisions').select(['client_id', 'revision']).execute();
  for (const client of clients) {
    const id = client.client_id;
    const born = auditOf((a) => a.target_type === 'client' && a.target_id === id && CLIENT_BIRTH_ACTIONS.has(a.action));
    if (born !== 1) problems.push(`client ${id}: ${born} creation audit entries`);
    const changes = auditOf((a) => a.target_type === 'client' && a.target_id === id && !CLIENT_BIRTH_ACTIONS.has(a.action));
    if (client.client_version !== 1 + changes) problems.push(`client ${id}: clientVersion ${client.client_version} but ${changes} audited changes`);
    const own = revisions.filter((r) => r.client_id === id).map((r) => r.revision).sort((a, b) => a - b);
    if (own.join() !== Array.from({ length: client.revision }, (_, i) => i + 1).join()) problems.push(`client ${id}: revision ${client.revision} but revisions [${own.join()}]`);
    const ownSecrets = secrets.filter((s) => s.client_id === id);
    if (client.client_type === 'spa') {
      if (ownSecrets.length > 0) problems.push(`spa client ${id}: ${ownSecrets.length} secrets`);
      continue;
    }
    const active = ownSecrets.filter((s) => s.status === 'active').length;
    if (active !== 1) problems.push(`web client ${id}: ${active} active secrets`);
    const rotations = auditOf((a) => a.action === 'client.secret_rotate' && a.target_id === id);
    if (ownSecrets.length !== 1 + rotations) problems.push(`web client ${id}: ${ownSecrets.length} secrets but ${rotations} audited rotations`);
  }
  for (const entry of audit.filter((a) => CLIENT_BIRTH_ACTIONS.has(a.action))) {
    if (!clients.some((c) => c.client_id === entry.target_id)) problems.push(`audit ${entry.action} for a client ${entry.target_id} that does not exist`);
  }
  return problems;
}
