import type { Actor } from '../../domain/actor.ts';
import { LOCAL_MEMBERSHIP, mappedGroupNames, providerMembershipSource, type Group, type GroupMember } from '../../domain/groups.ts';
import type { IdentityProviderType } from '../../domain/identity-providers.ts';
import { said, see } from '../../domain/pointed-text.ts';
import { AppError } from '../../errors.ts';
import type { Repositories } from '../../storage/store.ts';
import { writeAudit } from '../shared/audit.ts';
import { requireAdmin } from '../shared/caller-checks.ts';
import type { ServiceDeps } from '../shared/deps.ts';

export interface NewGroup {
  name: string;
  displayName: string;
  description?: string | undefined;
}

export interface GroupChangesInput {
  expectedVersion: number;
  displayName?: string | undefined;
  description?: string | undefined;
}

const ADMINS_ONLY = 'Only administrators see and change groups.';

const notFound = (name: string) => new AppError('not_found', said`No group is named ${name}; list them with ${see('listGroups')}.`);
const personNotFound = (subjectId: string) => new AppError('not_found', said`No person has the subjectId ${subjectId}; find people with ${see('listUsers')}.`);
const nameTaken = (name: string) => new AppError('invalid_request', `A group is already named ${name}; choose another name.`, { fieldErrors: { name: 'already taken' } });
const conflict = (name: string, version: number) =>
  new AppError('version_conflict', said`The group ${name} changed meanwhile (now version ${version}); read it again with ${see('listGroups')} and retry with that version.`);

const audited = (group: Pick<Group, 'displayName' | 'description'>) => ({ displayName: group.displayName, description: group.description });

/** What a sign-in through a provider says about the person's groups there; undefined: it said nothing (leave them). */
export interface UpstreamGroups {
  type: IdentityProviderType;
  providerName: string;
  groupMapping: Readonly<Record<string, string>>;
  /** The upstream's group names (OpenID Connect) or group DNs (LDAP); undefined when the claim was absent or the search failed. */
  upstreamGroups: readonly string[] | undefined;
}

/**
 * Replaces the memberships a provider manages for one person by the mapped ones (DESIGN.md section 16):
 * memberships of other sources are left alone, and a group the person is in already keeps its source.
 * Each changed group gets one audit entry in the administrators' trail. Runs in the caller's transaction.
 */
export async function replaceProviderMemberships(repos: Repositories, deps: Pick<ServiceDeps, 'clock'>, actor: Actor, subjectId: string, upstream: UpstreamGroups): Promise<void> {
  if (upstream.upstreamGroups === undefined) return;
  const source = providerMembershipSource(upstream.type, upstream.providerName);
  const wanted = new Set(await repos.groups.existing(mappedGroupNames(upstream.type, upstream.groupMapping, upstream.upstreamGroups)));
  const held = await repos.groups.namesFromSource(subjectId, source);
  const now = deps.clock.now();
  for (const name of held.filter((group) => !wanted.has(group))) {
    await repos.groups.removeMember(name, subjectId);
    await writeAudit(repos, deps.clock, actor, { action: 'group.member_remove', targetType: 'group', targetId: name, before: { subjectId, source } });
  }
  for (const name of wanted) {
    if ((await repos.groups.membershipSource(name, subjectId)) !== undefined) continue;
    await repos.groups.putMember(name, subjectId, source, now);
    await writeAudit(repos, deps.clock, actor, { action: 'group.member_add', targetType: 'group', targetId: name, after: { subjectId, source } });
  }
}

/** Administrators' operations on groups and their members (DESIGN.md section 16). */
export function createGroupService(deps: ServiceDeps) {
  const { store, clock } = deps;

  async function requireGroup(repos: Repositories, name: string): Promise<Group> {
    const group = await repos.groups.find(name);
    if (!group) throw notFound(name);
    return group;
  }

  return {
    async listGroups(actor: Actor): Promise<Group[]> {
      requireAdmin(actor, ADMINS_ONLY);
      return store.repos.groups.list();
    },

    async addGroup(actor: Actor, input: NewGroup): Promise<Group> {
      requireAdmin(actor, ADMINS_ONLY);
      return store.transaction(async (repos) => {
        const now = clock.now();
        const group = { name: input.name, displayName: input.displayName.trim(), description: input.description?.trim() ?? '', version: 1, createdAt: now, updatedAt: now };
        if (!(await repos.groups.insert(group))) throw nameTaken(input.name);
        await writeAudit(repos, clock, actor, { action: 'group.create', targetType: 'group', targetId: group.name, after: audited(group) });
        return { ...group, memberCount: 0 };
      });
    },

    async changeGroup(actor: Actor, name: string, changes: GroupChangesInput): Promise<Group> {
      requireAdmin(actor, ADMINS_ONLY);
      return store.transaction(async (repos) => {
        const before = await requireGroup(repos, name);
        const after = {
          displayName: changes.displayName !== undefined ? changes.displayName.trim() : before.displayName,
          description: changes.description !== undefined ? changes.description.trim() : before.description,
        };
        if (!(await repos.groups.updateIfVersion(name, changes.expectedVersion, { ...after, updatedAt: clock.now() }))) throw conflict(name, before.version);
        await writeAudit(repos, clock, actor, { action: 'group.update', targetType: 'group', targetId: name, before: audited(before), after });
        return requireGroup(repos, name);
      });
    },

    async removeGroup(actor: Actor, name: string, expectedVersion: number): Promise<void> {
      requireAdmin(actor, ADMINS_ONLY);
      await store.transaction(async (repos) => {
        const before = await requireGroup(repos, name);
        if (!(await repos.groups.removeIfVersion(name, expectedVersion))) throw conflict(name, before.version);
        await writeAudit(repos, clock, actor, { action: 'group.delete', targetType: 'group', targetId: name, before: { ...audited(before), memberCount: before.memberCount } });
      });
    },

    async listMembers(actor: Actor, name: string): Promise<GroupMember[]> {
      requireAdmin(actor, ADMINS_ONLY);
      await requireGroup(store.repos, name);
      return store.repos.groups.listMembers(name);
    },

    /** Idempotent; a membership a provider manages becomes local (administrators manage it from now on). */
    async putMember(actor: Actor, name: string, subjectId: string): Promise<void> {
      requireAdmin(actor, ADMINS_ONLY);
      await store.transaction(async (repos) => {
        await requireGroup(repos, name);
        if (!(await repos.users.findBySubjectId(subjectId))) throw personNotFound(subjectId);
        const source = await repos.groups.membershipSource(name, subjectId);
        if (source === LOCAL_MEMBERSHIP) return;
        await repos.groups.putMember(name, subjectId, LOCAL_MEMBERSHIP, clock.now());
        await writeAudit(repos, clock, actor, {
          action: 'group.member_add',
          targetType: 'group',
          targetId: name,
          before: source === undefined ? null : { subjectId, source },
          after: { subjectId, source: LOCAL_MEMBERSHIP },
        });
      });
    },

    /** Removes the membership whatever its source (idempotent); a provider's comes back at the person's next sign-in through it. */
    async removeMember(actor: Actor, name: string, subjectId: string): Promise<void> {
      requireAdmin(actor, ADMINS_ONLY);
      await store.transaction(async (repos) => {
        await requireGroup(repos, name);
        const source = await repos.groups.membershipSource(name, subjectId);
        if (source === undefined) return;
        await repos.groups.removeMember(name, subjectId);
        await writeAudit(repos, clock, actor, { action: 'group.member_remove', targetType: 'group', targetId: name, before: { subjectId, source } });
      });
    },

    /** The group names of several people (the admin User shape), each sorted. */
    async groupNamesOfPeople(actor: Actor, subjectIds: readonly string[]): Promise<Map<string, string[]>> {
      requireAdmin(actor, ADMINS_ONLY);
      return store.repos.groups.groupNamesOfPeople(subjectIds);
    },

    /** The `groups` claim: the person's group names, sorted; asked only when the sign-in granted the `groups` scope. */
    async claimGroupsOf(subjectId: string): Promise<string[]> {
      return store.repos.groups.groupNamesOf(subjectId);
    },
  };
}

export type GroupService = ReturnType<typeof createGroupService>;
