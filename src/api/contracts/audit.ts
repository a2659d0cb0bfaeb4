import { z } from 'zod';
import { SURFACES } from '../../domain/actor.ts';
import { AUDIT_PAGE } from '../../domain/limits.ts';
import type { AuditLogEntry } from '../../services/types.ts';
import { pageLimitQuery, timestamp, toIso } from './common.ts';

/** How to page an audit trail, as the query's documentation and the guide both say it. */
export const AUDIT_BEFORE =
  'where the next page starts: the `auditId` of the last entry you have (the way to page: entries written in the same millisecond are neither skipped nor repeated), ' +
  'or an ISO-8601 time (only entries strictly older than it).';

// Query strings are text by nature; the integer is spelled out rather than coerced, so "1e3" or " 5" are refused.
export const auditLogQuery = z.object({
  limit: pageLimitQuery(AUDIT_PAGE, 'entries'),
  before: z
    .union([z.string().regex(/^aud_[0-9a-z]+_[0-9A-Za-z]+$/, 'must be an auditId'), z.iso.datetime()], {
      error: 'must be the auditId of the last entry you have, or an ISO-8601 UTC time such as 2026-11-21T09:30:00.000Z',
    })
    .optional()
    .meta({ description: `${AUDIT_BEFORE[0]!.toUpperCase()}${AUDIT_BEFORE.slice(1)}` }),
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
    before: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The changed fields before the change; never a secret. Times in it are ISO-8601 text like everywhere else.' }),
    after: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The changed fields after the change; never a secret. Times in it are ISO-8601 text like everywhere else.' }),
    ip: z.string().nullable().meta({
      description: 'The address the change was made from; null for the system or the command line, and always null for viewers and maintainers (only the project\'s owner and administrators see addresses).',
    }),
    viaClientId: z.string().nullable().meta({ description: 'The assistant (native client) whose OAuth token made the change; null for the console, password sessions, the command line and the system.' }),
    viaClientName: z.string().nullable().meta({
      description: 'That assistant\'s name: its registered name, or for an assistant known by its client ID metadata document (a `viaClientId` that is an https URL) the document\'s `client_name` when the person consented; null when `viaClientId` is.',
    }),
  })
  .meta({ id: 'AuditLogEntry' });

export type AuditLogJson = z.infer<typeof auditLogJson>;

export const auditLogListResponse = z.object({ auditLogs: z.array(auditLogJson) });

/** A field of an audit diff that holds a time: `expiresAt`, `retiringUntil`... */
const TIME_FIELD = /(At|Until)$/;

/**
 * Times in a diff read as ISO-8601 like every other time of the API. Entries written before the services
 * wrote ISO text hold epoch milliseconds under these names; they are converted here, on the way out.
 */
function isoTimes(diff: Record<string, unknown> | null): Record<string, unknown> | null {
  if (diff === null) return null;
  return Object.fromEntries(
    Object.entries(diff).map(([key, value]) => [key, TIME_FIELD.test(key) && typeof value === 'number' && Number.isFinite(value) ? toIso(value) : value]),
  );
}

export const presentAuditLog = (entry: AuditLogEntry): z.infer<typeof auditLogJson> => ({
  auditId: entry.auditId,
  at: toIso(entry.at),
  actorSubjectId: entry.actorSubjectId,
  actorAccount: entry.actorAccount,
  surface: entry.surface,
  action: entry.action,
  targetType: entry.targetType,
  targetId: entry.targetId,
  before: isoTimes(entry.before),
  after: isoTimes(entry.after),
  ip: entry.ip,
  viaClientId: entry.viaClientId,
  viaClientName: entry.viaClientName,
});
