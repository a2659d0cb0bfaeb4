import { z } from 'zod';
import { SURFACES } from '../../domain/actor.ts';
import { AUDIT_PAGE } from '../../domain/limits.ts';
import type { AuditLogEntry } from '../../services/types.ts';
import { pageLimitQuery, timestamp, toIso } from './common.ts';

export const auditLogQuery = z.object({
  limit: pageLimitQuery(AUDIT_PAGE, 'entries'),
  before: z
    .union([z.string().regex(/^aud_[0-9a-z]+_[0-9A-Za-z]+$/, 'must be an auditId'), z.iso.datetime()], {
      error: 'must be the auditId of the last entry you have, or an ISO-8601 UTC time such as 2026-11-21T09:30:00.000Z',
    })
    .optional()
    .meta({
      description:
        'Where the next page starts: the `auditId` of the last entry you have (exact, the way to page), or an ISO-8601 time (only entries strictly older than it).',
    }),
});

export const auditLogJson = z
  .object({
    auditId: z.string(),
    at: timestamp,
    actorSubjectId: z.string().nullable().meta({ description: 'Who made the change; null for the system or the command line.' }),
    actorAccount: z.string().nullable().meta({ description: 'The account name of `actorSubjectId` as it is now; null when there is none.' }),
    surface: z.enum(SURFACES).meta({ description: 'Where the change came from: the console, the Agent API, the MCP server, the command line or Sesame itself.' }),
    action: z.string().meta({ examples: ['client.revise'] }),
    targetType: z.string(),
    targetId: z.string(),
    before: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The changed fields before the change; never a secret.' }),
    after: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The changed fields after the change; never a secret.' }),
    ip: z.string().nullable().meta({
      description: 'The address the change was made from; null for the system or the command line, and always null for viewers and maintainers (only the project\'s owner and administrators see addresses).',
    }),
    viaClientId: z.string().nullable().meta({ description: 'The assistant (native client) whose OAuth token made the change; null for the console, password sessions, the command line and the system.' }),
  })
  .meta({ id: 'AuditLogEntry' });

export type AuditLogJson = z.infer<typeof auditLogJson>;

export const auditLogListResponse = z.object({ auditLogs: z.array(auditLogJson) });

export const presentAuditLog = (entry: AuditLogEntry): z.infer<typeof auditLogJson> => ({
  auditId: entry.auditId,
  at: toIso(entry.at),
  actorSubjectId: entry.actorSubjectId,
  actorAccount: entry.actorAccount,
  surface: entry.surface,
  action: entry.action,
  targetType: entry.targetType,
  targetId: entry.targetId,
  before: entry.before,
  after: entry.after,
  ip: entry.ip,
  viaClientId: entry.viaClientId,
});
