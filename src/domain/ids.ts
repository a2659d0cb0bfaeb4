import { randomBytes, randomUUID } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random text over [0-9A-Za-z] only: relying parties form-encode Basic credentials,
 * and some get `-`, `_`, `.` and `~` wrong, so generated secrets avoid them.
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting the rest keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** 32 random bytes' worth of entropy (43 base62 characters). */
export const newSecretValue = () => randomBase62(43);
export const newSubjectId = () => randomUUID();
export const newProjectId = () => `prj_${randomBase62(16)}`;
export const newClientId = () => `cli_${randomBase62(20)}`;
export const newSecretId = () => `sec_${randomBase62(16)}`;
let lastAuditMillisecond = 0;
let auditSequence = 0;

/**
 * Time-ordered, and in write order within one millisecond of one process (a fixed-width counter before the
 * random part): the audit trail is listed and paged by this id, and entries of one change often share a millisecond.
 */
export function newAuditId(): string {
  const now = Date.now();
  auditSequence = now === lastAuditMillisecond ? auditSequence + 1 : 0;
  lastAuditMillisecond = now;
  return `aud_${now.toString(36)}_${auditSequence.toString(36).padStart(4, '0')}${randomBase62(10)}`;
}
export const newSessionId = () => `ses_${randomBase62(20)}`;
export const newFactorId = () => `fac_${randomBase62(16)}`;
export const newIdentityId = () => `idn_${randomBase62(16)}`;
