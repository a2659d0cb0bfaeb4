import { STUDENT_STATUSES, type Scope } from './clients.ts';

/** What each scope releases, for the people who configure clients (the console, the agent guide). */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  openid: 'required in every client; releases sub, the person\'s subject identifier',
  profile: 'name and preferred_username',
  email: 'email and email_verified',
  student: `student_status (${STUDENT_STATUSES.slice(0, -1).join(', ')} or ${STUDENT_STATUSES.at(-1)})`,
  groups: 'groups, the sorted names of the groups the person is in ([] when none)',
  offline_access: 'refresh tokens, for web clients that act while the person is away',
};

/** What each scope lets an application do, in the words of the person asked to allow it (the consent page). */
export const SCOPE_CONSENT_TEXT: Record<Scope, string> = {
  openid: 'Know who you are (your Sesame user identifier)',
  profile: 'See your name and account name',
  email: 'See your email address and whether it is verified',
  student: 'See your student status',
  groups: 'See your groups',
  offline_access: 'Stay connected while you are away, until you sign out of it or it is revoked',
};

/** Which claims each scope releases; the OIDC engine hands out only those of the granted scopes. */
export const CLAIMS_BY_SCOPE = {
  openid: ['sub'],
  profile: ['name', 'preferred_username'],
  email: ['email', 'email_verified'],
  student: ['student_status'],
  groups: ['groups'],
} as const satisfies Partial<Record<Scope, readonly string[]>>;
