import { said, see, type PointedText } from './pointed-text.ts';

// Refusal texts that several use cases and the guides share. They name operations by pointer, so each
// surface says them in its own words (a REST path on the APIs, a tool name over MCP).

/** The one wording of a retry after 409 version_conflict: the error itself, its advice and the guides all say it. */
export const VERSION_CONFLICT_RETRY = 'If it conflicts again, repeat these steps; after three conflicts in a row, stop and tell the person what changed.';

const VERSION_OF = {
  project: { read: 'getProject', field: '`project.version` as `expectedProjectVersion`' },
  client: { read: 'getClient', field: '`client.clientVersion` as `clientVersion`' },
  settings: { read: 'getSettings', field: '`settings.version` as `expectedSettingsVersion`' },
} as const;

/**
 * The error text of a version conflict. The current version is left out on purpose: a caller handed the
 * number tends to resend the same change with it, over whatever the other writer did.
 */
export const versionConflictText = (kind: keyof typeof VERSION_OF): PointedText =>
  said`The ${kind} changed since you read it. Read it again (${see(VERSION_OF[kind].read)}), check that your change still makes sense against what is there now, and send it again with ${VERSION_OF[kind].field}. ${VERSION_CONFLICT_RETRY}`;

/** The error text of a write to an archived project: what it means and the operation and field that un-archive it. */
export const PROJECT_ARCHIVED: { meaning: string; action: PointedText } = {
  meaning: 'The project is archived and read-only; its clients cannot sign anyone in.',
  action: said`Ask the person whether to un-archive it; the owner or an administrator does so with ${see('updateProject')} and \`{"status": "active", "expectedProjectVersion": N}\` (N from ${see('getProject')}). Then read the resource again and retry your change.`,
};

/** The text of login_required where a use case finds no signed-in person. */
export const SIGN_IN_FIRST = said`Sign in first (${see('login')} with \`account\` and \`password\`, or an OAuth access token), then repeat the request.`;
