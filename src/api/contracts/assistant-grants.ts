import { z } from 'zod';
import { ASSISTANT_GRANT_PAGE } from '../../domain/limits.ts';
import type { AssistantGrant, AssistantGrantCursor, AssistantGrantPage } from '../../domain/views.ts';
import { pageLimitQuery, timestamp, toIsoOrNull } from './common.ts';

// `nextBefore` is the last grant's fixed expiry (epoch ms) and its id: a page boundary that stays put when grants come and go.
const CURSOR = /^([0-9]{1,16})\.([0-9A-Za-z_-]{1,200})$/;

export const assistantGrantQuery = z.object({
  limit: pageLimitQuery(ASSISTANT_GRANT_PAGE, 'grants'),
  before: z
    .string()
    .regex(CURSOR, 'must be the nextBefore of the page you have')
    .transform((value): AssistantGrantCursor => {
      const [, expiresAt, grantId] = CURSOR.exec(value)!;
      return { expiresAt: Number(expiresAt), grantId: grantId! };
    })
    .optional()
    .meta({ description: 'Where the next page starts: the `nextBefore` of the page you have.' }),
});

export const assistantGrantJson = z
  .object({
    grantId: z.string().meta({ description: 'The grant: revoke it with `DELETE /admin/assistant-grants/{grantId}`.' }),
    clientId: z.string().meta({ description: 'The assistant: a `native` client.' }),
    displayName: z.string().meta({ description: 'The assistant\'s name, as its client is registered.' }),
    subjectId: z.string().meta({ description: 'The person who connected it.' }),
    account: z.string().meta({ description: 'That person\'s account name.' }),
    scopes: z.array(z.string()).meta({ description: 'What the person allowed: `sesame:read`, `sesame:write`, `sesame:admin`, and any OpenID scopes.' }),
    grantedAt: timestamp.nullable(),
    lastUsedAt: timestamp.nullable().meta({ description: 'When its token was last accepted at /mcp or /api/agent, or a token was last issued (to the minute); null when never.' }),
  })
  .meta({ id: 'AssistantGrant' });

export const assistantGrantListResponse = z.object({
  grants: z.array(assistantGrantJson),
  nextBefore: z.string().nullable().meta({ description: 'Pass as `before` for the next page; null on the last page.' }),
});

export const assistantGrantParams = z.object({ grantId: z.string().min(1).max(200) });

export const presentAssistantGrant = (grant: AssistantGrant): z.infer<typeof assistantGrantJson> => ({
  ...grant,
  grantedAt: toIsoOrNull(grant.grantedAt),
  lastUsedAt: toIsoOrNull(grant.lastUsedAt),
});

export const presentAssistantGrantPage = (page: AssistantGrantPage): z.infer<typeof assistantGrantListResponse> => ({
  grants: page.grants.map(presentAssistantGrant),
  nextBefore: page.next ? `${page.next.expiresAt}.${page.next.grantId}` : null,
});
