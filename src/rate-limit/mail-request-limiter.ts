import { AppError } from '../errors.ts';
import { addressKey } from './address-key.ts';
import type { LimitRule, RateLimitStore } from './rate-limit-store.ts';

/**
 * Requests that make Sesame send mail to a person (password resets) are refused only per address:
 * 20 an hour, plenty for someone who asks again. There is no per-account refusal, so nobody can block
 * a person's own request by asking in their name; how many mails an account gets is capped where the
 * mail is made (RESET_MAIL_LIMIT), with the same answer either way.
 */
export const MAIL_REQUEST_LIMITS = { perIp: 20, windowSeconds: 3600 } as const;

export interface MailRequestLimiter {
  /** Counts one request; throws 429 rate_limited (with retryAfterSeconds) when the address asked too often. */
  consume(request: { account: string; ip: string | null }): Promise<void>;
}

export const unlimitedMailRequests: MailRequestLimiter = { consume: async () => {} };

export function createMailRequestLimiter(deps: { store: RateLimitStore; key: (name: string, ...parts: string[]) => string }): MailRequestLimiter {
  const windowMs = MAIL_REQUEST_LIMITS.windowSeconds * 1000;
  return {
    async consume({ ip }) {
      if (ip === null) return;
      const rules: LimitRule[] = [{ key: deps.key('mail-ip', addressKey(ip)), limit: MAIL_REQUEST_LIMITS.perIp, windowMs }];
      const verdict = await deps.store.consume(rules);
      if (verdict.outcome !== 'refused') return;
      const retryAfterSeconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
      throw new AppError('rate_limited', `Too many requests from this address; wait ${retryAfterSeconds} seconds before asking again.`, { retryAfterSeconds });
    },
  };
}
