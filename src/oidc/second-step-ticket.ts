import { csrfTokens } from '../security/csrf-token.ts';

// After a correct password, the one-time-code page carries this ticket instead of the password: an HMAC,
// under the cookie keys, of the interaction's uid, the person and an expiry. It works only for that
// interaction (whose signed cookie only this browser holds) and only for a few minutes.
const PURPOSE = 'interaction-second-step';
export const SECOND_STEP_SECONDS = 300;

export function secondStepTicket(cookieKeys: readonly string[], uid: string, subjectId: string, now: number): string {
  const expiresAt = now + SECOND_STEP_SECONDS * 1000;
  return `${subjectId}.${expiresAt}.${csrfTokens(cookieKeys, PURPOSE).issue(`${uid}|${subjectId}|${expiresAt}`)}`;
}

/** The person whose password this interaction checked, or null when the ticket is forged, moved or stale. */
export function secondStepSubject(cookieKeys: readonly string[], uid: string, ticket: string, now: number): string | null {
  const [subjectId, expires, ...rest] = ticket.split('.');
  const expiresAt = Number(expires);
  if (!subjectId || !Number.isSafeInteger(expiresAt) || expiresAt <= now) return null;
  return csrfTokens(cookieKeys, PURPOSE).verify(`${uid}|${subjectId}|${expiresAt}`, rest.join('.')) ? subjectId : null;
}
