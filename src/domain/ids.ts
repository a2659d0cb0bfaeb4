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
export const newAuditId = () => `aud_${Date.now().toString(36)}_${randomBase62(10)}`;
export const newSessionId = () => `ses_${randomBase62(20)}`;
export const newFactorId = () => `fac_${randomBase62(16)}`;
export const newIdentityId = () => `idn_${randomBase62(16)}`;
