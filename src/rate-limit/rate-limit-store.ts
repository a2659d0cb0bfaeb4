/** One counter a request is held to: at most `limit` within `windowMs` of the first counted hit. */
export interface LimitRule {
  key: string;
  limit: number;
  windowMs: number;
}

export type Verdict =
  | { outcome: 'allowed' }
  /** `ruleIndex` names the rule that refused (the one with the longest wait). */
  | { outcome: 'refused'; retryAfterMs: number; ruleIndex: number }
  /** Not refused, but attempts still in flight could reach the limit: ask again shortly. */
  | { outcome: 'busy' };

export interface SettleOutcome {
  /** Count the attempt as a failure on every rule. */
  failed: boolean;
  /** Keys whose failure count is forgotten (only when not failed). */
  clearKeys: string[];
}

/**
 * Counters that parallel requests cannot race past: every operation checks and counts all
 * its rules in one atomic step, in process (a Map) or in Redis (one Lua script).
 */
export interface RateLimitStore {
  /**
   * Counts one hit on every `counted` rule, unless one of them or of `checked` is at its limit;
   * then nothing is counted. `ruleIndex` in a refusal indexes `[...counted, ...checked]`.
   */
  consume(counted: LimitRule[], checked?: LimitRule[]): Promise<Verdict>;
  /** Counts one hit on every rule, whatever the counts (for something already done). */
  record(rules: LimitRule[]): Promise<void>;
  /**
   * Holds a place for an attempt whose outcome is not known yet (a password being verified),
   * so that failures plus attempts in flight never exceed a limit. A hold lapses after `holdMs`
   * even if never settled (a process killed mid-attempt).
   */
  reserve(rules: LimitRule[], attemptId: string, holdMs: number): Promise<Verdict>;
  /** Ends a hold: a failure counts on every rule; a success counts nothing and may clear keys. */
  settle(rules: LimitRule[], attemptId: string, outcome: SettleOutcome): Promise<void>;
  /** The live count of a key: failures still inside their window, 1 for a remembered mark, 0 for none. */
  peek(key: string): Promise<number>;
  /** Marks a key (count 1) for `ttlMs` from now; marking it again renews it. */
  remember(key: string, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}
