import { z } from 'zod';
import { ASSIGNABLE_ROLES, OWNERSHIP_TRANSFER_RESULT, PROJECT_ROLES } from '../../domain/roles.ts';
import type { Member, Project } from '../../services/types.ts';
import { projectIdParams, projectVersion, timestamp, toIso } from './common.ts';
import { presentProject, projectJson } from './projects.ts';

export const memberJson = z
  .object({
    subjectId: z.string(),
    account: z.string(),
    displayName: z.string(),
    role: z.enum(PROJECT_ROLES),
    createdAt: timestamp.meta({ description: 'When the user became a member.' }),
  })
  .meta({ id: 'Member' });

export type MemberJson = z.infer<typeof memberJson>;

export const presentMember = (member: Member): MemberJson => ({
  subjectId: member.subjectId,
  account: member.account,
  displayName: member.displayName,
  role: member.role,
  createdAt: toIso(member.createdAt),
});

export const memberParams = projectIdParams.extend({ subjectId: z.string().meta({ description: 'The member\'s subject identifier.' }) });

export const memberListResponse = z.object({ members: z.array(memberJson) });
export const membershipResponse = z.object({ member: memberJson, project: projectJson });
export const presentMembership = (result: { member: Member; project: Project }) => ({ member: presentMember(result.member), project: presentProject(result.project) });

export const addMemberRequest = z
  .object({
    subjectId: z.string().meta({ description: 'The user to add, by `subjectId`: look it up by exact account name first (the `lookupUser` operation).' }),
    role: z.enum(ASSIGNABLE_ROLES).optional().meta({ description: 'Defaults to `maintainer`. The owner changes only by transfer.' }),
    expectedProjectVersion: projectVersion,
  })
  .strict();

export const changeMemberRoleRequest = z
  .object({
    role: z.enum(ASSIGNABLE_ROLES).meta({ description: 'The new role. The owner changes only by transfer.' }),
    expectedProjectVersion: projectVersion,
  })
  .strict();

export const removeMemberRequest = z.object({ expectedProjectVersion: projectVersion }).strict();

export const transferOwnershipRequest = z
  .object({
    toSubjectId: z.string().meta({ description: `An existing member who becomes the owner. ${OWNERSHIP_TRANSFER_RESULT}` }),
    expectedProjectVersion: projectVersion,
  })
  .strict();
