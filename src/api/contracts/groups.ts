import { z } from 'zod';
import { DISPLAY_NAME_MAX_LENGTH, displayNameProblem } from '../../domain/accounts.ts';
import { GROUP_DESCRIPTION_MAX_LENGTH, GROUP_NAME_PATTERN, GROUP_NAME_RULE, type Group, type GroupMember } from '../../domain/groups.ts';
import { readableText, timestamp, toIso } from './common.ts';

const rule = (problem: (value: string) => string | undefined) => (value: string, context: z.RefinementCtx) => {
  const message = problem(value);
  if (message !== undefined) context.addIssue({ code: 'custom', message });
};

const displayName = readableText().superRefine(rule(displayNameProblem)).meta({ maxLength: DISPLAY_NAME_MAX_LENGTH, description: 'What people see in the console.' });
const description = readableText().max(GROUP_DESCRIPTION_MAX_LENGTH).meta({ description: 'Free text: what the group is for.' });

export const createGroupRequest = z
  .object({
    name: z
      .string()
      .regex(GROUP_NAME_PATTERN, GROUP_NAME_RULE)
      .meta({ description: 'Unique slug; what applications see in the `groups` claim. Cannot be changed.', examples: ['staff'] }),
    displayName,
    description: description.optional(),
  })
  .strict();

export const updateGroupRequest = z
  .object({
    expectedVersion: z.number().int().min(1).meta({ description: 'The `version` you last read; a stale one is refused with 409 version_conflict.' }),
    displayName: displayName.optional(),
    description: description.optional(),
  })
  .strict();

export const removeGroupRequest = z.object({ expectedVersion: z.number().int().min(1) }).strict();
export const groupParams = z.object({ name: z.string().min(1).max(100).meta({ description: 'The group\'s name.' }) });
export const groupMemberParams = groupParams.extend({ subjectId: z.string().min(1).max(200).meta({ description: 'The person\'s subjectId.' }) });

export const groupJson = z
  .object({
    name: z.string(),
    displayName: z.string(),
    description: z.string(),
    memberCount: z.number().int(),
    version: z.number().int().meta({ description: 'Send as `expectedVersion` to change or remove the group; member changes do not change it.' }),
    createdAt: timestamp,
  })
  .meta({ id: 'Group' });
export type GroupJson = z.infer<typeof groupJson>;

export const groupResponse = z.object({ group: groupJson });
export const groupListResponse = z.object({ groups: z.array(groupJson) });

export const groupMemberJson = z
  .object({
    subjectId: z.string(),
    account: z.string(),
    displayName: z.string(),
    source: z.string().meta({ description: '`local` (managed with these operations), or `oidc:NAME` / `ldap:NAME`: the identity provider that sets it at each sign-in through it.' }),
  })
  .meta({ id: 'GroupMember' });
export const groupMemberListResponse = z.object({ members: z.array(groupMemberJson) });

export const presentGroup = (group: Group): GroupJson => ({
  name: group.name,
  displayName: group.displayName,
  description: group.description,
  memberCount: group.memberCount,
  version: group.version,
  createdAt: toIso(group.createdAt),
});

export const presentGroupMember = (member: GroupMember): z.infer<typeof groupMemberJson> => ({
  subjectId: member.subjectId,
  account: member.account,
  displayName: member.displayName,
  source: member.source,
});
