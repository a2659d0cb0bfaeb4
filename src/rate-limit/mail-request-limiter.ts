import { normalizeAccount } from '../domain/accounts.ts';
import { AppError } from '../errors.ts';
import { addressKey } from './address-key.ts';
import type { LimitRule, RateLimitStore } from './rate-limit-store.ts';

/**
 * Requests that make Sesame send mail to a person (password resets) are limited per account and per
 * address: enough for someone who asks again, too few to flood an inbox. The account counts whether
 * or not it exists, so the limit tells nothing about which accounts do.
 */
export const MAIL_REQUEST_LIMITS = { perAccount: 5, perIp: 30, windowSeconds: 900 } as const;

export interface MailRequestLimiter {
  /** Counts one request; throws 429 rate_limited (with retryAfterSeconds) when the account or the address asked too often. */
  consume(request: { account: string; ip: string | null }): Promise<void>;
}

export const unlimitedMailRequests: MailRequestLimiter = { consume: async () => {} };

export function createMailRequestLimiter(deps: { store: RateLimitStore; key: (name: string, ...parts: string[]) => string }): MailRequestLimiter {
  const windowMs = MAIL_REQUEST_LIMITS.windowSeconds * 1000;
  return {
    async consume({ account, ip }) {
      const rules: LimitRule[] = [{ key: deps.key('mail-account', normalizeAccount(account)), limit: MAIL_REQUEST_LIMITS.perAccount, windowMs }];
      if (ip !== null) rules.push({ key: deps.key('mail-ip', addressKey(ip)), limit: MAIL_REQUEST_LIMITS.perIp, windowMs });
      const verdict = await deps.store.consume(rules);
      if (verdict.outcome !== 'refused') return;
      const retryAfterSeconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
      throw new AppError('rate_limited', `Too many requests for this account or from this address; wait ${retryAfterSeconds} seconds before asking again.`, { retryAfterSeconds });
    },
  };
}
