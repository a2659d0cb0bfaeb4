import type { FirstProof } from '../domain/sign-in-decision.ts';
import { csrfTokens } from '../security/csrf-token.ts';

// After a correct password, the one-time-code page carries this ticket instead of the password: an HMAC,
// under the cookie keys, of the interaction's uid, the person and an expiry. It works only for that
// interaction (whose signed cookie only this browser holds) and only for a few minutes.
const PURPOSE = 'interaction-second-step';
export const SECOND_STEP_SECONDS = 300;

/** The purposes of the other tickets of one sign-in: each step accepts only its own. */
export const TICKET_PURPOSES = {
  /** A person whose password was right and who must enrol a factor first. */
  enrolment: 'interaction-enrolment',
  /** A person an upstream provider just signed in, sent back to the interaction's own address where the sign-in decision is asked. */
  upstreamSignedIn: 'interaction-upstream-signed-in',
  /** A person who just enrolled `subjectId:factorId` in this sign-in and saw their recovery codes. */
  enrolled: 'interaction-enrolled',
} as const;

/** `subject` never holds a dot (subject ids are UUIDs; tickets join several with `:`). */
export function interactionTicket(cookieKeys: readonly string[], purpose: string, uid: string, subject: string, now: number, seconds = SECOND_STEP_SECONDS): string {
  const expiresAt = now + seconds * 1000;
  return `${subject}.${expiresAt}.${csrfTokens(cookieKeys, purpose).issue(`${uid}|${subject}|${expiresAt}`)}`;
}

export function interactionTicketSubject(cookieKeys: readonly string[], purpose: string, uid: string, ticket: string, now: number): string | null {
  const [subject, expires, ...rest] = ticket.split('.');
  const expiresAt = Number(expires);
  if (!subject || !Number.isSafeInteger(expiresAt) || expiresAt <= now) return null;
  return csrfTokens(cookieKeys, purpose).verify(`${uid}|${subject}|${expiresAt}`, rest.join('.')) ? subject : null;
}

export const isFirstProof = (value: string | undefined): value is FirstProof => value === 'pwd' || value === 'fed' || value === 'hwk';

/** The ticket of a sign-in that owes its second factor: the person, and the first proof they gave (it leads their `amr`). */
export function secondStepTicket(cookieKeys: readonly string[], uid: string, subjectId: string, first: FirstProof, now: number): string {
  return interactionTicket(cookieKeys, PURPOSE, uid, `${subjectId}:${first}`, now);
}

/** The person whose first proof this interaction checked, and that proof; null when the ticket is forged, moved or stale. */
export function secondStepSubject(cookieKeys: readonly string[], uid: string, ticket: string, now: number): { subjectId: string; first: FirstProof } | null {
  const [subjectId, first] = interactionTicketSubject(cookieKeys, PURPOSE, uid, ticket, now)?.split(':') ?? [];
  return subjectId && isFirstProof(first) ? { subjectId, first } : null;
}
